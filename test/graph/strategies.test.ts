import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec, type PlanningTracer } from "../../src/core/index.js";
import { GoapGraph, successfulActionNames } from "../../src/graph/index.js";
import type { Plan, PlanningStrategy } from "../../src/planner/index.js";
import { AStarStrategy } from "../../src/planner/index.js";
import { quietLogger } from "./support.js";

const shipping = () => [
  new ActionSpec({ name: "ship_air", effects: { delivered: true }, cost: 1, resources: { usd: 40 } }),
  new ActionSpec({ name: "ship_ground", effects: { delivered: true }, cost: 3, resources: { usd: 8 } }),
];

function strategyTrail(names: string[]): PlanningTracer {
  return { onStrategyChosen: (name) => names.push(name) };
}

describe("planning strategies in the graph", () => {
  it("plain goals go to A*; goals with constraints go to the two-phase pipeline", async () => {
    const chosen: string[] = [];
    const graph = new GoapGraph(shipping(), { tracer: strategyTrail(chosen), logger: quietLogger() });
    const fast = await graph.invoke({ delivered: true }, {});
    expect(successfulActionNames(fast)).toEqual(["ship_air"]);
    const budget = new GoalSpec({ conditions: { delivered: true }, constraints: [{ key: "usd", max: 10 }] });
    const cheap = await graph.invoke(budget, {});
    expect(successfulActionNames(cheap)).toEqual(["ship_ground"]);
    expect(chosen).toEqual(["astar", "two-phase-pipeline"]);
    expect(cheap.plan?.metadata.csp).toMatchObject({ status: expect.stringMatching(/optimal|feasible/) });
  });

  it("uses the given strategy for every goal, and a custom pipelineStrategy for optimization goals", async () => {
    const chosen: string[] = [];
    const calls: string[] = [];
    const spy = (name: string): PlanningStrategy => ({
      name,
      plan: (start, goal, actions, ctx) => {
        calls.push(name);
        return new AStarStrategy().plan(start, goal, actions, ctx);
      },
    });
    const budget = new GoalSpec({ conditions: { delivered: true }, constraints: [{ key: "usd", max: 10 }] });
    await new GoapGraph(shipping(), { strategy: spy("mine"), tracer: strategyTrail(chosen), logger: quietLogger() }).invoke(budget, {});
    await new GoapGraph(shipping(), { pipelineStrategy: spy("my-pipeline"), tracer: strategyTrail(chosen), logger: quietLogger() }).invoke(
      budget,
      {},
    );
    expect(calls).toEqual(["mine", "my-pipeline"]);
    expect(chosen).toEqual(["mine", "my-pipeline"]);
  });

  it("passes the prior plan and step to the strategy on a replan (repair strategies use them)", async () => {
    const seen: (string | null)[] = [];
    let fails = 0;
    const actions = [
      new ActionSpec({ name: "a", effects: { a: true } }),
      new ActionSpec({
        name: "b",
        preconditions: { a: true },
        effects: { b: true },
        maxRetries: 3,
        execute: () => {
          if (fails++ === 0) throw new Error("once");
        },
      }),
    ];
    const recording: PlanningStrategy = {
      name: "recording",
      plan: (start, goal, acts, ctx) => {
        seen.push(ctx?.priorPlan ? `${(ctx.priorPlan as Plan).actionNames.join(",")}@${ctx.currentStep}` : null);
        return new AStarStrategy().plan(start, goal, acts, ctx);
      },
    };
    const result = await new GoapGraph(actions, { strategy: recording, logger: quietLogger() }).invoke({ b: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(seen).toEqual([null, "a,b@1"]);
  });
});
