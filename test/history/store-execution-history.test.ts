import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { StoreExecutionHistory } from "../../src/graph/history/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { makeRecord } from "../support/store-contract.js";
import { flakyWriterActions, PUBLISHED } from "../support/writer.js";

function brokenStore(): InMemoryStore {
  const store = new InMemoryStore();
  store.batch = () => Promise.reject(new Error("disk full"));
  return store;
}

describe("StoreExecutionHistory", () => {
  it("keeps the id it is given and files the record under the goal hash", async () => {
    const store = new InMemoryStore();
    const history = new StoreExecutionHistory(store, { namespace: ["app", "npc"] });
    const record = makeRecord("published", 1, { id: "run-42", metadata: { executedActions: ["research"] } });
    expect(await history.record(record)).toBe("run-42");
    const item = await store.get(["app", "npc", "executions", record.goalHash], "run-42");
    expect(item?.value).toEqual(record);
    expect(StoreExecutionHistory.goalHashFor({ published: true })).toBe(record.goalHash);
  });

  it("rejects malformed records naming the field", async () => {
    const history = new StoreExecutionHistory(new InMemoryStore());
    const bad = async (patch: Record<string, unknown>) => {
      const error = await history.record({ ...makeRecord("x", 1), ...patch } as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LangGoapError);
      expect((error as LangGoapError).code).toBe("STORE_ERROR");
      return (error as Error).message;
    };
    expect(await bad({ goalHash: "not hex!" })).toBe('ExecutionHistory.record: goalHash must be a hex string, got "not hex!"');
    expect(await bad({ outcome: "meh" })).toContain('outcome must be "success", "failed" or "partial"');
    expect(await bad({ timestamp: "yesterday" })).toContain("timestamp must be an ISO-8601 time");
    expect(await bad({ actualCost: Number.NaN })).toContain("actualCost must be a finite number, got NaN");
    expect(await bad({ failedActions: [1] })).toContain("failedActions must be an array of action names");
  });

  it("reports a failing store as STORE_ERROR with the cause", async () => {
    const history = new StoreExecutionHistory(brokenStore());
    const error = (await history.record(makeRecord("x", 1, { id: "r1" })).catch((e: unknown) => e)) as LangGoapError;
    expect(error.code).toBe("STORE_ERROR");
    expect(error.message).toBe("StoreExecutionHistory: the store could not save record r1: disk full");
    expect((error.cause as Error).message).toBe("disk full");
    // An unordered store is read through the history's index first.
    await expect(history.queryByGoal({ x: true })).rejects.toThrow("the store search under langgoap/index failed: disk full");
  });

  it("never breaks a GoapGraph run when the store fails", async () => {
    const warnings: string[] = [];
    const logger = { debug() {}, info() {}, warn: (m: string) => warnings.push(m), error() {} };
    const graph = new GoapGraph(flakyWriterActions(), { history: new StoreExecutionHistory(brokenStore()), logger });
    const result = await graph.invoke(PUBLISHED, {});
    expect(result.status).toBe("goal_achieved");
    expect(warnings.some((w) => w.includes("could not save record") && w.includes("disk full"))).toBe(true);
  });

  it("validates its options", () => {
    expect(() => new StoreExecutionHistory({} as never)).toThrow(/expected a LangGraph BaseStore/);
    expect(() => new StoreExecutionHistory(new InMemoryStore(), { namespace: ["a.b"] })).toThrow(/namespace/);
    expect(() => new StoreExecutionHistory(new InMemoryStore(), { pageSize: 0 })).toThrow(/pageSize/);
  });
});
