/**
 * Starts fleet-child.ts processes: bundled once with esbuild (packages
 * external) and run by plain `node`, so each process starts in about a
 * second rather than three under a TypeScript loader.
 */
import type { ChildProcess } from "node:child_process";
import { ChildBundle } from "./bundled-child.js";
import type { FleetChildArgs } from "./fleet-child.js";

const bundle = new ChildBundle("fleet-child");

/** Bundles the child (call from `beforeAll`); returns the clean-up. */
export function buildFleetChild(): Promise<() => void> {
  return bundle.build();
}

export interface FleetChild {
  readonly process: ChildProcess;
  readonly name: string;
  /** Resolves when the child printed a line starting with `prefix` (with the line). */
  printed(prefix: string): Promise<string>;
  /** Resolves when the child printed its `n`-th line starting with `prefix` (with that line). */
  printedTimes(prefix: string, n: number): Promise<string>;
  /** The lines the child printed so far starting with `prefix`. */
  lines(prefix: string): string[];
  /** Resolves with the last stdout line once the child exits (whatever the way), and how it exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; last: string; stderr: string }>;
}

export function startFleetChild(args: FleetChildArgs): FleetChild {
  const child = bundle.spawn(args, { stdin: "ignore" });
  const exited = child.closed.then(({ code, signal }) => ({ code, signal, last: child.lines.at(-1) ?? "", stderr: child.stderr() }));
  return {
    process: child.process,
    name: args.name,
    exited,
    lines: (prefix) => child.lines.filter((line) => line.startsWith(prefix)),
    printedTimes: (prefix, n) =>
      new Promise<string>((resolve, reject) => {
        let seen = 0;
        // line() tries the lines printed so far in order, then each new one: count them, once each.
        void child.line((line) => line.startsWith(prefix) && ++seen === n).then(resolve);
        void exited.then(({ code, signal, stderr }) =>
          reject(new Error(`fleet child ${args.name} exited (${signal ?? code}) before printing ${prefix} ${n} times:\n${stderr}`)),
        );
      }),
    printed: (prefix) =>
      new Promise<string>((resolve, reject) => {
        void child.line((line) => line.startsWith(prefix)).then(resolve);
        void exited.then(({ code, signal, stderr }) =>
          reject(
            new Error(
              `fleet child ${args.name} exited (${signal ?? code}) before printing ${prefix}:\n${child.lines.join("\n")}\n${stderr}`,
            ),
          ),
        );
      }),
  };
}
