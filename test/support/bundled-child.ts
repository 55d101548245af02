/**
 * What the child-process harnesses (`durable-children.ts`,
 * `fleet-children.ts`) share: a child script under `test/support/` bundled
 * once with esbuild (packages stay external) and run by plain `node`, as a
 * TypeScript loader would triple each process's start-up; and a spawned
 * child whose stdout is read line by line.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Bundles `test/support/<name>.ts` into the repository's `.tmp/` (so its
 * bare imports resolve to `node_modules`); returns the bundle's path and
 * the clean-up that removes it.
 */
export async function bundleChild(name: string): Promise<{ readonly file: string; readonly cleanup: () => void }> {
  const outdir = join(REPO, ".tmp", `${name}-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(outdir, { recursive: true });
  const file = join(outdir, `${name}.mjs`);
  await build({
    entryPoints: [join(REPO, "test", "support", `${name}.ts`)],
    outfile: file,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
  return { file, cleanup: () => rmSync(outdir, { recursive: true, force: true }) };
}

/** A spawned bundle, its stdout read as lines. */
export interface LineChild {
  readonly process: ChildProcess;
  /** The stdout lines so far, in order. */
  readonly lines: readonly string[];
  /** What the child wrote to stderr so far. */
  stderr(): string;
  /** Resolves once the child exited and its streams closed, whatever the way. */
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Runs `file` with `args` as its one (JSON) argument, from the repository,
 * without LangSmith tracing. `onLine` sees each stdout line once it is in
 * `lines`.
 */
export function spawnLineChild(
  file: string,
  args: unknown,
  options: { readonly stdin: "ignore" | "pipe"; readonly onLine: (line: string, child: ChildProcess) => void },
): LineChild {
  const child = spawn(process.execPath, [file, JSON.stringify(args)], {
    cwd: REPO,
    stdio: [options.stdin, "pipe", "pipe"],
    env: { ...process.env, LANGSMITH_TRACING: "" },
  });
  const lines: string[] = [];
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    lines.push(line);
    options.onLine(line, child);
  });
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal }));
  });
  return { process: child, lines, stderr: () => stderr, closed };
}
