import { describe, expect, it } from "vitest";
import {
  CHAIN_INSTANCES,
  chainProblem,
  chainToLanggoap,
  type LanggoapProblem,
  longChainProblem,
  RESOURCE_INSTANCES,
  resourceProblem,
  resourceToLanggoap,
  wideWorldProblem,
} from "../../bench/problems.js";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "../../examples/lib/village.js";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import { planningSteps } from "../../src/planner/astar.js";
import { explanationSteps } from "../../src/planner/explain.js";
import { explainNoPlan, type PlanDetailedResult, type PlanOptions, planDetailed } from "../../src/planner/index.js";
import { Pace } from "../../src/planner/pace.js";

/**
 * Drives planning with slices of 0 ms, so it yields at every point where it
 * may (the count no longer depends on the clock), and calls `between` after
 * each yield with the number of yields so far.
 */
function drive(
  { actions, start, goal }: LanggoapProblem,
  options: PlanOptions,
  between: (yields: number) => void = () => {},
): { result: PlanDetailedResult; yields: number } {
  const steps = planningSteps(start, goal, actions, options, 0);
  let yields = 0;
  let step = steps.next();
  while (!step.done) {
    yields++;
    between(yields);
    step = steps.next();
  }
  return { result: step.value, yields };
}

/** A chain of `length` actions whose goal no action makes: refuted before any search, after compiling. */
function refutedChain(length: number): LanggoapProblem {
  const { actions, start } = longChainProblem(length);
  return { actions, start, goal: new GoalSpec({ conditions: { nobody_makes_this: true } }) };
}

const UNLIMITED = { timeBudgetMs: Number.POSITIVE_INFINITY };

describe("planning in slices, from validation to search", () => {
  it("yields while it validates, sorts and compiles a large domain, before any search", () => {
    const { result, yields } = drive(refutedChain(20_000), UNLIMITED);
    expect(result.status).toBe("no_plan");
    expect(result.stats.nodesExpanded).toBe(0);
    // Validation, sorting, compiling and the relaxation's structure each pass over the 20,000 actions in steps of
    // 256 (about 78 yields each); the old planner compiled all of it in one go.
    expect(yields).toBeGreaterThan(300);
  });

  it("stops with `aborted` and no expansion when the signal aborts while it compiles", () => {
    const controller = new AbortController();
    let yieldsAfterAbort = 0;
    const { result } = drive(refutedChain(20_000), { ...UNLIMITED, signal: controller.signal }, (yields) => {
      if (yields === 100) controller.abort(new Error("user left"));
      if (yields > 100) yieldsAfterAbort++;
    });
    expect(result.status).toBe("aborted");
    expect(result.abortReason).toBe("Error: user left");
    expect(result.stats).toMatchObject({ nodesExpanded: 0, nodesGenerated: 0 });
    // It stops at the next point where it checks, not after compiling.
    expect(yieldsAfterAbort).toBe(0);
  });

  it("stops with `budget_exhausted` (time) when the time budget runs out while it compiles", () => {
    for (const run of [
      () => drive(refutedChain(5_000), { timeBudgetMs: 0 }).result,
      () => planDetailed(refutedChain(5_000).start, refutedChain(5_000).goal, refutedChain(5_000).actions, { timeBudgetMs: 0 }),
    ]) {
      const result = run();
      expect(result.status).toBe("budget_exhausted");
      expect(result.budget?.limit).toBe("time");
      // Not even the root was made: the budget ran out before the search began (the old planner compiled on and said
      // no_plan after a second).
      expect(result.stats).toMatchObject({ nodesExpanded: 0, nodesGenerated: 0 });
    }
  });

  it("yields between the children of one expansion of a wide state", () => {
    // One expansion of the root: 2,002 candidate actions, each child a copy of a row of 2,002 numbers.
    const { result, yields } = drive(wideWorldProblem(2_000), { ...UNLIMITED, maxExpansions: 1, heuristic: "zero" });
    expect(result.status).toBe("budget_exhausted");
    expect(result.budget?.limit).toBe("expansions");
    expect(result.stats.nodesExpanded).toBe(1);
    // A slice of 0 ms ends after each child: at least one yield per child the expansion made.
    expect(yields).toBeGreaterThan(result.stats.nodesGenerated);
  });

  it("holds the node budget within an expansion (a wide expansion does not overshoot it)", () => {
    const result = planDetailed(wideWorldProblem(2_000).start, wideWorldProblem(2_000).goal, wideWorldProblem(2_000).actions, {
      ...UNLIMITED,
      maxNodes: 100,
    });
    expect(result.status).toBe("budget_exhausted");
    expect(result.budget?.limit).toBe("nodes");
    // The old engine checked between expansions only and held 2,002 states after the root's.
    expect(result.budget?.nodesStored).toBe(100);
  });

  it("finds what the synchronous planner finds, with the same counters, however it is sliced", () => {
    const problems = [
      ...Object.values(CHAIN_INSTANCES)
        .slice(0, 2)
        .map((p) => chainToLanggoap(chainProblem(p))),
      resourceToLanggoap(resourceProblem(RESOURCE_INSTANCES["res-1"])),
      longChainProblem(300),
    ];
    for (const problem of problems) {
      for (const heuristic of [undefined, "hmax", "zero"] as const) {
        const options = heuristic ? { heuristic } : {};
        const sync = planDetailed(problem.start, problem.goal, problem.actions, options);
        const { result } = drive(problem, options);
        expect(sync.status).toBe("found");
        expect(result.status).toBe("found");
        expect(result.plan?.actionNames).toEqual(sync.plan?.actionNames);
        expect(result.stats.nodesExpanded).toBe(sync.stats.nodesExpanded);
        expect(result.stats.nodesGenerated).toBe(sync.stats.nodesGenerated);
      }
    }
  });

  it("explains a proven no_plan in slices before it resolves: the explanation the synchronous call computes when read", () => {
    const problem = refutedChain(5_000);
    const sync = planDetailed(problem.start, problem.goal, problem.actions, UNLIMITED);
    expect(typeof Object.getOwnPropertyDescriptor(sync, "explanation")?.get).toBe("function");
    const expected = explainNoPlan(problem.start, problem.goal, problem.actions);
    expect(sync.explanation).toEqual(expected);
    expect(expected.unreachableConditions).toEqual(["nobody_makes_this = true"]);

    const { result, yields } = drive(problem, UNLIMITED);
    expect(result.status).toBe("no_plan");
    // Computed already (a value, not a getter): reading it costs nothing, and it was computed in slices.
    const descriptor = Object.getOwnPropertyDescriptor(result, "explanation");
    expect(descriptor?.get).toBeUndefined();
    expect(descriptor?.value).toEqual(expected);
    // Aborted while it explains: still the proven no_plan, its explanation computed when read.
    const controller = new AbortController();
    const aborted = drive(problem, { ...UNLIMITED, signal: controller.signal }, (n) => {
      if (n === yields - 1) controller.abort(new Error("user left"));
    }).result;
    expect(aborted.status).toBe("no_plan");
    expect(typeof Object.getOwnPropertyDescriptor(aborted, "explanation")?.get).toBe("function");
    expect(aborted.explanation).toEqual(expected);
  });

  it("explains in slices exactly what explainNoPlan explains in one go: unreachable goals, missing preconditions, unusable actions", () => {
    const actions = [
      ...createVillageActions(),
      new ActionSpec({ name: "use_key", preconditions: { has_key: true }, effects: { door_open: true } }),
    ];
    const start = { ...villageStartState(), has_axe: false };
    const goal = new GoalSpec({ conditions: { ...VILLAGE_GOALS.notHungry, door_open: true } });
    const steps = explanationSteps(start, goal, actions, new Pace(0, Number.POSITIVE_INFINITY, undefined));
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    const expected = explainNoPlan(start, goal, actions);
    expect(step.value).toEqual(expected);
    expect(expected.missingPreconditions).toContain("has_key = true");
    expect(expected.unusableActions).toContain("use_key");
    expect(expected.unreachableConditions).toContain("door_open = true");
    // A slice of 0 ms ends at every checkpoint: compiling, the relaxation's structure, and the walks over atoms and actions.
    expect(yields).toBeGreaterThan(10);
  });
});
