import { afterEach, describe, expect, it, vi } from "vitest";
import {
  chainProblem,
  chainToLanggoap,
  countersProblem,
  type LanggoapProblem,
  resourceProblem,
  resourceToLanggoap,
  togglesProblem,
  wideWorldProblem,
} from "../../bench/problems.js";
import { toGoalSpec, type WorldState } from "../../src/core/index.js";
import { planningSteps } from "../../src/planner/astar.js";
import { compileProblem } from "../../src/planner/compile.js";
import { EVALUATION_PAUSED, type Heuristic } from "../../src/planner/heuristics/heuristic.js";
import { createHeuristic, type HeuristicName } from "../../src/planner/heuristics/registry.js";
import { RELAX_PAUSED, RelaxedModel } from "../../src/planner/heuristics/relaxed-model.js";
import { type PlanDetailedResult, type PlanOptions, planDetailed } from "../../src/planner/index.js";

const DOMAINS: Record<string, LanggoapProblem> = {
  wide: wideWorldProblem(300),
  chain: chainToLanggoap(chainProblem({ N: 16, M: 24, D: 8, seed: 1 })),
  resource: resourceToLanggoap(resourceProblem({ CAP: 12, W: 6, S: 3, G: 4, H: 2 })),
  counters: countersProblem(12),
  toggles: togglesProblem(8),
};
const RESUMABLE: HeuristicName[] = ["hmax", "hadd", "hff", "opcount"];

/** The start and a few states the search expands from it: rows near and far from the goal. */
function statesOf({ actions, start, goal }: LanggoapProblem): WorldState[] {
  const result = planDetailed(start, goal, actions, { recordExpansions: true, maxExpansions: 12, heuristic: "hmax" });
  return [start, ...(result.expansions ?? []).map((record) => record.state)].filter((_, i) => i % 3 === 0);
}

/** A clock that moves one unit at every reading: a slice that ends one unit on ends at its first reading. */
function fakeClock(): void {
  let now = 0;
  vi.spyOn(performance, "now").mockImplementation(() => ++now);
}

/** Evaluates the row in as many slices as the heuristic divides it into (one clock reading each); returns the value and the count. */
function sliced(h: Heuristic, row: Float64Array): { value: number; slices: number } {
  h.startEvaluation?.(row, 0);
  let slices = 1;
  let value = h.resumeEvaluation?.(performance.now() + 1) as number;
  while (value === EVALUATION_PAUSED) {
    slices++;
    value = h.resumeEvaluation?.(performance.now() + 1) as number;
  }
  return { value, slices };
}

afterEach(() => vi.restoreAllMocks());

describe("a relaxed evaluation in parts", () => {
  it("fills the same atom costs and supporters whatever the size of the parts", () => {
    for (const [name, problem] of Object.entries(DOMAINS)) {
      for (const state of statesOf(problem)) {
        const p = compileProblem(state, toGoalSpec(problem.goal), problem.actions);
        const model = new RelaxedModel(p, p.start);
        for (const mode of [0, 1] as const) {
          for (const stopAtGoals of [true, false]) {
            const whole = model.relax(p.start, 0, mode, stopAtGoals);
            const cost = Array.from(model.cost);
            const supporter = Array.from(model.supporter);
            const remaining = Array.from(model.remaining);
            for (const work of [1, 7]) {
              model.relaxStart(p.start, 0, mode, stopAtGoals);
              let parts = 1;
              let left = model.relaxResume(work);
              for (; left === RELAX_PAUSED; parts++) left = model.relaxResume(work);
              expect({ name, mode, stopAtGoals, work, left }).toEqual({ name, mode, stopAtGoals, work, left: whole });
              expect(Array.from(model.cost)).toEqual(cost);
              expect(Array.from(model.remaining)).toEqual(remaining);
              if (mode === 1) expect(Array.from(model.supporter)).toEqual(supporter);
              // One unit per part: every atom, free action and settled atom was a part of its own.
              if (work === 1) expect(parts).toBeGreaterThan(p.atoms.length);
            }
          }
        }
      }
    }
  });

  it("gives each relaxed heuristic the value `evaluate` gives, in slices of one clock reading", () => {
    for (const [name, problem] of Object.entries(DOMAINS)) {
      for (const state of statesOf(problem)) {
        const p = compileProblem(state, toGoalSpec(problem.goal), problem.actions);
        const model = new RelaxedModel(p, p.start);
        for (const heuristic of RESUMABLE) {
          const h = createHeuristic(heuristic, p, model);
          h.beginSearch?.(Number.POSITIVE_INFINITY);
          const whole = h.evaluate(p.start, 0);
          vi.restoreAllMocks();
          fakeClock();
          const { value, slices } = sliced(h, p.start);
          vi.restoreAllMocks();
          expect({ name, heuristic, value }).toEqual({ name, heuristic, value: whole });
          if (name === "wide") expect(slices).toBeGreaterThan(2);
          // The evaluation after it is a whole one again (the model was left as `evaluate` leaves it).
          expect(h.evaluate(p.start, 0)).toBe(whole);
        }
      }
    }
  });
});

/** Drives asynchronous planning with slices of 0 ms to its result. */
function drive({ actions, start, goal }: LanggoapProblem, options: PlanOptions): PlanDetailedResult {
  const steps = planningSteps(start, goal, actions, options, 0);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

describe("the asynchronous search's root", () => {
  it("is evaluated in slices, never by one whole relaxation, to the value a synchronous search finds", () => {
    const problem = wideWorldProblem(2_000);
    for (const heuristic of ["hmax", "hff", "opcount", "goal-count"] as const) {
      // No expansion: the root's evaluation (and, for goal-count, the reachability pre-check) is all the search does.
      const options: PlanOptions = { heuristic, maxExpansions: 0, timeBudgetMs: Number.POSITIVE_INFINITY };
      const whole = vi.spyOn(RelaxedModel.prototype, "relax");
      const parts = vi.spyOn(RelaxedModel.prototype, "relaxResume");
      const async = drive(problem, options);
      expect({ heuristic, whole: whole.mock.calls.length }).toEqual({ heuristic, whole: 0 });
      expect(parts.mock.calls.length).toBeGreaterThan(10);
      vi.restoreAllMocks();
      const sync = planDetailed(problem.start, problem.goal, problem.actions, options);
      expect(async.status).toBe("budget_exhausted");
      expect({ status: async.status, stats: async.stats.nodesGenerated }).toEqual({
        status: sync.status,
        stats: sync.stats.nodesGenerated,
      });
    }
  });

  it("ends `aborted` when the signal aborts while the root is evaluated, and `budget_exhausted` when the deadline passes", () => {
    const problem = wideWorldProblem(2_000);
    const realResume = RelaxedModel.prototype.relaxResume;
    /** Plans with `during` called at the 20th part of the root's relaxation. */
    const stopped = (options: PlanOptions, during: () => void): PlanDetailedResult => {
      let calls = 0;
      vi.spyOn(RelaxedModel.prototype, "relaxResume").mockImplementation(function (this: RelaxedModel, work: number) {
        if (++calls === 20) during();
        return realResume.call(this, work);
      });
      const result = drive(problem, { heuristic: "hmax", ...options });
      vi.restoreAllMocks();
      return result;
    };
    const controller = new AbortController();
    const aborted = stopped({ signal: controller.signal, timeBudgetMs: Number.POSITIVE_INFINITY }, () =>
      controller.abort(new Error("user left")),
    );
    expect(aborted.status).toBe("aborted");
    expect(aborted.stats).toMatchObject({ nodesExpanded: 0 });

    // The clock jumps an hour on in the middle of the root's relaxation.
    const realNow = performance.now.bind(performance);
    let jump = 0;
    vi.spyOn(performance, "now").mockImplementation(() => realNow() + jump);
    const late = stopped({ timeBudgetMs: 60_000 }, () => {
      jump = 3_600_000;
    });
    expect(late.status).toBe("budget_exhausted");
    expect(late.budget?.limit).toBe("time");
    expect(late.stats).toMatchObject({ nodesExpanded: 0 });
  });
});
