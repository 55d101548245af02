import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import {
  finalStateMetric,
  makespanMetric,
  type OptimizeMetadata,
  optimizePlans,
  planLengthMetric,
  resourceTotalMetric,
  riskMetric,
  totalCostMetric,
  trajectoryMaxMetric,
  trajectorySumMetric,
} from "../../src/optimize/index.js";
import {
  extractFeatures,
  Plan,
  replayPlan,
  StochasticTransitionModel,
  slipOutcomes,
  type TransitionModel,
} from "../../src/planner/index.js";
import { countingPlan } from "../support/long-plan.js";

const step = (name: string, pre: Record<string, boolean>, eff: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  new ActionSpec({ name, preconditions: pre, effects: eff as never, ...extra });

function planOf(actions: ActionSpec[], start: Record<string, unknown> = {}): Plan {
  const replay = replayPlan(start, actions);
  return new Plan({ actions, expectedStates: replay.states, startState: start, totalCost: replay.totalCost });
}

// Two routes to the goal: a short risky ridge and a long safe valley.
const ridge = step("ridge", {}, { at_goal: true }, { cost: 2, durationMs: 4000, resources: { usd: 1 } });
const walk1 = step("valley_1", {}, { halfway: true }, { cost: 2, durationMs: 3000, resources: { usd: 2 } });
const walk2 = step("valley_2", { halfway: true }, { at_goal: true }, { cost: 2, durationMs: 3000, resources: { usd: 2 } });
const slip = step("slip", {}, { fell: true });
// The ridge keeps its promise 70% of the time; the valley always.
const model: TransitionModel = new StochasticTransitionModel({ outcomes: { ridge: slipOutcomes(0.3, [slip]) } });

describe("built-in plan quality metrics", () => {
  const short = planOf([ridge]);
  const long = planOf([walk1, walk2]);

  it("measure length, cost, resources and makespan", () => {
    expect([planLengthMetric().evaluate(short), planLengthMetric().evaluate(long)]).toEqual([1, 2]);
    expect([totalCostMetric().evaluate(short), totalCostMetric().evaluate(long)]).toEqual([2, 4]);
    expect(resourceTotalMetric("usd").evaluate(long)).toBe(4);
    expect(resourceTotalMetric("usd", { where: (a) => a.name === "valley_2" }).evaluate(long)).toBe(2);
    expect([makespanMetric().evaluate(short), makespanMetric().evaluate(long)]).toEqual([4000, 6000]);
    expect(planLengthMetric({ weight: 3 })).toMatchObject({ name: "plan_length", weight: 3 });
  });

  it("measure risk from a transition model: exactly from its distribution, or by seeded sampling", () => {
    const exact = riskMetric(model);
    expect(exact.evaluate(short)).toBeCloseTo(0.3, 12);
    expect(exact.evaluate(long)).toBe(0);
    // The same model without a distribution: estimated, deterministic for a seed.
    const sampledOnly: TransitionModel = { expected: (s, a) => model.expected(s, a), sample: (s, a, rng) => model.sample(s, a, rng) };
    const estimate = riskMetric(sampledOnly, { samples: 4000, seed: 5 }).evaluate(short);
    expect(Math.abs(estimate - 0.3)).toBeLessThan(0.03);
    expect(riskMetric(sampledOnly, { samples: 4000, seed: 5 }).evaluate(short)).toBe(estimate);
    expect(() => riskMetric({} as never)).toThrow(/expected a TransitionModel/);
  });

  it("measure expressions over the expected states", () => {
    const danger = (s: Record<string, unknown>) => (s.halfway === true ? 5 : 1);
    expect(trajectorySumMetric("danger", danger).evaluate(long)).toBe(10);
    expect(trajectoryMaxMetric("danger", danger).evaluate(short)).toBe(1);
    expect(finalStateMetric("not_there", (s) => (s.at_goal ? 0 : 1)).evaluate(long)).toBe(0);
    expect(trajectorySumMetric("empty", danger).evaluate(Plan.empty({}))).toBe(0);
    expect(() => trajectorySumMetric("bad", () => Number.NaN).evaluate(long)).toThrow('metric "bad": expression returned NaN');
  });

  it("serve as objectives: minimising risk picks the valley, minimising cost the ridge", async () => {
    const conditions = { at_goal: true };
    const safest = await optimizePlans(
      [short, long],
      new GoalSpec({ conditions, objectives: [{ key: "risk", direction: "minimize", metric: riskMetric(model) }] }),
    );
    expect(safest.actionNames).toEqual(["valley_1", "valley_2"]);
    expect((safest.metadata.csp as OptimizeMetadata).objectiveValues).toEqual({ risk: 0 });
    const quickest = await optimizePlans(
      [long, short],
      new GoalSpec({ conditions, objectives: [{ key: "length", direction: "minimize", metric: planLengthMetric() }] }),
    );
    expect(quickest.actionNames).toEqual(["ridge"]);
    // As a weighted preference in `metrics` too.
    const careful = await optimizePlans([short, long], new GoalSpec({ conditions, metrics: [riskMetric(model, { weight: 10 })] }));
    expect(careful.actionNames).toEqual(["valley_1", "valley_2"]);
    expect(() => new GoalSpec({ conditions, objectives: [{ key: "x", direction: "minimize", metric: {} as never }] })).toThrow(
      /metric needs a name/,
    );
  });

  it("show in the router's features", () => {
    const goal = new GoalSpec({
      conditions: { at_goal: true },
      objectives: [{ key: "risk", direction: "minimize", metric: riskMetric(model) }],
    });
    const features = extractFeatures({}, goal, [ridge, walk1, walk2]);
    expect(features.hasMetrics).toBe(true);
    expect(features.metricNames).toEqual(["risk"]);
  });
});

describe("trajectory metrics on a long plan", () => {
  it("takes the largest of 200,000 expected states' values (no spread of the values as arguments, which overflows the stack)", () => {
    expect(trajectoryMaxMetric("peak", (s) => Number(s.n)).evaluate(countingPlan(200_000))).toBe(200_000);
  });
});
