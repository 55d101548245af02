/**
 * Reading back the whole history of runs longer than the state's window
 * (issue 23): the state keeps the newest 256–511 records of a long run, the
 * history store keeps every record in blocks of 256, and
 * `readRunHistory`/`readThreadHistory` page through them with a bounded
 * page and a cursor, on InMemoryStore and SqliteStore.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BaseStore, InMemoryStore, MemorySaver, type Operation } from "@langchain/langgraph";
import { afterAll, describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import {
  type ActionResult,
  GoapGraph,
  type HistoryPage,
  type HistoryStep,
  SqliteStore,
  StoreExecutionHistory,
} from "../../src/graph/index.js";
import { quietLogger } from "../graph/support.js";

const dir = mkdtempSync(join(tmpdir(), "langgoap-full-history-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store that counts the items its reads fetch (gets, and search results). */
function counting(store: BaseStore): { store: BaseStore; reads: () => number } {
  let reads = 0;
  const proxy = new Proxy(store, {
    get(target, key, receiver) {
      if (key === "batch") {
        return async (ops: Operation[]) => {
          const results = (await target.batch(ops)) as unknown[];
          ops.forEach((op, i) => {
            if ("key" in op && !("value" in op)) reads += 1;
            else if ("namespacePrefix" in op) reads += (results[i] as unknown[]).length;
          });
          return results;
        };
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { store: proxy, reads: () => reads };
}

async function readAll(read: (cursor: string | null) => Promise<HistoryPage>): Promise<{ steps: HistoryStep[]; pages: HistoryPage[] }> {
  const pages: HistoryPage[] = [];
  let cursor: string | null = null;
  do {
    const page = await read(cursor);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== null && pages.length < 1000);
  return { steps: pages.flatMap((p) => p.steps), pages };
}

const inc = new ActionSpec({ name: "inc", effects: { n: { inc: 1 } } });

/** A counter run of `steps` actions on `thread`, recording to `store`. */
async function counterRun(store: BaseStore, thread: string, steps: number, from = 0) {
  const graph = new GoapGraph([inc], { logger: quietLogger() });
  const app = graph.compile({ store, checkpointer: new MemorySaver() });
  const config = { configurable: { thread_id: thread } };
  const result = await app.invoke(graph.createInput({ n: { gte: from + steps } }, { n: from }), config);
  return result as unknown as { status: string; runId: string; executionHistory: ActionResult[] };
}

const stores: Array<[string, () => BaseStore]> = [
  ["InMemoryStore", () => new InMemoryStore()],
  ["SqliteStore", () => SqliteStore.open(join(dir, `${Math.random().toString(36).slice(2)}.sqlite`))],
];

describe.each(stores)("full run history on %s", (_name, makeStore) => {
  it("reads back every record of an 800-step run, whose state keeps only the newest window, in pages of at most the limit", async () => {
    const base = makeStore();
    const result = await counterRun(base, "long", 800);
    expect(result.status).toBe("goal_achieved");
    // The state holds a window: 800 records do not fit.
    expect(result.executionHistory.length).toBeLessThan(512);
    const { store, reads } = counting(base);
    const history = new StoreExecutionHistory(store);
    const { steps, pages } = await readAll((cursor) => history.readRunHistory(result.runId, { cursor, limit: 500 }));
    expect(steps).toHaveLength(800);
    expect(steps.map((s) => s.index)).toEqual(Array.from({ length: 800 }, (_, i) => i));
    // In order and whole: step i ran on n = i.
    expect(steps.every((s, i) => s.actionName === "inc" && s.success && s.stateBefore.n === i && s.stateAfter.n === i + 1)).toBe(true);
    expect(steps.every((s) => s.runId === result.runId && s.threadId === "long")).toBe(true);
    expect(pages.map((p) => p.steps.length)).toEqual([500, 300]);
    expect(pages.at(-1)?.complete).toBe(true);
    // A page of 500 reads the (at most three) blocks of 256 that hold it: 5 items for the two pages.
    expect(reads()).toBe(5);
    // The newest records are those the state holds.
    expect(steps.slice(800 - result.executionHistory.length).map((s) => s.stateBefore)).toEqual(
      result.executionHistory.map((r) => r.stateBefore),
    );
  }, 600_000);

  it("pages through a thread's runs in the order they ran, across run boundaries", async () => {
    const store = makeStore();
    const first = await counterRun(store, "t", 520);
    const second = await counterRun(store, "t", 30, 520);
    const history = new StoreExecutionHistory(store);
    const { steps, pages } = await readAll((cursor) => history.readThreadHistory("t", { cursor, limit: 256 }));
    expect(steps).toHaveLength(550);
    expect(steps.map((s) => s.stateBefore.n)).toEqual(Array.from({ length: 550 }, (_, i) => i));
    expect(steps.slice(0, 520).every((s) => s.runId === first.runId)).toBe(true);
    expect(steps.slice(520).every((s) => s.runId === second.runId && s.index === (s.stateBefore.n as number) - 520)).toBe(true);
    expect(pages.every((p) => p.steps.length <= 256)).toBe(true);
    expect(pages.at(-1)?.complete).toBe(true);
    // Another thread's records are not read: its id extends this one's.
    await counterRun(store, "t2", 3);
    expect((await history.readThreadHistory("t", { limit: 1000 })).steps).toHaveLength(550);
  }, 600_000);

  it("holds about 5,000 records of one run and reads any page at the same cost", async () => {
    // Blocks written as a graph writes them: one per 256 records, the last when the run ended.
    const base = makeStore();
    const history = new StoreExecutionHistory(base);
    const total = 5003;
    const record = (i: number): ActionResult => ({
      actionName: `a${i % 7}`,
      success: i % 11 !== 0,
      stateBefore: { n: i },
      stateAfter: { n: i + 1 },
      error: i % 11 === 0 ? "boom" : null,
      failure: i % 11 === 0 ? "error" : null,
      attempts: 1,
      durationMs: 0,
    });
    for (let first = 0; first <= total; first += 256) {
      const last = first + 256 > total;
      const records = Array.from({ length: Math.min(256, total - first) }, (_, k) => record(first + k));
      await history.recordSteps({ runId: "r.1:x", threadId: "th", first, records, final: last, runStartedAt: 1 });
    }
    const all = await readAll((cursor) => history.readRunHistory("r.1:x", { cursor, limit: 1000 }));
    expect(all.steps).toHaveLength(total);
    expect(all.steps.map((s) => s.stateBefore.n)).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(all.steps[11]?.error).toBe("boom");
    expect(all.pages.map((p) => p.steps.length)).toEqual([1000, 1000, 1000, 1000, 1000, 3]);
    // A page deep in the run reads only its own blocks.
    const { store, reads } = counting(base);
    const deep = new StoreExecutionHistory(store);
    const cursor = all.pages[3]?.nextCursor ?? null;
    const page = await deep.readRunHistory("r.1:x", { cursor, limit: 100 });
    expect(page.steps.map((s) => s.index)).toEqual(Array.from({ length: 100 }, (_, i) => 4000 + i));
    expect(reads()).toBeLessThanOrEqual(2);
    expect((await deep.readThreadHistory("th", { limit: 1000 })).steps).toHaveLength(1000);
  }, 600_000);
});

describe("history pages", () => {
  it("say complete: false for a run whose last records are still only in its state", async () => {
    const history = new StoreExecutionHistory(new InMemoryStore());
    const records = Array.from({ length: 256 }, (_, i) => ({
      actionName: "inc",
      success: true,
      stateBefore: { n: i },
      stateAfter: { n: i + 1 },
      error: null,
      failure: null,
      attempts: 1,
      durationMs: 0,
    }));
    await history.recordSteps({ runId: "live", first: 0, records, final: false, runStartedAt: 1 });
    const page = await history.readRunHistory("live", { limit: 1000 });
    expect(page.steps).toHaveLength(256);
    expect(page.complete).toBe(false);
    expect(page.nextCursor).toBeNull();
  });

  it("refuse a limit outside 1..1,000 and a cursor that is not a page's", async () => {
    const history = new StoreExecutionHistory(new InMemoryStore());
    await expect(history.readRunHistory("r", { limit: 5000 })).rejects.toThrow(/limit must be an integer from 1 to 1000, got 5000/);
    await expect(history.readRunHistory("r", { limit: 0 })).rejects.toBeInstanceOf(LangGoapError);
    await expect(history.readRunHistory("r", { cursor: "nonsense" })).rejects.toThrow(/cursor must be a page's nextCursor/);
    await expect(history.readRunHistory("r", { cursor: "other:5" })).rejects.toThrow(/belongs to run "other"/);
    await expect(history.readThreadHistory("t", { cursor: "ghost:0" })).rejects.toThrow(/does not hold/);
  });
});
