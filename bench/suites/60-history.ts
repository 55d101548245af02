/**
 * Execution-history queries at scale: 100,000 records (and their failure
 * index entries) in a SqliteStore file and in LangGraph's PostgresStore,
 * then the median time of `list(20)`, `queryByGoal(g, 20)`,
 * `queryByThread(t, 20)` and `queryFailures(a, 20)`. PostgresStore runs when
 * `PG_URL` is set or a private server can be started (scripts/pg.sh).
 * LangGraph's InMemoryStore (the dev server's) runs at 100 and at 100,000
 * records, written through `record()` so the history's own index is there:
 * a query should cost about the same at both sizes.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseStore, InMemoryStore, type PutOperation } from "@langchain/langgraph";
import { computeGoalHash, type ExecutionRecord, SqliteStore, StoreExecutionHistory } from "../../src/graph/history/index.js";
import { emit, timeIt } from "../emit.js";

const RECORDS = 100_000;
const GOALS = 50;
const THREADS = 5_000;

function record(i: number): ExecutionRecord & { id: string } {
  const goal = `goal_${i % GOALS}`;
  const failed = i % 10 === 0;
  return {
    id: `run-${i}`,
    goalHash: computeGoalHash({ [goal]: true }),
    goalConditions: { [goal]: true },
    planActions: ["research", "write", "publish"],
    expectedCost: 3,
    actualCost: failed ? 5 : 3,
    outcome: failed ? "failed" : "success",
    status: failed ? "failed" : "goal_achieved",
    replanCount: failed ? 1 : 0,
    timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    failedActions: failed ? ["write"] : [],
    threadId: `thread-${i % THREADS}`,
    runId: `run-${i}`,
  };
}

/** Writes the records directly (as StoreExecutionHistory lays them out), in large batches. */
async function fill(store: BaseStore): Promise<void> {
  const batch = 2_000;
  for (let start = 0; start < RECORDS; start += batch) {
    const operations: PutOperation[] = [];
    for (let i = start; i < Math.min(RECORDS, start + batch); i++) {
      const r = record(i);
      const value = r as unknown as Record<string, unknown>;
      operations.push({ namespace: ["langgoap", "executions", r.goalHash], key: r.id, value });
      for (const action of r.outcome === "failed" ? new Set([...r.failedActions, ...r.planActions]) : r.failedActions) {
        operations.push({ namespace: ["langgoap", "failures"], key: `${r.id}/${action}`, value: { action, record: value } });
      }
    }
    await store.batch(operations);
  }
}

/** Writes `n` records through the history, 500 at a time concurrently (as many runs finishing at once would). */
async function fillThrough(history: StoreExecutionHistory, n: number): Promise<void> {
  for (let start = 0; start < n; start += 500) {
    await Promise.all(Array.from({ length: Math.min(500, n - start) }, (_, k) => history.record(record(start + k))));
  }
}

async function measure(storeName: string, store: BaseStore, records = RECORDS): Promise<void> {
  const t0 = performance.now();
  if (store instanceof InMemoryStore) await fillThrough(new StoreExecutionHistory(store), records);
  else await fill(store);
  const fillMs = performance.now() - t0;
  const history = new StoreExecutionHistory(store);
  const goal = { goal_7: true };
  const queries: Record<string, () => Promise<ExecutionRecord[]>> = {
    "list(20)": () => history.list(20),
    "queryByGoal(20)": () => history.queryByGoal(goal, 20),
    "queryByThread(20)": () => history.queryByThread("thread-42", 20),
    "queryFailures(20)": () => history.queryFailures("write", 20),
  };
  for (const [query, run] of Object.entries(queries)) {
    const got = await run();
    const { medianMs, runs } = await timeIt(run, { warmup: 2, minRuns: 5, minMs: 300, maxRuns: 200 });
    emit({
      suite: "history",
      store: storeName,
      records,
      query,
      results: got.length,
      medianMs: +medianMs.toFixed(3),
      runs,
      fillMs: Math.round(fillMs),
    });
  }
}

export default async function historySuite(): Promise<void> {
  for (const records of [100, RECORDS]) await measure("InMemoryStore", new InMemoryStore(), records);
  const dir = mkdtempSync(join(tmpdir(), "langgoap-bench-history-"));
  const sqlite = SqliteStore.open(join(dir, "history.sqlite"));
  try {
    await measure("SqliteStore", sqlite);
  } finally {
    sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }

  let server: { url: string; stop(): Promise<void> } | undefined;
  try {
    const { usePostgres } = await import("../../test/support/postgres.js");
    server = await usePostgres();
  } catch (error) {
    process.stderr.write(`# history: PostgresStore skipped (no PostgreSQL: ${(error as Error).message.split("\n")[0]})\n`);
    return;
  }
  const { PostgresStore } = await import("@langchain/langgraph-checkpoint-postgres/store");
  const schema = `bench_history_${process.pid}`;
  const store = PostgresStore.fromConnString(server.url, { schema });
  try {
    await store.setup();
    await measure("PostgresStore", store);
  } finally {
    const { dropSchema } = await import("../../test/support/postgres.js");
    await store.stop();
    await dropSchema(server.url, schema);
    await server.stop();
  }
}
