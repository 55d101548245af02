/**
 * A separate process for the durability tests (run with `node --import tsx`).
 * It runs, recovers or resumes GOAP threads on a SQLite or PostgreSQL
 * checkpointer, logs every action execution to a file that survives the
 * process, and can freeze at a named point: it writes `KILLPOINT <name>`
 * to stdout and blocks its thread, so the parent kills it (SIGKILL) at
 * exactly that instant. The last stdout line is a JSON report.
 *
 *   argv[2] = JSON of ChildArgs
 */
import { appendFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { ActionSpec, LangGoapError, type PlanningTracer } from "../../src/core/index.js";
import {
  type ExecutionHistory,
  FunctionalSensor,
  GoapGraph,
  SqliteStore,
  StoreExecutionHistory,
  type TerminationPolicy,
} from "../../src/graph/index.js";

export interface ChildArgs {
  readonly mode: "run" | "recover" | "resume";
  readonly saver: "sqlite" | "postgres";
  /** SQLite file, or PostgreSQL URL. */
  readonly conn: string;
  /** PostgreSQL schema of the checkpoint tables. */
  readonly schema?: string;
  readonly threads: readonly string[];
  /** Directory of the per-thread execution logs and history stores. */
  readonly dir: string;
  /** Where to freeze for the kill (mode "run"). */
  readonly killAt?: string;
  /** Which domain: the 6-step chain, or the release with an approved deployment. */
  readonly domain: "chain" | "release";
  /** Mode "resume": wait for a line on stdin before resuming (a barrier shared with a sibling). */
  readonly barrier?: boolean;
}

/** One line of a thread's execution log. */
export interface ExecutionLogLine {
  readonly action: string;
  readonly key: string;
  readonly stepAttempt: number;
  readonly pid: number;
}

/** The report a child prints last. */
export interface ChildReport {
  readonly results: readonly { thread: string; status?: string; error?: { code?: string; message: string } }[];
}

const args = JSON.parse(process.argv[2] as string) as ChildArgs;
let thread = "";
let planningRounds = 0;

/** Freezes here when this is the kill point: the parent sees the line and kills the process. */
function point(name: string): void {
  if (args.mode !== "run" || args.killAt !== name) return;
  writeSync(1, `KILLPOINT ${name}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}

function executed(action: string, key: string, stepAttempt: number): void {
  const line: ExecutionLogLine = { action, key, stepAttempt, pid: process.pid };
  appendFileSync(join(args.dir, `${thread}.jsonl`), `${JSON.stringify(line)}\n`);
}

function chain(): ActionSpec[] {
  return [1, 2, 3, 4, 5, 6].map(
    (k) =>
      new ActionSpec({
        name: `s${k}`,
        preconditions: k === 1 ? {} : { [`done${k - 1}`]: true },
        effects: { [`done${k}`]: true },
        execute: (_state, ctx) => {
          executed(`s${k}`, ctx.idempotencyKey, ctx.stepAttempt);
          point(`s${k}:during`);
        },
      }),
  );
}

function release(): ActionSpec[] {
  const logged = (name: string) => (_state: unknown, ctx: { idempotencyKey: string; stepAttempt: number }) => {
    executed(name, ctx.idempotencyKey, ctx.stepAttempt);
  };
  return [
    new ActionSpec({ name: "build", effects: { built: true }, execute: logged("build") }),
    new ActionSpec({
      name: "deploy_prod",
      preconditions: { built: true },
      effects: { deployed: true },
      requireHumanApproval: true,
      execute: async (state, ctx) => {
        logged("deploy_prod")(state, ctx);
        // Long enough for a concurrent resumer to reach the step while this one runs.
        await new Promise((resolve) => setTimeout(resolve, 150));
      },
    }),
  ];
}

const tracer: PlanningTracer = {
  onActionStart: (action) => point(`${action.name}:before`),
  onActionComplete: (result) => point(`${(result as { actionName: string }).actionName}:after`),
};

/** Observers run right after the executor's checkpoint is saved: `sK:saved` freezes there. */
const savedPoint: TerminationPolicy = {
  name: "kill-point",
  shouldTerminate: (state) => {
    const last = state.executionHistory.at(-1);
    if (last) point(`${last.actionName}:saved`);
    return null;
  },
};

/** Freezes during the first planning round. */
const planningSensor = new FunctionalSensor("kill-point", (world) => {
  if (planningRounds++ === 0) point("plan");
  return world;
});

/** The history of the current thread, in its own SQLite file; freezes right after a record is written. */
function historyFor(name: string): ExecutionHistory {
  const inner = new StoreExecutionHistory(SqliteStore.open(join(args.dir, `${name}.history.sqlite`)));
  return {
    record: async (record) => {
      const id = await inner.record(record);
      point("history");
      return id;
    },
  };
}

/**
 * `sK:claimed` freezes right after the write of step sK's claim landed,
 * before anything else the claim does (the chain's step sK is at position K-1).
 */
function freezeAfterClaims(saver: BaseCheckpointSaver): BaseCheckpointSaver {
  const putWrites = saver.putWrites.bind(saver);
  saver.putWrites = async (config, writes, taskId) => {
    await putWrites(config, writes, taskId);
    for (const [, value] of writes) {
      const entry = value as { kind?: string; position?: number } | null;
      if (entry?.kind === "claim" && typeof entry.position === "number") point(`s${entry.position + 1}:claimed`);
    }
  };
  return saver;
}

async function openSaver(): Promise<{ saver: BaseCheckpointSaver; close: () => Promise<void> }> {
  if (args.saver === "sqlite") return { saver: freezeAfterClaims(SqliteSaver.fromConnString(args.conn)), close: async () => {} };
  const saver = PostgresSaver.fromConnString(args.conn, { schema: args.schema ?? "public" });
  return { saver: freezeAfterClaims(saver), close: () => saver.end() };
}

/** A barrier shared with a sibling, once per thread: says READY, then waits for one line on stdin. */
async function waitForGo(): Promise<void> {
  const line = new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
  // Paused after the last barrier: a listener alone does not start a paused stream again.
  process.stdin.resume();
  writeSync(1, "READY\n");
  await line;
  process.stdin.pause();
}

const { saver, close } = await openSaver();
const report: ChildReport["results"][number][] = [];
try {
  for (const name of args.threads) {
    thread = name;
    planningRounds = 0;
    const graph = new GoapGraph(args.domain === "chain" ? chain() : release(), {
      tracer,
      sensors: [planningSensor],
      terminationPolicies: [savedPoint],
      history: historyFor(name),
      logger: { warn: () => {} },
    });
    graph.compile({ checkpointer: saver });
    const config = { configurable: { thread_id: name } };
    try {
      const goal: Record<string, boolean> = args.domain === "chain" ? { done6: true } : { deployed: true };
      if (args.barrier) await waitForGo();
      const result =
        args.mode === "run"
          ? await graph.invoke(goal, {}, config)
          : args.mode === "recover"
            ? await graph.recover(config)
            : await graph.resume(true, config);
      report.push({ thread: name, status: result.status });
    } catch (error) {
      const e = error as Error;
      report.push({ thread: name, error: { ...(e instanceof LangGoapError ? { code: e.code } : {}), message: e.message } });
    }
  }
} finally {
  await close();
}
writeSync(1, `${JSON.stringify({ results: report } satisfies ChildReport)}\n`);
