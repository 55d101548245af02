import { GraphRecursionError } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

const STEPS = 60;

function chain(): ActionSpec[] {
  return Array.from(
    { length: STEPS },
    (_, i) => new ActionSpec({ name: `step_${i}`, preconditions: i ? { [`done_${i - 1}`]: true } : {}, effects: { [`done_${i}`]: true } }),
  );
}

describe("long plans", () => {
  it(`runs a ${STEPS}-step plan to the end (121 supersteps, far past LangGraph's default limit of 25)`, async () => {
    const graph = new GoapGraph(chain(), { logger: quietLogger() });
    const result = await graph.invoke({ [`done_${STEPS - 1}`]: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(result.plan?.actions).toHaveLength(STEPS);
    expect(result.executionHistory.map((r) => r.actionName)).toEqual(chain().map((a) => a.name));
    expect(result.executionHistory.every((r) => r.success)).toBe(true);
  });

  it("would hit the recursion limit on a plain compile with LangGraph's default", async () => {
    const graph = new GoapGraph(chain(), { logger: quietLogger() });
    const raw = graph.builder().compile();
    await expect(raw.invoke(graph.createInput({ [`done_${STEPS - 1}`]: true }, {}))).rejects.toBeInstanceOf(GraphRecursionError);
  });

  it("the compiled graph carries no LangGraph limit: the run bounds itself", async () => {
    const graph = new GoapGraph(chain(), { logger: quietLogger(), recursionLimit: 500 });
    expect(graph.compile().config?.recursionLimit).toBe(Number.MAX_SAFE_INTEGER);
    expect(graph.recursionLimit).toBe(500);
  });

  it("the allowance follows the run: a plan far longer than it runs to its end", async () => {
    const inc = new ActionSpec({ name: "inc", effects: { n: { inc: 1 } } });
    const graph = new GoapGraph([inc], { logger: quietLogger(), recursionLimit: 5 });
    const result = await graph.invoke({ n: { gte: 600 } }, { n: 0 });
    expect(result.status).toBe("goal_achieved");
    expect(result.worldState.n).toBe(600);
    // More than HISTORY_WINDOW·2 (512) records: the state keeps the newest records from a multiple of 256 and sums up the rest.
    expect(result.historyBefore).toEqual({ count: 256, succeeded: ["inc"], failed: [], excluded: [], actualCost: 256 });
    expect(result.executionHistory).toHaveLength(344);
    expect(result.executionHistory[0]?.stateBefore).toEqual({ n: 256 });
  });

  it("a run that loops without progress ends terminated at its allowance, with its history", async () => {
    // The action promises the goal but never delivers: every step deviates and replans, without end under maxReplans 0.
    const stubborn = new ActionSpec({ name: "try", effects: { done: true }, execute: () => ({ done: false }) });
    const graph = new GoapGraph([stubborn], { logger: quietLogger(), recursionLimit: 40 });
    const result = await graph.invoke(new GoalSpec({ conditions: { done: true }, policy: { maxReplans: 0 } }), { done: false });
    expect(result.status).toBe("terminated");
    expect(result.replanReason).toMatch(/^recursion_limit: /);
    // 2 supersteps per record and one per replan: 2·15 + 14 + 1 = 45 > 40 + 2·1.
    expect(result.executionHistory.length).toBe(15);
    expect(result.executionHistory.every((r) => r.actionName === "try" && r.success)).toBe(true);
  });
});
