/**
 * The default heuristic of a boolean domain: LM-cut from the start on a
 * domain of 32 actions or more, however large, or with a goal of three
 * conditions or more; on a smaller one hmax while the search is
 * small, LM-cut once hmax has expanded ESCALATE_AFTER states; hmax on a long
 * plan. Both are admissible, so the plan stays optimal; the figures count
 * every phase.
 */
import { describe, expect, it } from "vitest";
import { chainProblem, chainToLanggoap } from "../../bench/problems.js";
import { ActionSpec, GoalSpec, type WorldState } from "../../src/core/index.js";
import { ESCALATE_AFTER, planDetailed, planDetailedAsync } from "../../src/planner/index.js";

/** 90 actions. */
const large = chainToLanggoap(chainProblem({ N: 40, M: 90, D: 20, seed: 1 }));
/** 31 actions, and hmax needs 814 expansions where LM-cut needs 92. */
const smallButHard = chainToLanggoap(chainProblem({ N: 18, M: 31, D: 9, seed: 2 }));
/** 1,100 actions: LM-cut finds the plan (cost 25) in 60 expansions. */
const huge = chainToLanggoap(chainProblem({ N: 60, M: 1100, D: 20, seed: 1 }));
/** 24 actions, an easy search. */
const smallAndEasy = chainToLanggoap(chainProblem({ N: 16, M: 24, D: 8, seed: 1 }));

describe("default heuristic", () => {
  it("searches a domain of 32 actions or more with LM-cut from the start", async () => {
    const hmaxOnly = planDetailed(large.start, large.goal, large.actions, { heuristic: "hmax" });
    const lmcutOnly = planDetailed(large.start, large.goal, large.actions, { heuristic: "lmcut" });
    const byDefault = planDetailed(large.start, large.goal, large.actions);
    expect(byDefault.status).toBe("found");
    expect(byDefault.plan?.totalCost).toBe(25);
    expect(hmaxOnly.plan?.totalCost).toBe(25);
    expect(byDefault.plan?.metadata.heuristic).toBe("lmcut");
    expect(byDefault.stats.nodesExpanded).toBe(lmcutOnly.stats.nodesExpanded);
    expect(byDefault.stats.nodesExpanded).toBeLessThan(hmaxOnly.stats.nodesExpanded / 10);
    const asynchronous = await planDetailedAsync(large.start, large.goal, large.actions);
    expect(asynchronous.plan?.actionNames).toEqual(byDefault.plan?.actionNames);
    expect(asynchronous.stats.nodesExpanded).toBe(byDefault.stats.nodesExpanded);
  });

  it("searches a domain of more than 1,000 actions with LM-cut from the start too", () => {
    // 1,100 actions: hmax expands ~144 children per state here and does not find the plan in 300 expansions; LM-cut
    // needs 60. Before, such a domain searched with hmax throughout.
    const { start, goal, actions } = huge;
    expect(actions.length).toBe(1100);
    const hmaxCapped = planDetailed(start, goal, actions, { heuristic: "hmax", maxExpansions: 60, timeBudgetMs: Number.POSITIVE_INFINITY });
    expect(hmaxCapped.status).toBe("budget_exhausted");
    const lmcutOnly = planDetailed(start, goal, actions, { heuristic: "lmcut", timeBudgetMs: Number.POSITIVE_INFINITY });
    const byDefault = planDetailed(start, goal, actions, { timeBudgetMs: Number.POSITIVE_INFINITY });
    expect(byDefault.plan?.totalCost).toBe(25);
    expect(byDefault.plan?.metadata.heuristic).toBe("lmcut");
    expect(byDefault.stats.nodesExpanded).toBe(60);
    expect(byDefault.plan?.actionNames).toEqual(lmcutOnly.plan?.actionNames);
  });

  it("switches a small domain's search from hmax to LM-cut after ESCALATE_AFTER expansions and keeps the optimal plan", () => {
    const { start, goal, actions } = smallButHard;
    expect(actions.length).toBeLessThan(32);
    const hmaxOnly = planDetailed(start, goal, actions, { heuristic: "hmax" });
    const lmcutOnly = planDetailed(start, goal, actions, { heuristic: "lmcut" });
    expect(hmaxOnly.stats.nodesExpanded).toBeGreaterThan(ESCALATE_AFTER);
    const byDefault = planDetailed(start, goal, actions);
    expect(byDefault.plan?.totalCost).toBe(24);
    expect(hmaxOnly.plan?.totalCost).toBe(24);
    expect(byDefault.plan?.metadata.heuristic).toBe("lmcut");
    expect(byDefault.stats.nodesExpanded).toBe(ESCALATE_AFTER + lmcutOnly.stats.nodesExpanded);
    // A budget below the switch point stops in the hmax phase; one above it counts both phases against it.
    const capped = planDetailed(start, goal, actions, { maxExpansions: ESCALATE_AFTER - 100 });
    expect(capped.status).toBe("budget_exhausted");
    expect(capped.stats.nodesExpanded).toBe(ESCALATE_AFTER - 100);
    const shared = planDetailed(start, goal, actions, { maxExpansions: ESCALATE_AFTER + 5 });
    expect(shared.status).toBe("budget_exhausted");
    expect(shared.stats.nodesExpanded).toBe(ESCALATE_AFTER + 5);
  });

  it("searches a small domain with LM-cut from the start when its goal has three conditions or more", () => {
    // Six independent chores: hmax sees the dearest one alone (1 at the start), LM-cut adds them up (6, the plan's cost), so
    // hmax would go through the orderings of the chores before the plan (IPC movie and maintenance are this shape).
    const chores = ["dishes", "laundry", "floor", "windows", "bins", "beds"];
    const actions = chores.map((c) => new ActionSpec({ name: `do_${c}`, preconditions: { [c]: false }, effects: { [c]: true } }));
    const start: WorldState = Object.fromEntries(chores.map((c) => [c, false]));
    const goal = new GoalSpec({ conditions: Object.fromEntries(chores.map((c) => [c, true])) });
    const byDefault = planDetailed(start, goal, actions);
    const lmcutOnly = planDetailed(start, goal, actions, { heuristic: "lmcut" });
    const hmaxOnly = planDetailed(start, goal, actions, { heuristic: "hmax" });
    expect(byDefault.plan?.totalCost).toBe(6);
    expect(byDefault.plan?.metadata.heuristic).toBe("lmcut");
    expect(byDefault.stats.nodesExpanded).toBe(6);
    expect(byDefault.plan?.actionNames).toEqual(lmcutOnly.plan?.actionNames);
    expect(hmaxOnly.stats.nodesExpanded).toBeGreaterThan(30);
    // Two conditions keep hmax (a game agent's goal): its search stays on the cheaper heuristic.
    const two = planDetailed(start, new GoalSpec({ conditions: { dishes: true, laundry: true } }), actions);
    expect(two.plan?.totalCost).toBe(2);
    expect(two.plan?.metadata.heuristic).toBe("hmax");
  });

  it("keeps hmax on a small domain's easy search", () => {
    const quick = planDetailed(smallAndEasy.start, smallAndEasy.goal, smallAndEasy.actions);
    expect(quick.status).toBe("found");
    expect(quick.plan?.metadata.heuristic).toBe("hmax");
    expect(quick.stats.nodesExpanded).toBeLessThan(ESCALATE_AFTER);
  });

  it("keeps hmax on a long plan, where it expands one state per step", () => {
    // A chain of 800 steps: hmax is exact here, and LM-cut would cost a cut per step. The start's hmax promises a
    // long plan, so the search never uses LM-cut.
    const length = 800;
    const actions = Array.from(
      { length },
      (_, i) => new ActionSpec({ name: `step_${i}`, preconditions: { [`s${i}`]: true }, effects: { [`s${i + 1}`]: true } }),
    );
    const start: WorldState = {};
    for (let i = 0; i <= length; i++) start[`s${i}`] = i === 0;
    const result = planDetailed(start, new GoalSpec({ conditions: { [`s${length}`]: true } }), actions, {
      timeBudgetMs: Number.POSITIVE_INFINITY,
    });
    expect(result.status).toBe("found");
    expect(result.plan?.length).toBe(length);
    expect(result.plan?.metadata.heuristic).toBe("hmax");
    expect(result.stats.nodesExpanded).toBe(length);
  });
});
