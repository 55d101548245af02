/**
 * Choosing one plan is an exact scan: it agrees with the selection MILP on
 * both back-ends wherever the MILP proves optimality, and stays exact where
 * the MILP cannot finish (4,096 candidates on javascript-lp-solver).
 */
import { describe, expect, it } from "vitest";
import { ActionSpec, createRng, GoalSpec, type Rng } from "../../src/core/index.js";
import { type OptimizeMetadata, optimizePlans, type SolverName } from "../../src/optimize/index.js";
import { Plan, replayPlan } from "../../src/planner/index.js";

function candidate(i: number, rng: Rng): Plan {
  const action = new ActionSpec({
    name: `route_${i}`,
    effects: { delivered: true },
    cost: rng.int(1, 20),
    resources: { usd: rng.int(0, 30), minutes: rng.int(1, 60), risk: rng.int(0, 5) },
  });
  const replay = replayPlan({}, [action]);
  return new Plan({ actions: [action], expectedStates: replay.states, startState: {}, totalCost: replay.totalCost });
}

function instance(seed: number, size: number) {
  const rng = createRng(seed);
  const candidates = Array.from({ length: size }, (_, i) => candidate(i, rng));
  const goal = new GoalSpec({
    conditions: { delivered: true },
    constraints: [
      { key: "usd", max: rng.int(5, 25) },
      { key: "risk", max: 2, level: "soft", weight: 3 },
    ],
    softGoals: [],
    objectives: [
      { key: "minutes", direction: "minimize" },
      { key: "usd", direction: "minimize", weight: 1 },
    ],
  });
  return { candidates, goal };
}

const csp = (plan: Plan) => plan.metadata.csp as OptimizeMetadata;

describe("exact plan selection", () => {
  it("agrees with the selection MILP on both back-ends (40 seeded instances, both objective modes)", async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const { candidates, goal } = instance(seed, 12);
      for (const objectiveMode of ["lexicographic", "weighted"] as const) {
        const exact = await optimizePlans(candidates, goal, { objectiveMode });
        expect(csp(exact).solver).toBe("exact-scan");
        for (const solver of ["highs", "javascript-lp-solver"] as SolverName[]) {
          const milp = await optimizePlans(candidates, goal, { objectiveMode, solver, method: "milp" });
          expect(csp(milp).status).toBe(csp(exact).status);
          expect([seed, objectiveMode, solver, milp.actionNames]).toEqual([seed, objectiveMode, solver, exact.actionNames]);
        }
      }
    }
  });

  it("picks the exact optimum among 4,096 candidates on either back-end setting", async () => {
    const { candidates, goal } = instance(99, 4096);
    // Brute force: feasible first, then minutes, then usd, then cost, then position.
    const key = (p: Plan) => {
      const r = p.actions[0]?.resources as Record<string, number>;
      const over = Math.max(0, r.usd - (goal.constraints[0]?.max as number));
      return [over, Math.max(0, r.risk - 2) * 3, r.minutes, r.usd, p.totalCost];
    };
    const expected = [...candidates].sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return (ka[i] as number) - (kb[i] as number);
      return candidates.indexOf(a) - candidates.indexOf(b);
    })[0];
    for (const solver of ["highs", "javascript-lp-solver"] as SolverName[]) {
      const chosen = await optimizePlans(candidates, goal, { solver });
      expect(chosen.actionNames).toEqual(expected?.actionNames);
      expect(csp(chosen)).toMatchObject({ status: "optimal", solver: "exact-scan", plansEvaluated: 4096 });
    }
    await expect(optimizePlans(candidates, goal, { method: "sometimes" as never })).rejects.toThrow(/method must be "exact" or "milp"/);
  });
});
