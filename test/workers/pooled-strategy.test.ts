import { afterAll, describe, expect, it } from "vitest";
import { addTwoProblem } from "../../bench/problems.js";
import { GoapGraph } from "../../src/graph/index.js";
import { AStarStrategy } from "../../src/planner/index.js";
import { PlannerPool, PooledAStarStrategy } from "../../src/workers/index.js";
import { villageActions, villageStart } from "../support/village.js";

const pool = new PlannerPool({ size: 1 });
afterAll(() => pool.destroy());

describe("PooledAStarStrategy: the graph's planner node plans in a worker", () => {
  it("runs a graph to the same end as the in-thread A*", async () => {
    const goal = { is_hungry: false, is_tired: false };
    const local = await new GoapGraph(villageActions, { strategy: new AStarStrategy() }).invoke(goal, villageStart);
    const pooled = await new GoapGraph(villageActions, { strategy: new PooledAStarStrategy(pool) }).invoke(goal, villageStart);
    expect(local.status).toBe("goal_achieved");
    expect(pooled.status).toBe(local.status);
    expect(pooled.executionHistory.map((r) => r.actionName)).toEqual(local.executionHistory.map((r) => r.actionName));
    expect(pooled.worldState).toEqual(local.worldState);
    expect(pool.stats.planned).toBeGreaterThanOrEqual(1);
  });

  it("carries the strategy's budget to the worker and reports budget_exhausted apart from no_plan", async () => {
    const { actions, start, goal } = addTwoProblem();
    const graph = new GoapGraph(actions, { strategy: new PooledAStarStrategy(pool, { maxNodes: 300 }) });
    const result = await graph.invoke(goal, start);
    expect(result.status).toBe("budget_exhausted");
    expect(result.noPlanExplanation?.budget).toMatchObject({ limit: "nodes", maxNodes: 300, nodesStored: 300 });
    const proven = await graph.invoke({ flying: true }, start);
    expect(proven.status).toBe("no_plan");
    expect(proven.noPlanExplanation?.unreachableConditions).toEqual(["flying = true"]);
  });

  it("rejects a bad budget where it is given", () => {
    expect(() => new PooledAStarStrategy(pool, { maxNodes: -1 })).toThrow(/maxNodes/);
  });
});
