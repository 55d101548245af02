import { GraphRecursionError } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
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

  it("the compiled graph carries the GOAP recursion limit by default", async () => {
    const graph = new GoapGraph(chain(), { logger: quietLogger(), recursionLimit: 500 });
    expect(graph.compile().config?.recursionLimit).toBe(500);
  });
});
