import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec, MultiGoal } from "../../src/core/index.js";
import { type ExecutionRecord, GoapGraph, successfulActionNames } from "../../src/graph/index.js";
import { quietLogger, tracked, updateTrail } from "./support.js";

const achievers = () => [
  new ActionSpec({ name: "achieve_a", effects: { goal_a: true }, cost: 8 }),
  new ActionSpec({ name: "achieve_b", effects: { goal_b: true }, cost: 2 }),
  new ActionSpec({ name: "achieve_c", effects: { goal_c: true }, cost: 0.5 }),
];
const goalA = (value: GoalSpec["value"] = 1) => new GoalSpec({ conditions: { goal_a: true }, value });
const goalB = (value: GoalSpec["value"] = 1) => new GoalSpec({ conditions: { goal_b: true }, value });
const goalC = (value: GoalSpec["value"] = 1) => new GoalSpec({ conditions: { goal_c: true }, value });

async function chosen(goals: GoalSpec[], mode: MultiGoal["mode"], world = {}) {
  const result = await new GoapGraph(achievers(), { logger: quietLogger() }).invoke(new MultiGoal({ goals, mode }), world);
  expect(result.status).toBe("goal_achieved");
  return successfulActionNames(result);
}

describe("MultiGoal best_value", () => {
  it("picks the largest value minus cost", async () => {
    expect(await chosen([goalA(10), goalB(5), goalC(2)], "best_value")).toEqual(["achieve_b"]);
    expect(await chosen([goalA(100), goalC(1)], "best_value")).toEqual(["achieve_a"]);
  });

  it("breaks ties on net value by the lower cost", async () => {
    expect(await chosen([goalA(10), goalB(4)], "best_value")).toEqual(["achieve_b"]);
  });

  it("evaluates value functions on the plan's final state", async () => {
    const peak = goalA((s) => (s.is_peak_hour ? 50 : 1));
    expect(await chosen([peak, goalC(3)], "best_value", {})).toEqual(["achieve_c"]);
    expect(await chosen([peak, goalC(3)], "best_value", { is_peak_hour: true })).toEqual(["achieve_a"]);
  });
});

describe("MultiGoal any and best_value: feasible plans first", () => {
  // Subgoal "fast" is cheap but overspends its budget (hard score -4); "slow" is dearer and feasible.
  const budgeted = () => [
    new ActionSpec({ name: "fast", effects: { fast_done: true }, cost: 1, resources: { usd: 5 } }),
    new ActionSpec({ name: "slow", effects: { slow_done: true }, cost: 6, resources: { usd: 1 } }),
  ];
  const goals = () => [
    new GoalSpec({ conditions: { fast_done: true }, constraints: [{ key: "usd", max: 1 }], value: 100 }),
    new GoalSpec({ conditions: { slow_done: true }, constraints: [{ key: "usd", max: 1 }], value: 1 }),
  ];
  for (const mode of ["any", "best_value"] as const) {
    it(`${mode}: a feasible plan beats an infeasible one, whatever its cost or value`, async () => {
      const result = await new GoapGraph(budgeted(), { logger: quietLogger() }).invoke(new MultiGoal({ goals: goals(), mode }), {});
      expect(result.status).toBe("goal_achieved");
      expect(successfulActionNames(result)).toEqual(["slow"]);
    });
  }
});

describe("MultiGoal any", () => {
  it("picks the cheapest reachable subgoal, ties in list order", async () => {
    expect(await chosen([goalA(100), goalC(1)], "any")).toEqual(["achieve_c"]);
    const twins = [
      new ActionSpec({ name: "left", effects: { l: true }, cost: 1 }),
      new ActionSpec({ name: "right", effects: { r: true }, cost: 1 }),
    ];
    const result = await new GoapGraph(twins, { logger: quietLogger() }).invoke(
      new MultiGoal({ goals: [{ r: true }, { l: true }], mode: "any" }),
      {},
    );
    expect(successfulActionNames(result)).toEqual(["right"]);
    expect(result.currentSubgoalIndex).toBe(0);
  });

  it("is achieved at once when one subgoal already holds", async () => {
    expect(await chosen([goalA(), goalC()], "any", { goal_a: true })).toEqual([]);
  });
});

describe("MultiGoal sequential", () => {
  it("reaches the subgoals in order, resetting the replan budget between them", async () => {
    const calls: string[] = [];
    const actions = [
      tracked(calls, { name: "draft", effects: { drafted: true } }),
      tracked(calls, { name: "review", preconditions: { drafted: true }, effects: { reviewed: true } }),
      tracked(calls, { name: "launch", preconditions: { reviewed: true }, effects: { launched: true } }),
    ];
    const goal = new MultiGoal({ goals: [{ drafted: true }, { reviewed: true }, { launched: true }], mode: "sequential" });
    const graph = new GoapGraph(actions, { logger: quietLogger() });
    const trail = await updateTrail(await graph.stream(goal, {}, { streamMode: "updates" }));
    expect(trail).toEqual([
      "planner executing plan=draft",
      "executor executing",
      "observer - reason=subgoal_achieved",
      "planner executing plan=review",
      "executor executing",
      "observer - reason=subgoal_achieved",
      "planner executing plan=launch",
      "executor executing",
      "observer goal_achieved reason=null",
    ]);
    expect(calls).toEqual(["draft", "review", "launch"]);
    const result = await graph.invoke(goal, {});
    expect(result.currentSubgoalIndex).toBe(2);
    expect(result.replanCount).toBe(0);
  });

  it("skips subgoals that already hold", async () => {
    const calls: string[] = [];
    const actions = [
      tracked(calls, { name: "draft", effects: { drafted: true } }),
      tracked(calls, { name: "ship", effects: { shipped: true } }),
    ];
    const result = await new GoapGraph(actions, { logger: quietLogger() }).invoke(
      new MultiGoal({ goals: [{ drafted: true }, { shipped: true }] }),
      { drafted: true },
    );
    expect(result.status).toBe("goal_achieved");
    expect(calls).toEqual(["ship"]);
  });

  it("skips a subgoal without a plan (best effort) and ends partially_achieved, saying which and why", async () => {
    const logger = quietLogger();
    const records: ExecutionRecord[] = [];
    const history = {
      record: async (r: ExecutionRecord) => {
        records.push(r);
        return "id";
      },
    };
    const actions = [new ActionSpec({ name: "ship", effects: { shipped: true } })];
    const goal = new MultiGoal({ goals: [{ impossible: true }, { shipped: true }] });
    const result = await new GoapGraph(actions, { logger, history }).invoke(goal, {});
    expect(result.status).toBe("partially_achieved");
    expect(successfulActionNames(result)).toEqual(["ship"]);
    expect(result.skippedSubgoals).toEqual([
      { index: 0, goal: '{"impossible":true}', reason: expect.stringContaining("[impossible = true] are produced by no action") },
    ]);
    expect(result.replanReason).toMatch(/^skipped subgoal 0 \(\{"impossible":true\}\): Goal condition/);
    expect(records.map((r) => [r.status, r.outcome])).toEqual([["partially_achieved", "partial"]]);
    expect(logger.messages.some((m) => m.includes("subgoal 0") && m.includes("skipped"))).toBe(true);
    // goal_achieved stays for "all of them".
    const all = await new GoapGraph(actions, { logger }).invoke(new MultiGoal({ goals: [{ shipped: true }] }), {});
    expect([all.status, all.skippedSubgoals]).toEqual(["goal_achieved", []]);
  });

  it("ends no_plan when no remaining subgoal can be planned", async () => {
    const result = await new GoapGraph([new ActionSpec({ name: "ship", effects: { shipped: true } })], { logger: quietLogger() }).invoke(
      new MultiGoal({ goals: [{ impossible: true }] }),
      {},
    );
    expect(result.status).toBe("no_plan");
    expect(result.noPlanExplanation?.unreachableConditions).toEqual(["impossible = true"]);
  });
});
