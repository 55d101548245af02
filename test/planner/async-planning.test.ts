import { describe, expect, it } from "vitest";
import {
  addTwoProblem,
  CHAIN_INSTANCES,
  chainProblem,
  chainToLanggoap,
  RESOURCE_INSTANCES,
  resourceProblem,
  resourceToLanggoap,
} from "../../bench/problems.js";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "../../examples/lib/village.js";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import {
  AStarStrategy,
  LazyDecompositionStrategy,
  Plan,
  type PlanningStrategy,
  planAsync,
  planDetailed,
  planDetailedAsync,
  RepairStrategy,
  StrategyRouter,
} from "../../src/planner/index.js";

const UNLIMITED = { maxNodes: Number.POSITIVE_INFINITY, timeBudgetMs: Number.POSITIVE_INFINITY };

describe("asynchronous planning", () => {
  it("finds what the synchronous planner finds, with the same counters", async () => {
    const problems = [
      ...Object.values(CHAIN_INSTANCES).map((p) => chainToLanggoap(chainProblem(p))),
      resourceToLanggoap(resourceProblem(RESOURCE_INSTANCES["res-1"])),
    ];
    for (const [i, { actions, start, goal }] of problems.entries()) {
      // Blind search on the two small chains only: it is slow on the large ones.
      for (const heuristic of i < 2 ? (["hmax", "zero"] as const) : (["hmax"] as const)) {
        const sync = planDetailed(start, goal, actions, { heuristic });
        const async = await planDetailedAsync(start, goal, actions, { heuristic });
        expect(async.status).toBe("found");
        expect(async.plan?.actionNames).toEqual(sync.plan?.actionNames);
        expect(async.plan?.totalCost).toBe(sync.plan?.totalCost);
        expect(async.stats.nodesExpanded).toBe(sync.stats.nodesExpanded);
        expect(async.stats.nodesGenerated).toBe(sync.stats.nodesGenerated);
      }
    }
    expect((await planAsync(villageStartState(), VILLAGE_GOALS.notHungry, createVillageActions()))?.actionNames).toHaveLength(5);
  });

  it("lets timers run while it searches", async () => {
    const { actions, start, goal } = addTwoProblem();
    let expanded = 0;
    const seenMidSearch: number[] = [];
    const timer = setInterval(() => seenMidSearch.push(expanded), 0);
    const result = await planDetailedAsync(start, goal, actions, {
      heuristic: "zero",
      maxNodes: 40_000,
      recordExpansions: true,
      tracer: {
        onSearchExpand: () => {
          expanded++;
        },
      },
    });
    clearInterval(timer);
    expect(result.status).toBe("budget_exhausted");
    // The timer fired between expansions: the search gave the event loop turns on its way.
    const during = seenMidSearch.filter((n) => n > 0 && n < result.stats.nodesExpanded);
    expect(new Set(during).size).toBeGreaterThanOrEqual(2);
  });

  it("stops an otherwise endless search when its AbortSignal fires, with the reason", async () => {
    const { actions, start, goal } = addTwoProblem();
    const controller = new AbortController();
    let expanded = 0;
    // The abort comes mid-search, at the 1,000th expansion.
    const tracer = {
      onSearchExpand: () => {
        if (++expanded === 1_000) controller.abort(new Error("user left"));
      },
    };
    const result = await planDetailedAsync(start, goal, actions, {
      ...UNLIMITED,
      signal: controller.signal,
      tracer,
      recordExpansions: true,
    });
    expect(result.status).toBe("aborted");
    expect(result.plan).toBeNull();
    expect(result.abortReason).toBe("Error: user left");
    // The unlimited search went on after the abort only to the end of its slice.
    expect(result.stats.nodesExpanded).toBeGreaterThanOrEqual(1_000);
  });

  it("does not start a search whose signal has already aborted", async () => {
    const { actions, start, goal } = addTwoProblem();
    const controller = new AbortController();
    controller.abort(new Error("user left"));
    const result = await planDetailedAsync(start, goal, actions, { ...UNLIMITED, signal: controller.signal });
    expect(result).toMatchObject({ status: "aborted", abortReason: "Error: user left", stats: { nodesExpanded: 0 } });
  });
});

describe("strategies report why a search ended", () => {
  const { actions, start, goal } = addTwoProblem();

  it("AStarStrategy searches asynchronously and tells a budget stop from no plan", async () => {
    const astar = new AStarStrategy({ maxNodes: 500 });
    const result = await astar.planDetailed(start, goal, actions);
    expect(result.status).toBe("budget_exhausted");
    expect(result.budget).toMatchObject({ limit: "nodes", maxNodes: 500 });
    expect(await astar.plan(start, goal, actions)).toBeNull();
    const unreachable = await astar.planDetailed({}, new GoalSpec({ conditions: { flying: true } }), actions);
    expect(unreachable.status).toBe("no_plan");
    expect(unreachable.explanation?.unreachableConditions).toEqual(["flying = true"]);
  });

  it("AStarStrategy stops when the context's signal aborts", async () => {
    const astar = new AStarStrategy(UNLIMITED);
    const controller = new AbortController();
    // Aborts at the search's first turn to the event loop.
    setImmediate(() => controller.abort(new Error("user left")));
    const result = await astar.planDetailed(start, goal, actions, { signal: controller.signal });
    expect(result.status).toBe("aborted");
    expect(result.abortReason).toBe("Error: user left");
  });

  it("a router passes on its strategy's status, and reads null from a plain strategy as no_plan", async () => {
    const plain: PlanningStrategy = { name: "plain", plan: async () => null };
    const router = new StrategyRouter({
      strategies: { astar: new AStarStrategy({ maxNodes: 100 }), plain },
      classifier: (features) => (features.goalConditionCount > 1 ? "plain" : "astar"),
    });
    expect((await router.planDetailed(start, goal, actions)).status).toBe("budget_exhausted");
    const twoConditions = new GoalSpec({ conditions: { n: { gte: 4 }, done: true } });
    expect(await router.planDetailed(start, twoConditions, actions)).toEqual({ plan: null, status: "no_plan" });
  });

  it("wrapping strategies (lazy, repair) pass on the status of the search they wrap", async () => {
    const inner = new AStarStrategy({ maxNodes: 100 });
    expect((await new LazyDecompositionStrategy({ inner }).planDetailed(start, goal, actions)).status).toBe("budget_exhausted");
    const repair = new RepairStrategy({ inner });
    expect((await repair.planDetailed(start, goal, actions)).budget).toMatchObject({ limit: "nodes", maxNodes: 100 });
    // A prior plan whose first step still runs: the prefix is kept and the suffix search runs out of budget.
    const prior = Plan.empty().with({ actions: [actions[0]!], expectedStates: [{ n: 2, done: false }] });
    const repaired = await repair.planDetailed(start, goal, actions, { priorPlan: prior, currentStep: 0 });
    expect(repaired.status).toBe("budget_exhausted");
    const numeric = new GoalSpec({ conditions: { n: { gte: 6 } } });
    expect((await repair.planDetailed(start, numeric, actions, { priorPlan: prior })).plan?.actionNames).toEqual([
      "add_two",
      "add_two",
      "add_two",
    ]);
  });

  it("refuses budgets that are not numbers >= 0", () => {
    expect(() => new AStarStrategy({ timeBudgetMs: -5 })).toThrow(/AStarStrategy: timeBudgetMs must be a number >= 0/);
  });
});

describe("a numeric chain of sync and async calls agree under a budget", () => {
  it("stops both at the same node count", async () => {
    const inc = new ActionSpec({ name: "inc", effects: { n: { inc: 1 } } });
    const goal = new GoalSpec({ conditions: { n: -1 } });
    const sync = planDetailed({ n: 0 }, goal, [inc], { maxNodes: 3000, heuristic: "zero" });
    const async = await planDetailedAsync({ n: 0 }, goal, [inc], { maxNodes: 3000, heuristic: "zero" });
    expect(async.budget).toMatchObject({
      limit: "nodes",
      nodesStored: sync.budget!.nodesStored,
      nodesExpanded: sync.budget!.nodesExpanded,
    });
  });
});
