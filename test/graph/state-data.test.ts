import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec, HardSoftScore, LangGoapError, MultiGoal } from "../../src/core/index.js";
import {
  bindAction,
  expectedStatesOf,
  GoalRegistry,
  GoapGraph,
  isGoalData,
  type PlanData,
  planFromData,
  planToData,
} from "../../src/graph/index.js";
import { Plan, plan } from "../../src/planner/index.js";
import { quietLogger, tracked } from "./support.js";

const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 2 } }, cost: 2 });
const build = new ActionSpec({ name: "build", preconditions: { wood: { gte: 4 } }, effects: { house: true }, cost: 5 });

describe("goal data", () => {
  it("round-trips goals through JSON, returning remembered objects as they were given", () => {
    const registry = new GoalRegistry();
    const goal = new GoalSpec({
      conditions: { house: true },
      constraints: [{ key: "usd", max: 5 }],
      policy: { maxReplans: 3 },
      name: "home",
    });
    const data = registry.toData(goal);
    expect(data).toEqual({
      kind: "GoalSpec",
      spec: {
        name: "home",
        conditions: { house: true },
        policy: { replanStrategy: "on_deviation", priority: 0, maxReplans: 3 },
        constraints: [{ key: "usd", max: 5, weight: 1, level: "hard", name: "usd" }],
      },
      dynamic: [],
    });
    expect(registry.restore(data)).toBe(goal);
    const rebuilt = new GoalRegistry().restore(JSON.parse(JSON.stringify(data)));
    expect(rebuilt).toBeInstanceOf(GoalSpec);
    expect((rebuilt as GoalSpec).policy.maxReplans).toBe(3);
    expect((rebuilt as GoalSpec).constraints[0]?.max).toBe(5);
    expect(isGoalData(data)).toBe(true);
    expect(isGoalData({ house: true })).toBe(false);
  });

  it("accepts bare conditions and MultiGoals", () => {
    const registry = new GoalRegistry();
    const multi = new MultiGoal({ goals: [{ a: true }, { b: { gte: 2 } }], mode: "any" });
    const data = registry.toData(multi);
    expect(data.kind).toBe("MultiGoal");
    const rebuilt = new GoalRegistry().restore(JSON.parse(JSON.stringify(data))) as MultiGoal;
    expect(rebuilt.mode).toBe("any");
    expect(rebuilt.goals[1]?.conditions).toEqual({ b: { gte: 2 } });
    expect(registry.toData({ done: true })).toMatchObject({ kind: "GoalSpec", spec: { conditions: { done: true } } });
  });

  it("names lost function parts and how to re-bind them", () => {
    const valued = new GoalSpec({ conditions: { house: true }, value: () => 3 });
    const data = new GoalRegistry().toData(valued);
    expect(data).toMatchObject({ dynamic: ["value"] });
    expect(() => new GoalRegistry().restore(data)).toThrow(LangGoapError);
    expect(new GoalRegistry([valued]).restore(data)).toBe(valued);
  });
});

describe("plan data", () => {
  it("keeps names, planning-key states, costs, score and metadata, and re-binds by name", () => {
    const found = plan({ wood: 0, weather: "rain" }, { house: true }, [chop, build])!;
    const data = planToData(found, ["wood", "house"]);
    expect(data.actions).toEqual(["chop", "chop", "build"]);
    // Each step keeps only what it changes; the whole states are rebuilt on read.
    expect(data.expectedChanges).toEqual([{ set: { wood: 2 } }, { set: { wood: 4 } }, { set: { house: true } }]);
    expect(expectedStatesOf(data)).toEqual([{ wood: 2 }, { wood: 4 }, { wood: 4, house: true }]);
    expect(data.totalCost).toBe(9);
    expect(data.score).toEqual({ kind: "simple", value: 9 });
    expect(JSON.parse(JSON.stringify(data))).toEqual(data);
    const restored = planFromData(data, new Map([chop, build].map((a) => [a.name, a])));
    expect(restored.actions[0]).toBe(chop);
    expect(restored.totalCost).toBe(9);
    const scored = planFromData(
      planToData(new Plan({ actions: [build], expectedStates: [{}], totalCost: 5, score: new HardSoftScore(0, -3) }), []),
      new Map([["build", build]]),
    );
    expect(scored.score).toEqual(new HardSoftScore(0, -3));
  });

  it("keeps a step's change, not a whole state, and reads plans saved whole by earlier versions", () => {
    const keys = Array.from({ length: 50 }, (_, i) => `k${i}`);
    const start = Object.fromEntries(keys.map((k) => [k, 0]));
    const long = new Plan({
      actions: [chop, build],
      expectedStates: [
        { ...start, k3: 1 },
        { ...start, k3: 1, k4: 2 },
      ],
      totalCost: 2,
    });
    const data = planToData(long, keys, start);
    expect(data.expectedChanges).toEqual([{ set: { k3: 1 } }, { set: { k4: 2 } }]);
    expect(expectedStatesOf(data)[1]).toEqual({ ...start, k3: 1, k4: 2 });
    // A key a step leaves without a value is listed, and gone from the rebuilt state.
    const dropped = planToData(new Plan({ actions: [chop], expectedStates: [{ k1: 0 }], totalCost: 1 }), ["k0", "k1"], { k0: 0, k1: 0 });
    expect(dropped.expectedChanges).toEqual([{ set: {}, unset: ["k0"] }]);
    expect(expectedStatesOf(dropped)).toEqual([{ k1: 0 }]);
    const saved: PlanData = {
      actions: ["chop"],
      expectedStates: [{ wood: 2 }],
      totalCost: 4,
      score: { kind: "simple", value: 4 },
      metadata: {},
    };
    expect(expectedStatesOf(saved)).toEqual([{ wood: 2 }]);
    expect(planFromData(saved, new Map([["chop", chop]])).expectedStates).toEqual([{ wood: 2 }]);
  });

  it("an unknown action name is an error naming it and the known ones", () => {
    expect(() => bindAction("smelt", new Map([["chop", chop]]))).toThrow(
      'the plan in graph state names action "smelt", which this graph does not have; known actions: [chop]',
    );
  });
});

describe("cross-replan rules", () => {
  it("canRerun: false actions that succeeded are not planned again after a replan", async () => {
    const calls: string[] = [];
    const actions = [
      tracked(calls, { name: "apply_coupon", effects: { discount: true }, canRerun: false }),
      tracked(calls, {
        name: "pay_discounted",
        preconditions: { discount: true },
        effects: { paid: true },
        run: () => ({ discount: false }),
      }),
      tracked(calls, { name: "pay_full", effects: { paid: true }, cost: 10 }),
    ];
    const result = await new GoapGraph(actions, { logger: quietLogger() }).invoke({ paid: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(calls).toEqual(["apply_coupon", "pay_discounted", "pay_full"]);
  });

  it("a plan that needs a blacklisted action clears the blacklist and the failure counts", async () => {
    const calls: string[] = [];
    const only = tracked(calls, {
      name: "only_way",
      effects: { done: true },
      run: (_a, call) => {
        if (call === 1) throw new Error("first try fails");
      },
    });
    const graph = new GoapGraph([only], { logger: quietLogger() });
    const lists: string[] = [];
    for await (const chunk of await graph.stream({ done: true }, {}, { streamMode: "updates" })) {
      for (const [node, update] of Object.entries(chunk)) {
        const u = update as { blacklistedActions?: string[]; actionFailureCounts?: Record<string, number> };
        if (u?.blacklistedActions) lists.push(`${node}: ${JSON.stringify(u.blacklistedActions)} ${JSON.stringify(u.actionFailureCounts)}`);
      }
    }
    expect(lists).toEqual(['observer: ["only_way"] {"only_way":1}', "planner: [] {}"]);
    expect(calls).toEqual(["only_way", "only_way"]);
  });
});

describe("bad input", () => {
  it("names what is wrong", async () => {
    expect(() => new GoapGraph([chop, chop])).toThrow('duplicate action name "chop"');
    expect(() => new GoapGraph([{ name: "x" } as never])).toThrow("actions[0] is not an ActionSpec");
    expect(() => new GoapGraph([chop], { seed: Number.NaN })).toThrow("GoapGraph option seed must be a finite number, got NaN");
    expect(() => new GoapGraph([chop], { recursionLimit: 0 })).toThrow("GoapGraph option recursionLimit must be an integer >= 1, got 0");
    expect(() => new GoapGraph([chop], { strategy: {} as never })).toThrow("strategy must implement PlanningStrategy");
    const graph = new GoapGraph([chop, build], { logger: quietLogger() });
    expect(() => graph.createInput({ house: true }, [] as never)).toThrow("worldState must be an object of facts, got []");
    await expect(graph.invoke({ house: { around: 1 } } as never, {})).rejects.toThrow('unknown operator "around"');
  });

  it("a strategy that plans an action the graph does not have is an error naming both", async () => {
    const stranger = new ActionSpec({ name: "teleport", effects: { house: true } });
    const strategy = {
      name: "rogue",
      plan: async () => new Plan({ actions: [stranger], expectedStates: [{ house: true }], totalCost: 1 }),
    };
    const graph = new GoapGraph([chop, build], { strategy, logger: quietLogger() });
    await expect(graph.invoke({ house: true }, {})).rejects.toThrow(
      'strategy "rogue" planned action "teleport", which is not one of the graph\'s actions',
    );
  });

  it("a plan restored with an unknown action fails loudly when executed", async () => {
    const graph = new GoapGraph([chop, build], { logger: quietLogger() });
    const app = graph.compile({ checkpointer: new MemorySaver(), interruptBefore: ["executor"] });
    const config = { configurable: { thread_id: "bogus" } };
    await app.invoke(graph.createInput({ house: true }, { wood: 0 }), config);
    const data = (await app.getState(config)).values.plan;
    await app.updateState(config, { plan: { ...data, actions: ["smelt", ...data.actions.slice(1)] } });
    await expect(app.invoke(null, config)).rejects.toThrow('names action "smelt"');
  });
});

describe("state inspection", () => {
  it("restorePlan and restoreGoal turn checkpointed data back into live objects", async () => {
    const goal = new GoalSpec({ conditions: { house: true }, value: () => 7 });
    const graph = new GoapGraph([chop, build], { logger: quietLogger() });
    const result = await graph.invoke(goal, { wood: 0 });
    expect(graph.restorePlan(result.plan)?.actions).toEqual([chop, chop, build]);
    expect(graph.restoreGoal(result.goal)).toBe(goal);
    expect(graph.restorePlan(null)).toBeNull();
  });

  it("a run without a goal ends in error without executing anything", async () => {
    const graph = new GoapGraph([chop, build], { logger: quietLogger() });
    const result = (await graph.compile().invoke({ worldState: { wood: 0 } })) as {
      status: string;
      replanReason: string;
      executionHistory: unknown[];
    };
    expect(result.status).toBe("error");
    expect(result.replanReason).toBe("no goal specified");
    expect(result.executionHistory).toEqual([]);
  });
});
