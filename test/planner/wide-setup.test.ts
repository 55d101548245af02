import { describe, expect, it } from "vitest";
import { type LanggoapProblem, wideWorldProblem } from "../../bench/problems.js";
import { toGoalSpec } from "../../src/core/index.js";
import { planningSteps } from "../../src/planner/astar.js";
import { compileProblem } from "../../src/planner/compile.js";
import { type PlanDetailedResult, type PlanOptions, planDetailed } from "../../src/planner/index.js";
import { PACE_EVERY, Pace, PlanningStopped } from "../../src/planner/pace.js";

const W = 3_000;

/** Drives planning with slices of 0 ms (a yield at every point where it may), calling `between` after each yield. */
function drive({ actions, start, goal }: LanggoapProblem, options: PlanOptions, between: (yields: number) => void): PlanDetailedResult {
  const steps = planningSteps(start, goal, actions, options, 0);
  let yields = 0;
  let step = steps.next();
  while (!step.done) {
    between(++yields);
    step = steps.next();
  }
  return step.value;
}

/** The wide world from another start: every extra fact one step further on. */
function shifted(problem: LanggoapProblem): LanggoapProblem {
  const start = { ...problem.start };
  for (let i = 0; i < W; i++) start[`w${i}`] = (i + 1) % 3;
  return { ...problem, start };
}

describe("setting up a wide world in slices", () => {
  it("encodes a wide start row in slices, and a stop leaves the compiled problem as it was", () => {
    const { actions, start, goal } = wideWorldProblem(W);
    const p = compileProblem(start, toGoalSpec(goal), actions);
    const before = p.start;
    const next = shifted(wideWorldProblem(W)).start;

    let yields = 0;
    const run = p.rebindStartSteps(next, new Pace(0, Number.POSITIVE_INFINITY, undefined));
    let step = run.next();
    for (; !step.done; step = run.next()) yields++;
    expect(step.value).toBe(true);
    // Three passes over the W + 2 facts (check, encode, context), a clock reading every PACE_EVERY: the old
    // rebindStart encoded them all in one go.
    expect(yields).toBeGreaterThanOrEqual(Math.floor((3 * W) / PACE_EVERY));
    expect(p.start[p.keyIndex.get("w0") as number]).toBe(1);

    p.rebindStart(start);
    const controller = new AbortController();
    const stopped = p.rebindStartSteps(next, new Pace(0, Number.POSITIVE_INFINITY, controller.signal));
    stopped.next();
    stopped.next();
    controller.abort();
    expect(() => stopped.next()).toThrow(PlanningStopped);
    // Nothing was half-changed: the row is the one bound before.
    expect(Array.from(p.start)).toEqual(Array.from(before));
  });

  it("reusing a cached wide problem yields while it encodes the new start, and an abort there ends the call `aborted`", () => {
    const first = wideWorldProblem(W);
    const options: PlanOptions = { timeBudgetMs: Number.POSITIVE_INFINITY, maxExpansions: 1, heuristic: "zero" };
    // Compiles and caches the problem (the same actions and goal are planned again below).
    expect(planDetailed(first.start, first.goal, first.actions, options).status).toBe("budget_exhausted");

    const second = shifted(first);
    const controller = new AbortController();
    const aborted = drive(second, { ...options, signal: controller.signal }, (yields) => {
      // Within the second of the three passes over the start's facts: the old planner re-encoded them in one go and
      // had made hundreds of the root's children by now.
      if (yields === Math.floor((2 * W) / PACE_EVERY)) controller.abort(new Error("user left"));
    });
    expect(aborted.status).toBe("aborted");
    expect(aborted.abortReason).toBe("Error: user left");
    expect(aborted.stats).toMatchObject({ nodesExpanded: 0, nodesGenerated: 0 });

    // The stopped call gave the cached problem back: the next call plans as a fresh synchronous one does.
    const sliced = drive(second, options, () => {});
    const fresh = planDetailed(second.start, second.goal, second.actions, options);
    expect(sliced.status).toBe("budget_exhausted");
    expect(sliced.stats.nodesExpanded).toBe(fresh.stats.nodesExpanded);
    expect(sliced.stats.nodesGenerated).toBe(fresh.stats.nodesGenerated);
  });
});
