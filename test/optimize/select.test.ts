import { describe, expect, it } from "vitest";
import { ActionSpec, BendableScore, compareScores, GoalSpec, HardSoftScore, type ObjectiveSpec } from "../../src/core/index.js";
import {
  type InfeasibilityExplanation,
  type OptimizeMetadata,
  optimizePlans,
  paretoPlans,
  type SolverName,
} from "../../src/optimize/index.js";
import { Plan, replayPlan } from "../../src/planner/index.js";

const SOLVERS: SolverName[] = ["highs", "javascript-lp-solver"];

function deliveryPlan(name: string, usd: number, minutes: number, cost = 1, extra: Record<string, number> = {}): Plan {
  const action = new ActionSpec({ name, effects: { delivered: true }, cost, resources: { usd, minutes, ...extra } });
  const replay = replayPlan({}, [action]);
  return new Plan({ actions: [action], expectedStates: replay.states, startState: {}, totalCost: replay.totalCost });
}

const cheapSlow = deliveryPlan("mail", 1, 10);
const fastExpensive = deliveryPlan("courier", 10, 1);
const balanced = deliveryPlan("train", 3, 3);
const candidates = [cheapSlow, fastExpensive, balanced];

const usd: ObjectiveSpec = { key: "usd", direction: "minimize" };
const minutes: ObjectiveSpec = { key: "minutes", direction: "minimize" };
const goal = (options: ConstructorParameters<typeof GoalSpec>[0]) => new GoalSpec({ conditions: { delivered: true }, ...options });
const csp = (plan: Plan) => plan.metadata.csp as OptimizeMetadata;

describe("optimizePlans", () => {
  it.each(SOLVERS)("%s: two objectives are decided lexicographically in declared order", async (solver) => {
    const costFirst = await optimizePlans(candidates, goal({ objectives: [usd, minutes] }), { solver, method: "milp" });
    expect(costFirst.actionNames).toEqual(["mail"]);
    expect(csp(costFirst).status).toBe("optimal");
    expect(csp(costFirst).solver).toBe(solver);
    expect(csp(costFirst).objectiveValues).toEqual({ usd: 1, minutes: 10 });
    expect(csp(costFirst).plansEvaluated).toBe(3);

    const timeFirst = await optimizePlans(candidates, goal({ objectives: [minutes, usd] }), { solver, method: "milp" });
    expect(timeFirst.actionNames).toEqual(["courier"]);
  });

  it.each(SOLVERS)("%s: weighted mode sums the objectives with their weights (LangGOAP's behaviour)", async (solver) => {
    const weighted = await optimizePlans(candidates, goal({ objectives: [usd, minutes] }), {
      solver,
      method: "milp",
      objectiveMode: "weighted",
    });
    expect(weighted.actionNames).toEqual(["train"]); // 3 + 3 beats 1 + 10 and 10 + 1
    const leaning = await optimizePlans(candidates, goal({ objectives: [{ ...usd, weight: 10 }, minutes] }), {
      solver,
      objectiveMode: "weighted",
    });
    expect(leaning.actionNames).toEqual(["mail"]); // 10·1 + 10 = 20 < 10·3 + 3 = 33
  });

  it.each(SOLVERS)("%s: a hard budget excludes the cheapest plan that breaks it", async (solver) => {
    const deadline = goal({ constraints: [{ key: "minutes", max: 5 }], objectives: [usd] });
    const chosen = await optimizePlans(candidates, deadline, { solver, method: "milp" });
    expect(chosen.actionNames).toEqual(["train"]);
    expect(csp(chosen).status).toBe("optimal");
    expect(chosen.score).toEqual(new HardSoftScore(0, -3));
    const usage = csp(chosen).resourceUsage;
    expect(usage).toContainEqual({ key: "minutes", total: 3, max: 5, satisfied: true, level: "hard" });
    expect(usage).toContainEqual({ key: "usd", total: 3, satisfied: true, level: "info" });
  });

  it.each(SOLVERS)("%s: when nothing is feasible the least-violating plan comes back, explained", async (solver) => {
    const broke = goal({ constraints: [{ key: "usd", max: 0.5, name: "budget" }] });
    const chosen = await optimizePlans(candidates, broke, { solver, method: "milp" });
    expect(chosen.actionNames).toEqual(["mail"]);
    expect(csp(chosen).status).toBe("infeasible");
    expect(chosen.score).toEqual(new HardSoftScore(-0.5, 0));
    const why = csp(chosen).explanation as InfeasibilityExplanation;
    expect(why.conflictingConstraints.map((c) => c.name)).toEqual(["budget"]);
    expect(why.resourceShortfalls).toEqual([{ constraint: "budget", key: "usd", total: 1, bound: "max", limit: 0.5, amount: 0.5 }]);
    expect(why.suggestion).toContain("allows at most 0.5 (over by 0.5)");
  });

  it("soft constraints are preferences that outrank objectives; soft goals reward", async () => {
    const preferQuick = goal({ constraints: [{ key: "minutes", max: 5, level: "soft", weight: 2 }], objectives: [usd] });
    const chosen = await optimizePlans(candidates, preferQuick);
    expect(chosen.actionNames).toEqual(["train"]); // mail would cost 2·5 of preference
    expect(chosen.score).toEqual(new BendableScore([0], [0, -3]));

    const tracked = deliveryPlan("tracked_mail", 1, 10);
    const trackedPlan = tracked.with({ expectedStates: [{ delivered: true, tracked: true }] });
    const rewarded = goal({ softGoals: [{ conditions: { tracked: true }, weight: 1, name: "tracking" }], objectives: [usd] });
    const pick = await optimizePlans([cheapSlow, trackedPlan], rewarded);
    expect(pick.actionNames).toEqual(["tracked_mail"]);
    expect(csp(pick).objectiveValues).toEqual({ usd: 1, "softGoal:tracking": 1 });
  });

  it("quality metrics join the preference level with their weight", async () => {
    const hop = (name: string) => new ActionSpec({ name, effects: { [name]: true }, cost: 1 });
    const direct = new ActionSpec({ name: "direct", effects: { delivered: true }, cost: 5 });
    const relay = new ActionSpec({ name: "relay", preconditions: { hop_a: true }, effects: { delivered: true }, cost: 1 });
    const twoSteps = new Plan({
      actions: [hop("hop_a"), relay],
      expectedStates: [{ hop_a: true }, { hop_a: true, delivered: true }],
      startState: {},
      totalCost: 2,
    });
    const oneStep = new Plan({ actions: [direct], expectedStates: [{ delivered: true }], startState: {}, totalCost: 5 });
    const fewerSteps = goal({ metrics: [{ name: "steps", weight: 2, evaluate: (p) => p.actions.length }] });
    const chosen = await optimizePlans([twoSteps, oneStep], fewerSteps);
    expect(chosen.actionNames).toEqual(["direct"]); // 2·1 beats 2·2, whatever the cost
    expect(chosen.score).toEqual(new HardSoftScore(0, -2));
    expect(csp(chosen).objectiveValues).toEqual({ "metric:steps": 1 });
  });

  it("breaks full ties by total cost, and a zero-weight objective is reported but not optimised", async () => {
    const pricey = deliveryPlan("mail_premium", 1, 10, 5);
    const chosen = await optimizePlans([pricey, cheapSlow], goal({ objectives: [usd] }));
    expect(chosen.actionNames).toEqual(["mail"]);
    const informational = await optimizePlans(candidates, goal({ objectives: [{ ...usd, weight: 0 }, minutes] }));
    expect(informational.actionNames).toEqual(["courier"]);
    expect(csp(informational).objectiveValues).toEqual({ usd: 10, minutes: 1 });
  });

  it("honours where filters on objectives", async () => {
    const a = deliveryPlan("vendor_a", 5, 1);
    const b = deliveryPlan("vendor_b", 2, 1);
    const onlyB = goal({ objectives: [{ key: "usd", direction: "maximize", where: (x) => x.name === "vendor_b", name: "b_spend" }] });
    const chosen = await optimizePlans([a, b], onlyB);
    expect(chosen.actionNames).toEqual(["vendor_b"]);
    expect(csp(chosen).objectiveValues).toEqual({ b_spend: 2 });
  });

  it("scores order plans exactly as the selection does", async () => {
    const spec = goal({ objectives: [usd, minutes] });
    const scored = await Promise.all(candidates.map((c) => optimizePlans([c], spec)));
    const best = await optimizePlans(candidates, spec);
    const sorted = [...scored].sort((x, y) => compareScores(x.score, y.score));
    expect(sorted[0]?.actionNames).toEqual(best.actionNames);
    expect(best.score).toEqual(new BendableScore([0], [-1, -10]));
  });

  it.each(SOLVERS)("%s: selects correctly when totals are huge (a deadline on makespanMs in days)", async (solver) => {
    const DAY = 86_400_000;
    const build = (name: string, days: number, usd: number) => {
      const a = new ActionSpec({ name, effects: { built: true }, durationMs: days * DAY, resources: { usd } });
      return new Plan({ actions: [a], expectedStates: [{ built: true }], startState: {}, totalCost: 1 });
    };
    const spec = new GoalSpec({
      conditions: { built: true },
      constraints: [{ key: "makespanMs", max: 22 * DAY, name: "deadline" }],
      objectives: [usd],
    });
    const chosen = await optimizePlans([build("slow", 23, 100), build("fast", 20, 300), build("faster", 18, 400)], spec, {
      solver,
      method: "milp",
    });
    expect(chosen.actionNames).toEqual(["fast"]);
    expect(csp(chosen).status).toBe("optimal");
  });

  it("rejects empty or non-plan candidates", async () => {
    await expect(optimizePlans([], goal({}))).rejects.toThrow(/at least one candidate/);
    await expect(optimizePlans([{} as Plan], goal({}))).rejects.toThrow(/candidate 0 is not a Plan/);
  });
});

describe("paretoPlans", () => {
  const spec = goal({ objectives: [usd, minutes] });

  it("keeps the non-dominated feasible plans, best first", () => {
    const dominated = deliveryPlan("slow_train", 4, 4);
    const frontier = paretoPlans([...candidates, dominated], spec);
    expect(frontier.map((p) => p.actionNames[0])).toEqual(["mail", "train", "courier"]);
    expect(frontier.every((p) => p.metadata.csp?.status === "feasible")).toBe(true);
  });

  it("drops plans that break a hard constraint", () => {
    const capped = goal({ objectives: [usd, minutes], constraints: [{ key: "usd", max: 5 }] });
    expect(paretoPlans(candidates, capped).map((p) => p.actionNames[0])).toEqual(["mail", "train"]);
  });

  it("caps the frontier by keeping the extremes, then the least crowded", () => {
    const line = [1, 2, 3, 4, 5].map((u) => deliveryPlan(`p${u}`, u, 6 - u));
    const capped = paretoPlans(line, spec, { maxFrontier: 3 });
    expect(capped.map((p) => p.actionNames[0])).toEqual(["p1", "p3", "p5"]);
  });

  it("without objectives returns every feasible plan by cost; a maximised objective counts upwards", () => {
    const byCost = paretoPlans([deliveryPlan("b", 1, 1, 3), deliveryPlan("a", 1, 1, 2)], goal({}));
    expect(byCost.map((p) => p.actionNames[0])).toEqual(["a", "b"]);
    const quality = goal({ objectives: [{ key: "quality", direction: "maximize" }, usd] });
    const plans = [
      deliveryPlan("good", 5, 0, 1, { quality: 9 }),
      deliveryPlan("ok", 2, 0, 1, { quality: 5 }),
      deliveryPlan("bad", 3, 0, 1, { quality: 4 }),
    ];
    expect(paretoPlans(plans, quality).map((p) => p.actionNames[0])).toEqual(["good", "ok"]);
    expect(() => paretoPlans(plans, quality, { maxFrontier: 0 })).toThrow(/maxFrontier must be an integer >= 1/);
  });
});
