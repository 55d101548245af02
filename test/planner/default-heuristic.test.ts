/**
 * The default heuristic of a boolean domain: hmax while the search is small,
 * LM-cut once hmax has expanded ESCALATE_AFTER states. Both are admissible,
 * so the plan stays optimal; the figures count both phases.
 */
import { describe, expect, it } from "vitest";
import { chainProblem, chainToLanggoap } from "../../bench/problems.js";
import { ActionSpec, GoalSpec, type WorldState } from "../../src/core/index.js";
import { ESCALATE_AFTER, planDetailed, planDetailedAsync } from "../../src/planner/index.js";

const large = chainToLanggoap(chainProblem({ N: 40, M: 90, D: 20, seed: 1 }));
const small = chainToLanggoap(chainProblem({ N: 24, M: 54, D: 12, seed: 1 }));

describe("default heuristic", () => {
  it("switches a large boolean search from hmax to LM-cut and keeps the optimal plan", async () => {
    const hmaxOnly = planDetailed(large.start, large.goal, large.actions, { heuristic: "hmax" });
    const lmcutOnly = planDetailed(large.start, large.goal, large.actions, { heuristic: "lmcut" });
    expect(hmaxOnly.stats.nodesExpanded).toBeGreaterThan(ESCALATE_AFTER);
    const byDefault = planDetailed(large.start, large.goal, large.actions);
    expect(byDefault.status).toBe("found");
    expect(byDefault.plan?.totalCost).toBe(hmaxOnly.plan?.totalCost);
    expect(byDefault.plan?.totalCost).toBe(25);
    expect(byDefault.plan?.metadata.heuristic).toBe("lmcut");
    expect(byDefault.stats.nodesExpanded).toBe(ESCALATE_AFTER + lmcutOnly.stats.nodesExpanded);
    const asynchronous = await planDetailedAsync(large.start, large.goal, large.actions);
    expect(asynchronous.plan?.actionNames).toEqual(byDefault.plan?.actionNames);
    expect(asynchronous.stats.nodesExpanded).toBe(byDefault.stats.nodesExpanded);
  });

  it("keeps hmax on a small search and honours a smaller expansion budget", () => {
    const quick = planDetailed(small.start, small.goal, small.actions);
    expect(quick.plan?.metadata.heuristic).toBe("hmax");
    expect(quick.stats.nodesExpanded).toBeLessThan(ESCALATE_AFTER);
    const capped = planDetailed(large.start, large.goal, large.actions, { maxExpansions: ESCALATE_AFTER - 100 });
    expect(capped.status).toBe("budget_exhausted");
    expect(capped.stats.nodesExpanded).toBe(ESCALATE_AFTER - 100);
    // A budget above the switch point counts both phases against it.
    const shared = planDetailed(large.start, large.goal, large.actions, { maxExpansions: ESCALATE_AFTER + 5 });
    expect(shared.status).toBe("budget_exhausted");
    expect(shared.stats.nodesExpanded).toBe(ESCALATE_AFTER + 5);
  });

  it("keeps hmax on a long plan, where it expands one state per step", () => {
    // A chain of 800 steps: hmax is exact here, and LM-cut would cost a cut per step. The start's hmax promises a long
    // plan, so after ESCALATE_AFTER expansions hmax starts again instead of LM-cut: those expansions are counted twice.
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
    expect(result.stats.nodesExpanded).toBe(ESCALATE_AFTER + length);
  });
});
