/**
 * Behaviour every LangGraph BaseStore used for history must share, checked
 * the same way on InMemoryStore (the reference), SqliteStore and
 * PostgresStore. Each test works under its own root label, so stores may be
 * shared between tests. Orders are not compared: stores order results
 * differently.
 */
import type { BaseStore } from "@langchain/langgraph";
import { expect, it, vi } from "vitest";
import type { ExecutionRecord } from "../../src/graph/history/index.js";
import { computeGoalHash, StoreExecutionHistory } from "../../src/graph/history/index.js";
import { GoapGraph, type GoapLogger } from "../../src/graph/index.js";
import { stillClock } from "./still-clock.js";
import { flakyWriterActions } from "./writer.js";

let counter = 0;
const root = (): string => `t${process.pid}n${counter++}`;
const keys = (items: { key: string }[]): string[] => items.map((i) => i.key).sort();

/** A record for goal `{ [goal]: true }` at second `second`. */
export function makeRecord(goal: string, second: number, overrides: Partial<ExecutionRecord> = {}): ExecutionRecord {
  return {
    goalHash: computeGoalHash({ [goal]: true }),
    goalConditions: { [goal]: true },
    planActions: ["research", "write", "publish"],
    expectedCost: 3,
    actualCost: 3,
    outcome: "success",
    status: "goal_achieved",
    replanCount: 0,
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
    failedActions: [],
    ...overrides,
  };
}

/** Where a store knowingly differs from InMemoryStore (asserted, so a fix upstream shows up). */
export interface StoreQuirks {
  /** Prefix search also matches a sibling label that merely starts with the prefix's last label (`a` matches `ab`). @defaultValue false */
  readonly prefixMatchesSiblings?: boolean;
  /** `listNamespaces({ maxDepth })` drops deeper namespaces instead of truncating them. @defaultValue false */
  readonly maxDepthDropsDeeper?: boolean;
}

export function storeContract(store: () => BaseStore, quirks: StoreQuirks = {}): void {
  it("puts, gets, overwrites and deletes items", async () => {
    const ns = [root(), "docs"];
    await store().put(ns, "a", { text: "hello", nested: { n: 1, list: [1, "two"] } });
    const item = await store().get(ns, "a");
    expect(item?.value).toEqual({ text: "hello", nested: { n: 1, list: [1, "two"] } });
    expect(item?.namespace).toEqual(ns);
    expect(item?.createdAt).toBeInstanceOf(Date);
    await store().put(ns, "a", { text: "bye" });
    expect((await store().get(ns, "a"))?.value).toEqual({ text: "bye" });
    await store().delete(ns, "a");
    expect(await store().get(ns, "a")).toBeNull();
    expect(await store().get(ns, "missing")).toBeNull();
  });

  it("searches a namespace prefix with filters and pages", async () => {
    const base = root();
    const s = store();
    await s.put([base, "runs", "x"], "r1", { status: "ok", cost: 3, done: true });
    await s.put([base, "runs", "x"], "r2", { status: "failed", cost: 7, done: false });
    await s.put([base, "runs", "y"], "r3", { status: "ok", cost: 5, done: true });
    await s.put([`${base}z`, "runs"], "other", { status: "ok", cost: 1, done: true });
    expect(keys(await s.search([base, "runs"]))).toEqual(["r1", "r2", "r3"]);
    expect(keys(await s.search([base]))).toEqual(quirks.prefixMatchesSiblings ? ["other", "r1", "r2", "r3"] : ["r1", "r2", "r3"]);
    await s.delete([`${base}z`, "runs"], "other");
    expect(keys(await s.search([base, "runs", "x"]))).toEqual(["r1", "r2"]);
    expect(keys(await s.search([base], { filter: { status: "ok" } }))).toEqual(["r1", "r3"]);
    expect(keys(await s.search([base], { filter: { done: false } }))).toEqual(["r2"]);
    expect(keys(await s.search([base], { filter: { cost: { $gt: 3 } } }))).toEqual(["r2", "r3"]);
    expect(keys(await s.search([base], { filter: { cost: { $lte: 5 }, status: "ok" } }))).toEqual(["r1", "r3"]);
    expect(keys(await s.search([base], { filter: { status: { $in: ["failed", "odd"] } } }))).toEqual(["r2"]);
    expect(keys(await s.search([base], { filter: { status: { $ne: "ok" } } }))).toEqual(["r2"]);
    const pages = [...(await s.search([base], { limit: 2, offset: 0 })), ...(await s.search([base], { limit: 2, offset: 2 }))];
    expect(keys(pages)).toEqual(["r1", "r2", "r3"]);
    expect(await s.search([base], { limit: 2, offset: 3 })).toEqual([]);
  });

  it("lists namespaces by prefix and depth", async () => {
    const base = root();
    const s = store();
    await s.put([base, "a", "1"], "k", { v: 1 });
    await s.put([base, "a", "2"], "k", { v: 1 });
    await s.put([base, "b"], "k", { v: 1 });
    expect(await s.listNamespaces({ prefix: [base] })).toEqual([
      [base, "a", "1"],
      [base, "a", "2"],
      [base, "b"],
    ]);
    expect(await s.listNamespaces({ prefix: [base], maxDepth: 2 })).toEqual(
      quirks.maxDepthDropsDeeper
        ? [[base, "b"]]
        : [
            [base, "a"],
            [base, "b"],
          ],
    );
    expect(await s.listNamespaces({ prefix: [base, "a"], limit: 1, offset: 1 })).toEqual([[base, "a", "2"]]);
  });

  it("keeps execution history: by goal newest first, failures by action", async () => {
    const history = new StoreExecutionHistory(store(), { namespace: [root()] });
    const old = await history.record(makeRecord("published", 1));
    const failed = await history.record(
      makeRecord("published", 2, { outcome: "failed", status: "failed", planActions: ["research", "write"], failedActions: ["write"] }),
    );
    const recovered = await history.record(makeRecord("published", 3, { replanCount: 1, failedActions: ["write"] }));
    await history.record(makeRecord("drafted", 4));
    const published = await history.queryByGoal({ published: true });
    expect(published.map((r) => r.id)).toEqual([recovered, failed, old]);
    expect(published[1]).toEqual({
      ...makeRecord("published", 2, { outcome: "failed", status: "failed", planActions: ["research", "write"], failedActions: ["write"] }),
      id: failed,
    });
    expect((await history.queryByGoal(computeGoalHash({ published: true }), 1)).map((r) => r.id)).toEqual([recovered]);
    expect((await history.queryFailures("write")).map((r) => r.id)).toEqual([recovered, failed]);
    expect((await history.queryFailures("research")).map((r) => r.id)).toEqual([failed]);
    expect(await history.queryFailures("publish")).toEqual([]);
    expect(await history.list()).toHaveLength(4);
  });

  it("keeps histories under sibling namespaces apart", async () => {
    const base = root();
    const a = new StoreExecutionHistory(store(), { namespace: [base] });
    const b = new StoreExecutionHistory(store(), { namespace: [`${base}x`] });
    await a.record(makeRecord("published", 1, { outcome: "failed", failedActions: ["write"] }));
    await b.record(makeRecord("published", 2, { outcome: "failed", failedActions: ["write"] }));
    expect(await a.queryByGoal({ published: true })).toHaveLength(1);
    expect(await a.queryFailures("write")).toHaveLength(1);
    expect(await a.list()).toHaveLength(1);
  });

  it("loses no record when 50 writers record at once", async () => {
    const history = new StoreExecutionHistory(store(), { namespace: [root()], pageSize: 7 });
    const ids = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        history.record(
          makeRecord(i % 2 === 0 ? "published" : "drafted", i, i % 5 === 0 ? { outcome: "failed", failedActions: ["write"] } : {}),
        ),
      ),
    );
    expect(new Set(ids).size).toBe(50);
    const published = await history.queryByGoal({ published: true }, 100);
    const drafted = await history.queryByGoal({ drafted: true }, 100);
    expect(published).toHaveLength(25);
    expect(drafted).toHaveLength(25);
    expect([...published, ...drafted].map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(await history.queryFailures("write", 100)).toHaveLength(10);
  });

  it("loses no record when 50 GoapGraph runs share the store", async () => {
    const history = new StoreExecutionHistory(store(), { namespace: [root()], pageSize: 16 });
    const silent: GoapLogger = { debug() {}, info() {}, warn() {}, error() {} };
    // Every third run asks for something no action gives (no_plan); the others replan around the flaky writer.
    // This test counts records, it does not time them. The 50 runs' searches take turns, so each one's 10 s time
    // budget counts the others' work (2 of 50 ran out at load 37): time stands still for the planner. And no time
    // limit on recording (5 s by default): 50 writes queue for a pooled connection on a busy machine.
    stillClock();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        new GoapGraph(flakyWriterActions(), { history, logger: silent, observerTimeoutMs: Number.POSITIVE_INFINITY }).invoke(
          i % 3 === 0 ? { archived: true } : { published: true },
          {},
        ),
      ),
    ).finally(() => vi.restoreAllMocks());
    expect(results.filter((r) => r.status === "goal_achieved")).toHaveLength(33);
    expect(results.filter((r) => r.status === "no_plan")).toHaveLength(17);
    const all = await history.list();
    expect(all).toHaveLength(50);
    expect(new Set(all.map((r) => r.id)).size).toBe(50);
    const published = await history.queryByGoal({ published: true }, 100);
    expect(published).toHaveLength(33);
    for (const record of published) {
      expect(record).toMatchObject({
        outcome: "success",
        status: "goal_achieved",
        replanCount: 1,
        planActions: ["write_premium", "publish"],
        failedActions: ["write_fast"],
        expectedCost: 6,
        actualCost: 7,
      });
    }
    const archived = await history.queryByGoal({ archived: true }, 100);
    expect(archived.map((r) => [r.outcome, r.status])).toEqual(Array(17).fill(["failed", "no_plan"]));
    expect(await history.queryFailures("write_fast", 100)).toHaveLength(33);
  });

  it("finds records by thread and reads the newest N", async () => {
    const history = new StoreExecutionHistory(store(), { namespace: [root()] });
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      ids.push(
        await history.record(makeRecord(i % 2 ? "published" : "drafted", i, { threadId: i % 3 ? "t-a" : "t-b", runId: `run-${i}` })),
      );
    }
    expect((await history.queryByThread("t-b")).map((r) => r.runId)).toEqual(["run-9", "run-6", "run-3", "run-0"]);
    expect((await history.queryByThread("t-a", 2)).map((r) => r.runId)).toEqual(["run-11", "run-10"]);
    expect(await history.queryByThread("nobody")).toEqual([]);
    expect((await history.list(3)).map((r) => r.id)).toEqual([ids[11], ids[10], ids[9]]);
    expect((await history.queryByGoal({ published: true }, 2)).map((r) => r.runId)).toEqual(["run-11", "run-9"]);
    await expect(history.queryByThread("")).rejects.toThrow(/expected a thread id/);
  });

  it("records a GoapGraph run to the store it runs with, with its thread and run ids", async () => {
    const s = store();
    const { MemorySaver } = await import("@langchain/langgraph");
    const silent: GoapLogger = { debug() {}, info() {}, warn() {}, error() {} };
    // No time limit on recording: the record must be there when the run resolves, however slow the store is today.
    const graph = new GoapGraph(flakyWriterActions(), { logger: silent, observerTimeoutMs: Number.POSITIVE_INFINITY });
    const app = graph.compile({ checkpointer: new MemorySaver(), store: s });
    const threadId = `${root()}-thread`;
    const input = graph.createInput({ published: true }, {});
    const result = await app.invoke(input, { configurable: { thread_id: threadId } });
    expect(result.status).toBe("goal_achieved");
    const [record, ...rest] = await new StoreExecutionHistory(s).queryByThread(threadId, 10);
    expect(rest).toEqual([]);
    expect(record).toMatchObject({ status: "goal_achieved", threadId, runId: input.runId, failedActions: ["write_fast"] });
    // `history: false` writes nothing, even with a store.
    const quiet = new GoapGraph(flakyWriterActions(), { logger: silent, history: false });
    await quiet.compile({ checkpointer: new MemorySaver(), store: s }).invoke(quiet.createInput({ published: true }, {}), {
      configurable: { thread_id: `${threadId}-quiet` },
    });
    expect(await new StoreExecutionHistory(s).queryByThread(`${threadId}-quiet`)).toEqual([]);
  });
}
