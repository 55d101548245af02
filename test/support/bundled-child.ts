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

/** A spawned bundle, its stdout read as lines. */
export interface LineChild {
  readonly process: ChildProcess;
  /** The stdout lines so far, in order. */
  readonly lines: readonly string[];
  /** What the child wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the first stdout line, printed already or later, that `match` accepts (never, if none comes). */
  line(match: (line: string) => boolean): Promise<string>;
  /** Resolves once the child exited and its streams closed, whatever the way. */
  readonly closed: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `test/support/<name>.ts`, bundled by {@link build} and run as many times as needed by {@link spawn}. */
export class ChildBundle {
  readonly #name: string;
  #file: string | undefined;

  constructor(name: string) {
    this.#name = name;
  }

  /**
   * Bundles the script (call from `beforeAll`) into the repository's
   * `.tmp/`, so its bare imports resolve to `node_modules`; returns the
   * clean-up that removes the bundle.
   */
  async build(): Promise<() => void> {
    const outdir = join(REPO, ".tmp", `${this.#name}-${process.pid}-${Date.now().toString(36)}`);
    mkdirSync(outdir, { recursive: true });
    const file = join(outdir, `${this.#name}.mjs`);
    await build({
      entryPoints: [join(REPO, "test", "support", `${this.#name}.ts`)],
      outfile: file,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      logLevel: "error",
    });
    this.#file = file;
    return () => rmSync(outdir, { recursive: true, force: true });
  }

  /**
   * Runs the bundle with `args` as its one (JSON) argument, from the
   * repository, without LangSmith tracing. `onLine` sees each stdout line
   * once it is in `lines`.
   */
  spawn(
    args: unknown,
    options: { readonly stdin: "ignore" | "pipe"; readonly onLine?: (line: string, child: ChildProcess) => void },
  ): LineChild {
    if (!this.#file) throw new Error(`bundle ${this.#name} (build()) before starting children`);
    const child = spawn(process.execPath, [this.#file, JSON.stringify(args)], {
      cwd: REPO,
      stdio: [options.stdin, "pipe", "pipe"],
      env: { ...process.env, LANGSMITH_TRACING: "" },
    });
    const lines: string[] = [];
    const waiters: { match: (line: string) => boolean; resolve: (line: string) => void }[] = [];
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      lines.push(line);
      options.onLine?.(line, child);
      for (const w of waiters.filter((x) => x.match(line))) w.resolve(line);
    });
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.on("close", (code, signal) => resolve({ code, signal }));
    });
    const line = (match: (line: string) => boolean): Promise<string> => {
      const seen = lines.find(match);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve) => waiters.push({ match, resolve }));
    };
    return { process: child, lines, stderr: () => stderr, line, closed };
  }
}
