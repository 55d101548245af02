/**
 * The blacklist is lifted in one layer, the graph's planner: strategies leave
 * blacklisted actions out and never fall back themselves. A proven "no plan"
 * with one blacklisted action used to cost two strategy calls and three
 * searches (A* fell back inside the first call, then the graph asked again);
 * now it costs two calls and two searches.
 */
import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec, type PlanningTracer } from "../../src/core/index.js";
import { type GoalPlanningContext, planGoal } from "../../src/graph/goal-planning.js";
import { safeLogger } from "../../src/graph/logger.js";
import { AStarStrategy, type PlanningStrategy, StrategyRouter } from "../../src/planner/index.js";

/** An A* strategy that counts its calls and its searches (each search of these domains proves unreachability once). */
function counted(): { strategy: PlanningStrategy; tracer: PlanningTracer; calls: string[][]; searches: () => number } {
  const inner = new AStarStrategy();
  const calls: string[][] = [];
  let deadEnds = 0;
  const strategy: PlanningStrategy = {
    name: "counted",
    plan: (start, goal, actions, context) => inner.plan(start, goal, actions, context),
    planDetailed: (start, goal, actions, context = {}) => {
      calls.push([...(context.blacklisted ?? [])]);
      return inner.planDetailed(start, goal, actions, context);
    },
  };
  const tracer: PlanningTracer = { onSearchDeadEnd: (reason) => void (reason === "not_reachable" && deadEnds++) };
  return { strategy, tracer, calls, searches: () => deadEnds };
}

function context(
  actions: readonly ActionSpec[],
  blacklisted: readonly string[],
  strategy: PlanningStrategy,
  tracer: PlanningTracer,
): GoalPlanningContext {
  return {
    actions,
    known: new Map(actions.map((a) => [a.name, a])),
    blacklisted,
    chooseStrategy: () => strategy,
    priorPlan: null,
    currentStep: 0,
    signal: undefined,
    tracer,
    recordExpansions: true,
    logger: safeLogger({}),
  };
}

// Opening the door needs a key nothing provides: no plan, with or without `open`.
const open = new ActionSpec({ name: "open", preconditions: { key: true }, effects: { door: true } });
const knock = new ActionSpec({ name: "knock", effects: { heard: true } });
const doorOpen = new GoalSpec({ conditions: { door: true } });

describe("the blacklist fallback", () => {
  it("proves 'no plan' with one blacklisted action in two strategy calls and two searches", async () => {
    const { strategy, tracer, calls, searches } = counted();
    const result = await planGoal(doorOpen, { key: false }, context([open, knock], ["open"], strategy, tracer));
    expect(result.status).toBe("no_plan");
    expect(result.plan).toBeNull();
    expect(result.usedBlacklistFallback).toBe(false);
    expect(result.explanation?.unreachableConditions).toEqual(["door = true"]);
    expect(calls).toEqual([["open"], []]);
    expect(searches()).toBe(2);
  });

  it("finds a plan that needs a blacklisted action once the graph lifts the blacklist", async () => {
    const { strategy, tracer, calls } = counted();
    const result = await planGoal(doorOpen, { key: true }, context([open, knock], ["open"], strategy, tracer));
    expect(result.plan?.actionNames).toEqual(["open"]);
    expect(result.usedBlacklistFallback).toBe(true);
    expect(calls).toEqual([["open"], []]);
  });

  it("does not lift the blacklist when a plan exists without it", async () => {
    const { strategy, tracer, calls } = counted();
    const ring = new ActionSpec({ name: "ring", effects: { door: true }, cost: 5 });
    const result = await planGoal(doorOpen, { key: true }, context([open, ring], ["open"], strategy, tracer));
    expect(result.plan?.actionNames).toEqual(["ring"]);
    expect(result.usedBlacklistFallback).toBe(false);
    expect(calls).toEqual([["open"]]);
  });

  it("leaves blacklisted actions out of a strategy's own search: A* strategies never fall back themselves", async () => {
    const astar = await new AStarStrategy().planDetailed({ key: true }, doorOpen, [open], { blacklisted: ["open"] });
    expect(astar.status).toBe("no_plan");
    const router = new StrategyRouter({ strategies: { astar: new AStarStrategy() } });
    expect((await router.planDetailed({ key: true }, doorOpen, [open], { blacklisted: ["open"] })).status).toBe("no_plan");
  });
});
