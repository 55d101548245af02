/**
 * Drives `durable-child.ts` processes: one run killed (SIGKILL) at the
 * instant it names, runs that report back, and the execution logs they
 * leave behind. The child is bundled once with esbuild (packages stay
 * external) and run by plain `node`: a tsx loader would triple each
 * process's start-up.
 */
import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ChildBundle } from "./bundled-child.js";
import type { ChildArgs, ChildReport, ExecutionLogLine } from "./durable-child.js";

const bundle = new ChildBundle("durable-child");

/** Bundles the child script (call from `beforeAll`); returns the clean-up. */
export function buildChild(): Promise<() => void> {
  return bundle.build();
}

/** A running child, with its stdout lines as they come. */
export interface Child {
  readonly process: ChildProcess;
  /** Resolves with the child's report when it exits normally; rejects when it dies otherwise. */
  readonly done: Promise<ChildReport>;
  /** Resolves when the child has printed `line` `times` times (once by default). */
  printed(line: string, times?: number): Promise<void>;
}

export function startChild(args: ChildArgs, onLine: (line: string, child: ChildProcess) => void = () => {}): Child {
  const child = bundle.spawn(args, { stdin: "pipe", onLine });
  const done = child.closed.then(({ code, signal }) => {
    const last = child.lines.at(-1) ?? "";
    if (code === 0 && last.startsWith("{")) return JSON.parse(last) as ChildReport;
    throw new Error(
      `child ${args.mode} ${args.threads.join(",")} ended with ${signal ?? `exit code ${code}`}:\n${child.lines.join("\n")}\n${child.stderr()}`,
    );
  });
  return {
    process: child.process,
    done,
    printed: async (line, times = 1) => {
      await child.line(() => child.lines.filter((seen) => seen === line).length >= times);
    },
  };
}

/**
 * Runs a child until it reaches its kill point, kills it there with
 * SIGKILL, and resolves once it is dead. Rejects if the child ends without
 * reaching the point (the test then proves nothing).
 */
export async function runUntilKilled(args: ChildArgs): Promise<void> {
  let reached = false;
  const child = startChild(args, (line, proc) => {
    if (line === `KILLPOINT ${args.killAt}`) {
      reached = true;
      proc.kill("SIGKILL");
    }
  });
  try {
    await child.done;
  } catch (error) {
    if (reached) return;
    throw error;
  }
  throw new Error(`child finished without reaching kill point ${args.killAt}`);
}

/** Runs `tasks` with at most `limit` at a time. */
export async function inParallel<T>(tasks: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await (tasks[i] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

/** The executions a thread's processes logged, in order. */
export function executionLog(dir: string, thread: string): ExecutionLogLine[] {
  const file = join(dir, `${thread}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as ExecutionLogLine);
}
