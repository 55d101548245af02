import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import { explainInfeasibility, planTotal, validatePlan } from "../../src/optimize/index.js";
import { Plan, replayPlan } from "../../src/planner/index.js";

function planOf(actions: ActionSpec[]): Plan {
  const replay = replayPlan({}, actions);
  return new Plan({ actions, expectedStates: replay.states, startState: {}, totalCost: replay.totalCost });
}

const step = (name: string, resources: Record<string, number>, cost = 1, durationMs?: number) =>
  new ActionSpec({ name, effects: { [name]: true }, resources, cost, ...(durationMs !== undefined ? { durationMs } : {}) });

describe("validatePlan", () => {
  const plan = planOf([step("fetch", { usd: 2, tokens: 100 }, 2), step("write", { usd: 10, tokens: 900 }, 3)]);

  it("reports a hard budget overrun as infeasible with a shortfall per key", () => {
    const goal = new GoalSpec({
      constraints: [
        { key: "usd", max: 10, name: "budget" },
        { key: "tokens", min: 2000, name: "thorough" },
      ],
    });
    const report = validatePlan(plan, goal);
    expect(report.status).toBe("infeasible");
    expect(report.solver).toBe("none");
    expect(report.explanation?.resourceShortfalls).toEqual([
      { constraint: "budget", key: "usd", total: 12, bound: "max", limit: 10, amount: 2 },
      { constraint: "thorough", key: "tokens", total: 1000, bound: "min", limit: 2000, amount: 1000 },
    ]);
    expect(report.violations.map((v) => [v.constraint, v.amount, v.penalty])).toEqual([
      ["budget", 2, 2],
      ["thorough", 1000, 1000],
    ]);
  });

  it("records soft violations without making the plan infeasible", () => {
    const goal = new GoalSpec({ constraints: [{ key: "usd", max: 8, level: "soft", weight: 0.5 }] });
    const report = validatePlan(plan, goal);
    expect(report.status).toBe("feasible");
    expect(report.violations).toEqual([{ constraint: "usd", key: "usd", level: "soft", total: 12, amount: 4, penalty: 2 }]);
    expect(report.resourceUsage).toEqual([
      { key: "usd", total: 12, max: 8, satisfied: false, level: "soft" },
      { key: "tokens", total: 1000, satisfied: true, level: "info" },
    ]);
    expect(report.explanation).toBeUndefined();
  });

  it("is skipped when the goal has nothing to check", () => {
    expect(validatePlan(plan, { fetch: true }).status).toBe("skipped");
  });

  it("derived keys: cost, durationMs, steps and makespanMs", () => {
    const timed = planOf([step("a", {}, 2, 1000), step("b", {}, 3, 4000)]);
    expect(planTotal(timed, "cost")).toBe(5);
    expect(planTotal(timed, "durationMs")).toBe(5000);
    expect(planTotal(timed, "steps")).toBe(2);
    expect(planTotal(timed, "makespanMs")).toBe(4000); // independent steps run in parallel
    expect(planTotal(planOf([step("c", { cost: 7 }, 1)]), "cost")).toBe(7); // a declared resource wins
    expect(() => planTotal(timed, "makespanMs", { where: () => true })).toThrow(/makespanMs measures the whole plan/);
  });
});

describe("explainInfeasibility", () => {
  const cheapSlow = planOf([step("mail", { usd: 1, minutes: 10 })]);
  const fastExpensive = planOf([step("courier", { usd: 10, minutes: 1 })]);
  const goal = new GoalSpec({
    constraints: [
      { key: "usd", max: 5, name: "budget" },
      { key: "minutes", max: 5, name: "deadline" },
      { key: "minutes", min: 0, name: "sane" },
    ],
  });

  it("finds the minimal conflicting set across candidates: each alone is satisfiable, together not", () => {
    const why = explainInfeasibility([cheapSlow, fastExpensive], goal);
    expect(why?.conflictingConstraints.map((c) => c.name)).toEqual(["budget", "deadline"]);
    expect(why?.plansConsidered).toBe(2);
    expect(why?.suggestion).toMatch(/^No plan considered satisfies constraints "budget", "deadline" together/);
  });

  it("with one plan names a single violated constraint and lists every shortfall", () => {
    const both = planOf([step("both", { usd: 9, minutes: 9 })]);
    const why = explainInfeasibility(both, goal);
    expect(why?.conflictingConstraints.map((c) => c.name)).toEqual(["deadline"]);
    expect(why?.resourceShortfalls.map((s) => s.constraint)).toEqual(["budget", "deadline"]);
  });

  it("returns null when some plan meets every hard constraint", () => {
    const fine = planOf([step("train", { usd: 3, minutes: 3 })]);
    expect(explainInfeasibility([cheapSlow, fine], goal)).toBeNull();
  });
});
