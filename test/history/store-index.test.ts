/**
 * On stores whose searches are unordered and read everything they match
 * (InMemoryStore), StoreExecutionHistory keeps a newest-first index and
 * reads about what a query returns. Counted in items read, not in time.
 */
import { BaseStore, InMemoryStore, type Item, type Operation, type OperationResults } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/index.js";
import type { ExecutionRecord } from "../../src/graph/history/index.js";
import { computeGoalHash, StoreExecutionHistory } from "../../src/graph/history/index.js";
import { makeRecord } from "../support/store-contract.js";

/** An InMemoryStore that counts the items its searches match and its gets return. */
class CountingStore extends InMemoryStore {
  itemsRead = 0;
  override async batch<Op extends readonly Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results = await super.batch(operations);
    operations.forEach((op, i) => {
      const result = results[i] as unknown;
      if ("namespacePrefix" in op) {
        // InMemoryStore copies every match before it pages: count them all.
        this.itemsRead += (this as unknown as { filterItems(op: unknown): Item[] }).filterItems(op).length;
      } else if ("key" in op && !("value" in op) && result) this.itemsRead++;
    });
    return results;
  }
}

/** Another process's view of the same data: a different store object, so a different index writer. */
class SameData extends BaseStore {
  constructor(private readonly inner: BaseStore) {
    super();
  }
  batch<Op extends readonly Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    return this.inner.batch(operations as never) as never;
  }
}

function record(i: number, seconds: number, extra: Partial<ExecutionRecord> = {}): ExecutionRecord {
  const failed = i % 7 === 0;
  return makeRecord(`goal_${i % 5}`, 0, {
    id: `run-${String(i).padStart(6, "0")}`,
    timestamp: new Date(Date.UTC(2026, 0, 1) + seconds * 1000).toISOString(),
    threadId: `thread-${i % 13}`,
    outcome: failed ? "failed" : "success",
    failedActions: i % 11 === 0 ? ["write"] : [],
    ...extra,
  });
}

/** Every query, brute force over what was recorded (the newest version of each id). */
function expected(records: readonly ExecutionRecord[], keep: (r: ExecutionRecord) => boolean, limit: number): string[] {
  const latest = new Map(records.map((r) => [r.id, r]));
  return [...latest.values()]
    .filter(keep)
    .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp) || ((a.id as string) < (b.id as string) ? 1 : -1))
    .slice(0, limit)
    .map((r) => r.id as string);
}

async function fill(history: StoreExecutionHistory, n: number): Promise<void> {
  for (let start = 0; start < n; start += 500) {
    await Promise.all(Array.from({ length: Math.min(500, n - start) }, (_, k) => history.record(record(start + k, start + k))));
  }
}

describe("the history index on an unordered store", () => {
  it("list(20), queryByGoal, queryByThread and queryFailures read as many items at 5,000 records as at 100", async () => {
    const reads: Record<string, number>[] = [];
    for (const n of [100, 5_000]) {
      const store = new CountingStore();
      const history = new StoreExecutionHistory(store);
      await fill(history, n);
      const counts: Record<string, number> = {};
      const queries = {
        list: () => history.list(20),
        goal: () => history.queryByGoal({ goal_3: true }, 5),
        thread: () => history.queryByThread("thread-4", 5),
        failures: () => history.queryFailures("write", 3),
      };
      for (const [name, run] of Object.entries(queries)) {
        store.itemsRead = 0;
        const got = await run();
        expect(got.length).toBe(name === "list" ? 20 : name === "failures" ? 3 : 5);
        counts[name] = store.itemsRead;
      }
      reads.push(counts);
    }
    const [small, large] = reads as [Record<string, number>, Record<string, number>];
    // One writer item, the stream's hint and probe, then an entry and a record per result.
    expect(small.list).toBeLessThanOrEqual(1 + 1 + 2 * 20 + 1);
    expect(large).toEqual(small);
  });

  it("answers exactly as a full scan would, with records written out of time order, by two writers, and written twice", async () => {
    const store = new InMemoryStore();
    const one = new StoreExecutionHistory(store);
    const two = new StoreExecutionHistory(new SameData(store));
    const rng = createRng(7);
    const seconds = Array.from({ length: 400 }, (_, i) => i);
    for (let i = seconds.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [seconds[i], seconds[j]] = [seconds[j] as number, seconds[i] as number];
    }
    const written: ExecutionRecord[] = [];
    for (let i = 0; i < 400; i++) {
      // Some seconds repeat, so ties are broken by id.
      const r = record(i, (seconds[i] as number) - (i % 9 === 0 ? 1 : 0));
      written.push(r);
      await (i % 3 === 0 ? two : one).record(r);
    }
    // Run 5 recorded again (its end replayed) with a new outcome and time: one record, the new one.
    const again = record(5, 1_000, { outcome: "failed", failedActions: ["publish"] });
    written.push(again);
    await two.record(again);
    const reader = new StoreExecutionHistory(store);
    for (const limit of [1, 7, 20, 150, 1_000]) {
      expect((await reader.list(limit)).map((r) => r.id)).toEqual(expected(written, () => true, limit));
      expect((await reader.queryByThread("thread-5", limit)).map((r) => r.id)).toEqual(
        expected(written, (r) => r.threadId === "thread-5", limit),
      );
      const hash = computeGoalHash({ goal_0: true });
      expect((await reader.queryByGoal(hash, limit)).map((r) => r.id)).toEqual(expected(written, (r) => r.goalHash === hash, limit));
      const failedWith = (a: string) => (r: ExecutionRecord) =>
        r.failedActions.includes(a) || (r.outcome === "failed" && r.planActions.includes(a));
      expect((await reader.queryFailures("write", limit)).map((r) => r.id)).toEqual(expected(written, failedWith("write"), limit));
      expect((await reader.queryFailures("publish", limit)).map((r) => r.id)).toEqual(expected(written, failedWith("publish"), limit));
    }
    expect((await reader.list()).length).toBe(400);
  });

  it("a write that failed leaves a gap readers step over", async () => {
    const store = new InMemoryStore();
    let failNext = false;
    const flaky = new (class extends BaseStore {
      batch<Op extends readonly Operation[]>(operations: Op): Promise<OperationResults<Op>> {
        if (failNext && operations.some((op) => "value" in op)) {
          failNext = false;
          return Promise.reject(new Error("disk full"));
        }
        return store.batch(operations as never) as never;
      }
    })();
    const history = new StoreExecutionHistory(flaky);
    await history.record(record(1, 1));
    failNext = true;
    await expect(history.record(record(2, 2))).rejects.toThrow("disk full");
    await history.record(record(3, 3));
    expect((await history.list(10)).map((r) => r.id)).toEqual(["run-000003", "run-000001"]);
    expect((await history.queryByThread("thread-1", 10)).map((r) => r.id)).toEqual(["run-000001"]);
  });

  it("records written straight into the store, without the index, are still found by searching", async () => {
    const store = new InMemoryStore();
    const r = { ...record(1, 1), id: "by-hand" };
    await store.put(["langgoap", "executions", r.goalHash], "by-hand", r as unknown as Record<string, unknown>);
    expect((await new StoreExecutionHistory(store).list(5)).map((x) => x.id)).toEqual(["by-hand"]);
  });
});
