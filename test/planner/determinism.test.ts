/**
 * Wall-clock time may end a search, never change a heuristic value or the
 * order of expansions: the same problem and options give the same plan and
 * the same counts whatever the clock does, on an idle or a loaded machine.
 */
import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it, vi } from "vitest";
import { chainProblem, chainToLanggoap } from "../../bench/problems.js";
import { ActionSpec, GoalSpec, type WorldState } from "../../src/core/index.js";
import { type PlanDetailedResult, planDetailed, planDetailedAsync } from "../../src/planner/index.js";

/** 90 actions: searched with LM-cut by default, about 25 cuts an evaluation. */
const chain = chainToLanggoap(chainProblem({ N: 40, M: 90, D: 20, seed: 1 }));
/** 62 actions, many of them with cuts of their own: hmax escalates to LM-cut late. */
const hard = chainToLanggoap(chainProblem({ N: 28, M: 63, D: 14, seed: 2 }));

/**
 * 300 goal facts, each set by its own action: hmax says 1, LM-cut finds 300 unit landmarks at the root (a few
 * milliseconds of cuts, more on a busy machine); every order of the actions is an optimal plan.
 */
const COUNT = 300;
const independent = {
  actions: Array.from({ length: COUNT }, (_, i) => new ActionSpec({ name: `set_${i}`, effects: { [`g${i}`]: true } })),
  start: Object.fromEntries(Array.from({ length: COUNT }, (_, i) => [`g${i}`, false])) as WorldState,
  goal: new GoalSpec({ conditions: Object.fromEntries(Array.from({ length: COUNT }, (_, i) => [`g${i}`, true])) }),
};

function fingerprint(result: PlanDetailedResult) {
  return {
    status: result.status,
    plan: result.plan?.actionNames,
    cost: result.plan?.totalCost,
    heuristic: result.plan?.metadata.heuristic,
    expanded: result.stats.nodesExpanded,
    generated: result.stats.nodesGenerated,
  };
}

/** A clock that jumps `stepMs` at every reading, as a machine busy elsewhere makes it seem. */
function slowClock(stepMs: number): void {
  let t = performance.now();
  vi.spyOn(performance, "now").mockImplementation(() => {
    t += stepMs;
    return t;
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("deterministic search", () => {
  it("gives the same plan and counts when every clock reading jumps 2 ms (LM-cut, default and explicit)", async () => {
    const cases = [
      { problem: chain, options: { timeBudgetMs: Number.POSITIVE_INFINITY } },
      { problem: chain, options: { heuristic: "lmcut" as const, timeBudgetMs: Number.POSITIVE_INFINITY } },
      { problem: hard, options: { timeBudgetMs: Number.POSITIVE_INFINITY } },
      { problem: independent, options: { heuristic: "lmcut" as const, timeBudgetMs: Number.POSITIVE_INFINITY, maxExpansions: 5000 } },
    ];
    const reference = cases.map(({ problem, options }) => fingerprint(planDetailed(problem.start, problem.goal, problem.actions, options)));
    expect(reference[0]?.status).toBe("found");
    expect(reference[0]?.heuristic).toBe("lmcut");
    expect(reference[2]?.status).toBe("found");
    slowClock(2);
    for (const [i, { problem, options }] of cases.entries()) {
      expect(fingerprint(planDetailed(problem.start, problem.goal, problem.actions, options))).toEqual(reference[i]);
      expect(fingerprint(await planDetailedAsync(problem.start, problem.goal, problem.actions, options))).toEqual(reference[i]);
    }
  });

  it("gives the same plan and counts while two threads spin on the machine's cores", async () => {
    const options = { heuristic: "lmcut" as const, timeBudgetMs: Number.POSITIVE_INFINITY, maxExpansions: 5000 };
    const reference = fingerprint(planDetailed(independent.start, independent.goal, independent.actions, options));
    expect(reference.status).toBe("found");
    expect(reference.expanded).toBe(COUNT);
    const spin = "const end = Date.now() + 60_000; while (Date.now() < end) {}";
    const hogs = [new Worker(spin, { eval: true }), new Worker(spin, { eval: true })];
    try {
      for (let run = 0; run < 3; run++) {
        const loaded = planDetailed(independent.start, independent.goal, independent.actions, options);
        expect(fingerprint(loaded)).toEqual(reference);
      }
    } finally {
      await Promise.all(hogs.map((hog) => hog.terminate()));
    }
  });
});
