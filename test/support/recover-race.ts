/**
 * One trial of a fleet of recoverers: a `durable-child.ts` process runs the
 * 6-step chain and is killed (SIGKILL) at a named instant, then N fresh
 * processes call `recover()` on the thread at the same moment (a stdin
 * barrier). The trial counts what matters: how many processes ran steps,
 * steps that ran in more than one process or under more than one
 * idempotency key, recoverers whose reported status contradicts the
 * thread's final one, and losers told anything but `STEP_CLAIMED`.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { ChildArgs } from "./durable-child.js";
import { executionLog, runUntilKilled, startChild } from "./durable-children.js";

export type SaverArgs = Pick<ChildArgs, "saver" | "conn" | "schema">;

export const CHAIN_ACTIONS = ["s1", "s2", "s3", "s4", "s5", "s6"];

/**
 * The executions expected of a chain thread killed at `point` and then
 * recovered: `action#stepAttempt`, in order. `sK:saved` is in the observer
 * after step K's checkpoint was saved; `sK:claimed` right after step K's
 * claim was written, before its action started.
 */
export function expectedExecutions(point: string): string[] {
  const [step, phase] = point.split(":");
  return CHAIN_ACTIONS.flatMap((action) => {
    if (action !== step) return [`${action}#1`];
    // Claimed before the kill but never started: one execution, told an earlier start did not finish.
    if (phase === "before" || phase === "claimed") return [`${action}#2`];
    // Ran (and may have had effects) but its result was never saved: run again, told so.
    if (phase === "during" || phase === "after") return [`${action}#1`, `${action}#2`];
    return [`${action}#1`];
  });
}

/** What one trial saw. */
export interface RaceTrial {
  readonly killAt: string;
  readonly recoverers: number;
  /** Recovering processes that executed at least one action. */
  readonly winners: number;
  /** Actions executed after the kill by more than one process, or under more than one idempotency key over the thread's life. */
  readonly duplicateSteps: number;
  /** Recoverers that reported a status other than the thread's final one. */
  readonly contradictions: number;
  /** Recoverers that failed with anything but `STEP_CLAIMED` (code or message), or died. */
  readonly otherErrors: readonly string[];
  /** The executions differ from {@link expectedExecutions} (or the thread did not end `goal_achieved`). */
  readonly wrongExecutions: boolean;
  /** Recoverers that ran nothing and reported a status (the thread had ended when they looked). */
  readonly statusLosers: number;
  readonly finalStatus: string | undefined;
  /** What each recoverer reported: a status or an error code. */
  readonly outcomes: readonly string[];
}

/** The status of a thread's latest checkpoint, read straight from the saver. */
export async function threadStatus(saver: BaseCheckpointSaver, thread: string): Promise<string | undefined> {
  const tuple = await saver.getTuple({ configurable: { thread_id: thread, checkpoint_ns: "" } });
  const status = (tuple?.checkpoint.channel_values as Record<string, unknown> | undefined)?.status;
  return typeof status === "string" ? status : undefined;
}

/** Kills a run of `thread` at `killAt`, then lets `recoverers` processes recover it at once. */
export async function recoverRace(
  saver: SaverArgs,
  reader: BaseCheckpointSaver,
  dir: string,
  thread: string,
  killAt: string,
  recoverers: number,
): Promise<RaceTrial> {
  await runUntilKilled({ mode: "run", ...saver, threads: [thread], dir, killAt, domain: "chain" });
  const before = executionLog(dir, thread).length;
  const children = Array.from({ length: recoverers }, () =>
    startChild({ mode: "recover", ...saver, threads: [thread], dir, domain: "chain", barrier: true }),
  );
  await Promise.all(children.map((c) => c.printed("READY")));
  for (const c of children) c.process.stdin?.write("go\n");
  const reports = await Promise.allSettled(children.map((c) => c.done));
  const finalStatus = await threadStatus(reader, thread);

  const log = executionLog(dir, thread);
  const after = log.slice(before);
  const otherErrors: string[] = [];
  const outcomes: string[] = [];
  let contradictions = 0;
  let statusLosers = 0;
  const ran = new Set(after.map((e) => e.pid));
  for (const [i, report] of reports.entries()) {
    if (report.status === "rejected") {
      otherErrors.push(String((report.reason as Error).message).slice(0, 300));
      outcomes.push("died");
      continue;
    }
    const result = report.value.results[0];
    if (result?.error) {
      outcomes.push(result.error.code ?? "uncoded");
      if (result.error.code !== "STEP_CLAIMED") otherErrors.push(`${result.error.code ?? "uncoded"}: ${result.error.message}`);
    } else {
      outcomes.push(result?.status ?? "none");
      if (result?.status !== finalStatus) contradictions++;
      if (!ran.has(children[i]?.process.pid as number)) statusLosers++;
    }
  }
  let duplicateSteps = 0;
  for (const action of CHAIN_ACTIONS) {
    const pids = new Set(after.filter((e) => e.action === action).map((e) => e.pid));
    const keys = new Set(log.filter((e) => e.action === action).map((e) => e.key));
    if (pids.size > 1 || keys.size > 1) duplicateSteps++;
  }
  const executions = log.map((e) => `${e.action}#${e.stepAttempt}`);
  const expected = expectedExecutions(killAt);
  return {
    killAt,
    recoverers,
    winners: ran.size,
    duplicateSteps,
    contradictions,
    otherErrors,
    wrongExecutions: finalStatus !== "goal_achieved" || executions.join(",") !== expected.join(","),
    statusLosers,
    finalStatus,
    outcomes,
  };
}

/** Kill instants for the races: each leaves at least one action to run, so the winner is the process that runs it. */
export const RACE_KILL_POINTS = [
  "plan",
  "s1:before",
  "s1:claimed",
  "s1:during",
  "s1:saved",
  "s2:claimed",
  "s3:during",
  "s3:after",
  "s3:saved",
  "s6:before",
  "s6:during",
] as const;
