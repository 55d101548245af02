/**
 * Starts fleet-child.ts processes: bundled once with esbuild (packages
 * external) and run by plain `node`, so each process starts in about a
 * second rather than three under a TypeScript loader.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { FleetChildArgs } from "./fleet-child.js";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
let bundled: string | undefined;

/** Bundles the child (call from `beforeAll`); returns the clean-up. */
export async function buildFleetChild(): Promise<() => void> {
  const outdir = join(REPO, ".tmp", `fleet-child-${process.pid}-${Date.now().toString(36)}`);
  mkdirSync(outdir, { recursive: true });
  bundled = join(outdir, "fleet-child.mjs");
  await build({
    entryPoints: [join(REPO, "test", "support", "fleet-child.ts")],
    outfile: bundled,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
  return () => rmSync(outdir, { recursive: true, force: true });
}

export interface FleetChild {
  readonly process: ChildProcess;
  readonly name: string;
  /** Resolves when the child printed a line starting with `prefix` (with the line). */
  printed(prefix: string): Promise<string>;
  /** Resolves with the last stdout line once the child exits (whatever the way), and how it exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; last: string; stderr: string }>;
}

export function startFleetChild(args: FleetChildArgs): FleetChild {
  if (!bundled) throw new Error("call buildFleetChild() before starting children");
  const child = spawn(process.execPath, [bundled, JSON.stringify(args)], {
    cwd: REPO,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LANGSMITH_TRACING: "" },
  });
  const lines: string[] = [];
  const waiters: { prefix: string; resolve: (line: string) => void }[] = [];
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    lines.push(line);
    for (const w of waiters.filter((x) => line.startsWith(x.prefix))) w.resolve(line);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; last: string; stderr: string }>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, last: lines.at(-1) ?? "", stderr }));
  });
  return {
    process: child,
    name: args.name,
    exited,
    printed: (prefix) => {
      const seen = lines.find((l) => l.startsWith(prefix));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise<string>((resolve, reject) => {
        waiters.push({ prefix, resolve });
        void exited.then(({ code, signal, stderr: err }) =>
          reject(new Error(`fleet child ${args.name} exited (${signal ?? code}) before printing ${prefix}:\n${lines.join("\n")}\n${err}`)),
        );
      });
    },
  };
}
