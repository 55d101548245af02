import { describe, expect, it } from "vitest";
import { ActionSpec, ConstraintSpec, GoalSpec, LangGoapError } from "../../src/core/index.js";
import { ConstraintBuilder, optimizePlans, validatePlan } from "../../src/optimize/index.js";
import { Plan, replayPlan } from "../../src/planner/index.js";

function planOf(actions: ActionSpec[]): Plan {
  const replay = replayPlan({}, actions);
  return new Plan({ actions, expectedStates: replay.states, startState: {}, totalCost: replay.totalCost });
}

const search = new ActionSpec({ name: "search", effects: { found: true }, resources: { usd: 0.02 }, metadata: { vendor: "serp" } });
const summarize = new ActionSpec({
  name: "summarize",
  preconditions: { found: true },
  effects: { summary: true },
  resources: { usd: 0.5 },
  metadata: { vendor: "openai" },
});
const polish = new ActionSpec({
  name: "polish",
  preconditions: { summary: true },
  effects: { polished: true },
  resources: { usd: 0.25 },
  metadata: { vendor: "openai" },
});

describe("ConstraintBuilder", () => {
  it("builds a hard constraint and a weighted objective fluently", () => {
    const budget = ConstraintBuilder.forPlan().sumResource("usd").bounded(undefined, 1).penalize("hard").asConstraint("budget");
    expect(budget).toBeInstanceOf(ConstraintSpec);
    expect(budget).toMatchObject({ key: "usd", max: 1, min: undefined, level: "hard", weight: 1, name: "budget" });
    const cheap = ConstraintBuilder.forPlan().sumResource("usd").minimize().weight(3).asObjective("cheap");
    expect(cheap).toEqual({ key: "usd", direction: "minimize", weight: 3, name: "cheap" });
    const out = ConstraintBuilder.build(budget, cheap);
    const goal = new GoalSpec({ conditions: { polished: true }, ...out });
    expect(goal.constraints).toEqual([budget]);
    expect(goal.objectives[0]).toMatchObject({ key: "usd", weight: 3, name: "cheap" });
  });

  it("where() restricts the sum to the actions it accepts, and several where() calls all apply", () => {
    const openaiSpend = ConstraintBuilder.forPlan()
      .sumResource("usd")
      .where((a) => a.metadata?.vendor === "openai")
      .bounded({ max: 0.6 })
      .asConstraint("openai_budget");
    const plan = planOf([search, summarize, polish]);
    const report = validatePlan(plan, new GoalSpec({ conditions: { polished: true }, constraints: [openaiSpend] }));
    expect(report.status).toBe("infeasible");
    expect(report.resourceUsage[0]).toEqual({ key: "usd", total: 0.75, max: 0.6, satisfied: false, level: "hard" });
    const polishOnly = ConstraintBuilder.forPlan()
      .sumResource("usd")
      .where((a) => a.metadata?.vendor === "openai")
      .where((a) => a.name === "polish")
      .bounded(0, 0.3)
      .asConstraint("polish_budget");
    expect(validatePlan(plan, new GoalSpec({ constraints: [polishOnly] })).resourceUsage[0]?.total).toBe(0.25);
  });

  it("soft penalties honour their weight", () => {
    const soft = (w: number) =>
      ConstraintBuilder.forPlan().sumResource("usd").bounded(undefined, 0.5).penalize("soft", w).asConstraint("thrifty");
    const plan = planOf([search, summarize, polish]);
    const light = validatePlan(plan, new GoalSpec({ constraints: [soft(1)] }));
    const heavy = validatePlan(plan, new GoalSpec({ constraints: [soft(4)] }));
    expect(light.status).toBe("feasible");
    expect(light.violations[0]?.penalty).toBeCloseTo(0.27, 12);
    expect(heavy.violations[0]?.penalty).toBeCloseTo(1.08, 12);
  });

  it("objective weights are honoured in weighted selection", async () => {
    const a = planOf([new ActionSpec({ name: "a", effects: { done: true }, resources: { usd: 1, minutes: 9 } })]);
    const b = planOf([new ActionSpec({ name: "b", effects: { done: true }, resources: { usd: 4, minutes: 2 } })]);
    const goal = (wUsd: number) =>
      new GoalSpec({
        conditions: { done: true },
        ...ConstraintBuilder.build(
          ConstraintBuilder.forPlan().sumResource("usd").minimize().weight(wUsd).asObjective("usd"),
          ConstraintBuilder.forPlan().sumResource("minutes").minimize().asObjective("minutes"),
        ),
      });
    expect((await optimizePlans([a, b], goal(1), { objectiveMode: "weighted" })).actionNames).toEqual(["b"]); // 6 < 10
    expect((await optimizePlans([a, b], goal(5), { objectiveMode: "weighted" })).actionNames).toEqual(["a"]); // 14 < 22
  });

  it("chains are immutable: a shared prefix can be reused", () => {
    const usd = ConstraintBuilder.forPlan().sumResource("usd");
    const capped = usd.bounded(undefined, 5).asConstraint("cap");
    const floor = usd.bounded(1).asConstraint("floor");
    expect([capped.max, capped.min, floor.max, floor.min]).toEqual([5, undefined, undefined, 1]);
    expect(new ConstraintBuilder().forPlan().sumResource("x").maximize().asObjective().direction).toBe("maximize");
  });

  it("reports misuse with clear errors", () => {
    const chain = ConstraintBuilder.forPlan().sumResource("usd");
    expect(() => chain.asConstraint("c")).toThrow('constraint "c" has no bounds; call .bounded(min, max) before .asConstraint()');
    expect(() => chain.asObjective("o")).toThrow('objective "o" has no direction; call .minimize() or .maximize() before .asObjective()');
    expect(() => chain.bounded(3, 1)).toThrow("bounded: min (3) is greater than max (1)");
    expect(() => chain.bounded()).toThrow("bounded: give min, max or both");
    expect(() => chain.penalize("medium" as "hard")).toThrow(/level must be "hard" or "soft"/);
    expect(() => chain.weight(-1)).toThrow(/weight must be >= 0/);
    expect(() => ConstraintBuilder.forPlan().bounded(0, 1).asConstraint()).toThrow(/sumResource/);
    expect(() => chain.where("vendor" as never)).toThrow(LangGoapError);
    const o = chain.minimize().asObjective("o");
    expect(() => ConstraintBuilder.build(o, o)).toThrow('ConstraintBuilder.build: duplicate objective "o"');
  });

  it("a where filter that throws is reported with the constraint and action", () => {
    const broken = ConstraintBuilder.forPlan()
      .sumResource("usd")
      .where(() => {
        throw new Error("boom");
      })
      .bounded(undefined, 1)
      .asConstraint("broken");
    expect(() => validatePlan(planOf([search]), new GoalSpec({ constraints: [broken] }))).toThrow(
      'constraint "broken": its where filter threw on action "search": boom',
    );
  });
});
