/**
 * Starts fleet-child.ts processes: bundled once with esbuild (packages
 * external) and run by plain `node`, so each process starts in about a
 * second rather than three under a TypeScript loader.
 */
import type { ChildProcess } from "node:child_process";
import { bundleChild, spawnLineChild } from "./bundled-child.js";
import type { FleetChildArgs } from "./fleet-child.js";

let bundled: string | undefined;

/** Bundles the child (call from `beforeAll`); returns the clean-up. */
export async function buildFleetChild(): Promise<() => void> {
  const { file, cleanup } = await bundleChild("fleet-child");
  bundled = file;
  return cleanup;
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
  const waiters: { prefix: string; resolve: (line: string) => void }[] = [];
  const {
    process: child,
    lines,
    stderr,
    closed,
  } = spawnLineChild(bundled, args, {
    stdin: "ignore",
    onLine: (line) => {
      for (const w of waiters.filter((x) => line.startsWith(x.prefix))) w.resolve(line);
    },
  });
  const exited = closed.then(({ code, signal }) => ({ code, signal, last: lines.at(-1) ?? "", stderr: stderr() }));
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
