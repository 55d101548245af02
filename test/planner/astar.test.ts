import { describe, expect, it } from "vitest";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "../../examples/lib/village.js";
import { ActionSpec, type PlanningTracer } from "../../src/core/index.js";
import { explainNoPlan, plan, planDetailed, replayPlan } from "../../src/planner/index.js";

const A = (name: string, options: Partial<ConstructorParameters<typeof ActionSpec>[0]> = {}) => new ActionSpec({ name, ...options });

describe("A* on the Godot guide's village", () => {
  const actions = createVillageActions();

  it("plans exactly the guide's three plans", () => {
    expect(plan(villageStartState(), VILLAGE_GOALS.notHungry, actions)?.actionNames).toEqual([
      "go_to_tree",
      "chop_wood",
      "go_to_campfire",
      "cook_food",
      "eat_food",
    ]);
    expect(plan({ ...villageStartState(), has_wood: true }, VILLAGE_GOALS.notHungry, actions)?.actionNames).toEqual([
      "go_to_campfire",
      "cook_food",
      "eat_food",
    ]);
    expect(plan({ ...villageStartState(), is_tired: true }, VILLAGE_GOALS.rested, actions)?.actionNames).toEqual([
      "go_to_shelter",
      "sleep",
    ]);
  });

  it("reports cost, expected states and counters", () => {
    const result = planDetailed(villageStartState(), VILLAGE_GOALS.notHungry, actions);
    expect(result.status).toBe("found");
    const p = result.plan!;
    expect(p.totalCost).toBe(8);
    expect(p.score.value).toBe(8);
    expect(p.expectedStates).toHaveLength(5);
    expect(p.expectedStates[1]).toMatchObject({ has_wood: true, near_tree: true });
    expect(p.finalState).toMatchObject({ is_hungry: false, has_food: false, has_wood: false });
    expect(p.metadata).toMatchObject({ strategy: "astar", heuristic: "hmax", actionsPruned: 0 });
    expect(result.stats.nodesExpanded).toBeGreaterThan(0);
    expect(result.stats.nodesGenerated).toBeGreaterThanOrEqual(result.stats.nodesExpanded);
  });

  it("returns an empty plan with cost 0 when the goal already holds", () => {
    const result = planDetailed({ is_hungry: false }, VILLAGE_GOALS.notHungry, actions);
    expect(result.plan?.isEmpty).toBe(true);
    expect(result.plan?.totalCost).toBe(0);
    expect(result.stats.nodesExpanded).toBe(0);
  });
});

describe("numeric planning", () => {
  it("plans inc effects towards gte goals without resolver flags", () => {
    const chop = A("chop", { effects: { wood: { inc: 2 } }, cost: 2 });
    expect(plan({ wood: 0 }, { wood: { gte: 3 } }, [chop])?.actionNames).toEqual(["chop", "chop"]);
    expect(plan({}, { wood: { gte: 1 } }, [chop])?.totalCost).toBe(2);
  });

  it("chooses the cheaper mix of increments and spends resources", () => {
    const big = A("big", { effects: { n: { inc: 4 } }, cost: 4 });
    const small = A("small", { effects: { n: { inc: 3 } }, cost: 3 });
    expect(plan({ n: 0 }, { n: { gte: 7 } }, [big, small])?.totalCost).toBe(7);
    const spend = A("spend", { preconditions: { gold: { gte: 3 } }, effects: { gold: { dec: 3 }, house: true }, cost: 1 });
    const mine = A("mine", { effects: { gold: { inc: 1 } }, cost: 1 });
    expect(plan({ gold: 1 }, { house: true }, [spend, mine])?.actionNames).toEqual(["mine", "mine", "spend"]);
  });

  it("handles dynamic effects and dynamic costs", () => {
    const double = A("double", { effects: (s) => ({ n: (s.n as number) * 2 }), effectKeys: ["n"], cost: 1 });
    const add1 = A("add1", { effects: { n: { inc: 1 } }, cost: 1 });
    expect(plan({ n: 1 }, { n: 8 }, [double, add1])?.actionNames).toEqual(["double", "double", "double"]);
    const walk = A("walk", { effects: { at: "b" }, cost: (s) => (s.raining ? 10 : 1) });
    const bus = A("bus", { effects: { at: "b" }, cost: 3 });
    expect(plan({ at: "a", raining: true }, { at: "b" }, [walk, bus])?.actionNames).toEqual(["bus"]);
    expect(plan({ at: "a", raining: false }, { at: "b" }, [walk, bus])?.actionNames).toEqual(["walk"]);
  });
});

describe("action flags and blacklists", () => {
  const decrement = (name: string, cost: number, canRerun = true) =>
    A(name, { effects: (s) => ({ counter: (s.counter as number) - 1 }), effectKeys: ["counter"], cost, canRerun });

  it("honours canRerun: false within one plan path", () => {
    expect(plan({ counter: 2 }, { counter: 0 }, [decrement("decrement", 1)])?.actionNames).toEqual(["decrement", "decrement"]);
    const once = plan({ counter: 2 }, { counter: 0 }, [decrement("cheap_single", 1, false), decrement("reusable_backup", 10)]);
    expect(once?.actionNames.filter((n) => n === "cheap_single")).toHaveLength(1);
    expect(once?.actionNames).toContain("reusable_backup");
    expect(plan({ counter: 2 }, { counter: 0 }, [decrement("only_once", 1, false)])).toBeNull();
  });

  it("avoids blacklisted actions and falls back to them when nothing else works", () => {
    const fast = A("fast_writer", { effects: { written: true }, cost: 1 });
    const premium = A("premium_writer", { effects: { written: true }, cost: 5 });
    expect(planDetailed({}, { written: true }, [fast, premium], { blacklisted: ["fast_writer"] }).plan?.actionNames).toEqual([
      "premium_writer",
    ]);
    const fallback = planDetailed({}, { written: true }, [fast], { blacklisted: ["fast_writer"] });
    expect(fallback.plan?.actionNames).toEqual(["fast_writer"]);
    expect(fallback.usedBlacklistFallback).toBe(true);
    expect(fallback.plan?.metadata.usedBlacklistFallback).toBe(true);
    expect(planDetailed({}, { written: true }, [fast], { blacklisted: ["fast_writer"], blacklistFallback: false }).status).toBe("no_plan");
  });

  it("breaks ties by specificity: more preconditions first, then declaration order", () => {
    const generic = A("generic", { effects: { done: true }, cost: 2 });
    const specific = A("specific", { preconditions: { ready: true }, effects: { done: true }, cost: 2 });
    expect(plan({ ready: true }, { done: true }, [generic, specific])?.actionNames).toEqual(["specific"]);
    const first = A("first", { effects: { done: true } });
    const second = A("second", { effects: { done: true } });
    expect(plan({}, { done: true }, [first, second])?.actionNames).toEqual(["first"]);
    expect(plan({}, { done: true }, [second, first])?.actionNames).toEqual(["second"]);
  });
});

describe("budgets, pruning and explanations", () => {
  const counter = A("inc", { effects: { n: { inc: 1 } }, cost: 1 });

  it("stops on maxExpansions, time budget and abort, saying so", () => {
    expect(planDetailed({ n: 0 }, { n: 500 }, [counter], { heuristic: "zero", maxExpansions: 10 }).status).toBe("budget_exhausted");
    const wide = Array.from({ length: 6 }, (_, i) =>
      A(`a${i}`, { preconditions: { [`k${i}`]: { lte: 30 } }, effects: { [`k${i}`]: { inc: 1 } } }),
    );
    const start = Object.fromEntries(wide.map((_, i) => [`k${i}`, 0]));
    const goal = Object.fromEntries(wide.map((_, i) => [`k${i}`, 25]));
    expect(planDetailed(start, goal, wide, { heuristic: "zero", timeBudgetMs: 0 }).status).toBe("budget_exhausted");
    const controller = new AbortController();
    controller.abort();
    const aborted = planDetailed(start, goal, wide, { heuristic: "zero", signal: controller.signal });
    expect(aborted.status).toBe("aborted");
    expect(aborted.plan).toBeNull();
  });

  it("aborts a running search via its signal", () => {
    const controller = new AbortController();
    const many = Array.from({ length: 8 }, (_, i) =>
      A(`m${i}`, { effects: { [`k${i}`]: { inc: 1 } }, preconditions: { [`k${i}`]: { lte: 50 } } }),
    );
    const goal = Object.fromEntries(many.map((_, i) => [`k${i}`, 40]));
    const tracer: PlanningTracer = {
      onSearchExpand: (e) => {
        if (e.nodeId > 300) controller.abort();
      },
    };
    const start = Object.fromEntries(many.map((_, i) => [`k${i}`, 0]));
    const result = planDetailed(start, goal, many, { heuristic: "zero", signal: controller.signal, tracer, recordExpansions: true });
    expect(result.status).toBe("aborted");
    expect(result.expansions!.length).toBeGreaterThan(300);
  });

  it("prunes useless steps from non-optimal searches and keeps plans valid", () => {
    const detour = A("detour", { effects: { scenic: true }, cost: 0 });
    const go = A("go", { effects: { there: true }, cost: 1 });
    const result = planDetailed({}, { there: true }, [detour, go], { heuristic: "zero" });
    expect(result.plan?.actionNames).toEqual(["go"]);
    expect(replayPlan({}, result.plan!.actions).valid).toBe(true);
  });

  it("explains unreachable goals and missing preconditions", () => {
    const actions = [
      A("cook", { preconditions: { has_wood: true, has_stove: true }, effects: { has_food: true } }),
      A("chop", { effects: { has_wood: true } }),
    ];
    const result = planDetailed({}, { has_food: true, is_rich: true }, actions);
    expect(result.status).toBe("no_plan");
    expect(result.explanation).toEqual({
      unreachableConditions: ["has_food = true", "is_rich = true"],
      missingPreconditions: ["has_stove = true"],
      unusableActions: ["cook"],
      suggestion:
        "Goal condition(s) [is_rich = true] are produced by no action. Add an action whose effects establish them, or check the goal for typos. " +
        "Goal condition(s) [has_food = true] are produced only by actions that can never run here ([cook]), because their own preconditions cannot be established. " +
        "Precondition(s) [has_stove = true] are required by actions but are neither true now nor produced by any action. Set them in the world state or add an action that produces them.",
    });
    expect(explainNoPlan({ wood: 0 }, { wood: { gte: 3 } }, [A("burn", { effects: { wood: { dec: 1 } } })]).unreachableConditions).toEqual([
      "wood >= 3",
    ]);
    const circular = explainNoPlan({ a: true }, { done: true }, [
      A("x", { preconditions: { a: true }, effects: { done: true, a: false }, canRerun: false }),
    ]);
    expect(circular.unreachableConditions).toEqual([]);
  });

  it("fires search hooks when recording, and only then", () => {
    const events: string[] = [];
    const tracer: PlanningTracer = {
      onSearchExpand: (e) => {
        events.push(`expand:${e.actionName ?? "root"}`);
      },
      onSearchComplete: (n, _ms, found) => {
        events.push(`complete:${n}:${found}`);
      },
      onSearchDeadEnd: (reason) => {
        events.push(`dead:${reason}`);
      },
    };
    const result = planDetailed({}, { x: 2 }, [A("one", { effects: { x: 1 } }), A("two", { preconditions: { x: 1 }, effects: { x: 2 } })], {
      tracer,
      recordExpansions: true,
    });
    expect(events).toEqual(["expand:root", "expand:one", "complete:2:true"]);
    expect(result.expansions?.map((e) => e.actionName)).toEqual([null, "one"]);
    events.length = 0;
    planDetailed({}, { y: true }, [A("one", { effects: { x: 1 } })], { tracer, recordExpansions: true });
    expect(events).toEqual(["dead:not_reachable", "complete:0:false"]);
    // Without recording, no search hook fires at all (the tracer documentation's promise).
    events.length = 0;
    planDetailed({}, { y: true }, [A("one", { effects: { x: 1 } })], { tracer });
    planDetailed({}, { x: 2 }, [A("one", { effects: { x: 1 } }), A("two", { preconditions: { x: 1 }, effects: { x: 2 } })], { tracer });
    expect(events).toEqual([]);
  });

  it("survives a throwing tracer", () => {
    const tracer: PlanningTracer = {
      onSearchExpand: () => {
        throw new Error("boom");
      },
      onSearchComplete: async () => {
        throw new Error("async boom");
      },
    };
    expect(plan({}, { x: true }, [A("a", { effects: { x: true } })], { tracer, recordExpansions: true })?.actionNames).toEqual(["a"]);
  });

  it("rejects bad options naming them", () => {
    expect(() => plan({}, { x: true }, [], { heuristic: "landmarks" as never })).toThrow(
      'plan options: heuristic must be one of zero, goal-count, hmax, hadd, hff, lmcut, opcount, got "landmarks"',
    );
    expect(() => plan({}, { x: true }, [], { weight: 0.5 })).toThrow("weight must be a finite number >= 1");
    expect(() => plan(null as never, { x: true }, [])).toThrow("start state must be an object");
  });
});

describe("reusing compiled domains", () => {
  it("replans the same actions from different starts correctly", () => {
    const actions = createVillageActions();
    const goal = VILLAGE_GOALS.notHungry;
    const a = plan(villageStartState(), goal, actions)?.actionNames;
    const b = plan({ ...villageStartState(), has_wood: true }, goal, actions)?.actionNames;
    const c = plan({ ...villageStartState(), has_food: true }, goal, actions)?.actionNames;
    expect([a?.length, b, c]).toEqual([5, ["go_to_campfire", "cook_food", "eat_food"], ["eat_food"]]);
    expect(plan({ ...villageStartState(), has_axe: false }, goal, actions)).toBeNull();
  });

  it("recompiles when a start no longer fits the compiled kinds, and plans from inside a cost function", () => {
    const inc = A("inc", { effects: { n: { inc: 1 } } });
    expect(plan({ n: 0 }, { n: 2 }, [inc])?.totalCost).toBe(2);
    expect(() => plan({ n: "zero" }, { n: 2 }, [inc])).toThrow('action "inc": cannot add to "n" holding "zero"; expected a number');
    expect(plan({ n: 1 }, { n: 2 }, [inc])?.totalCost).toBe(1);
    const nested = A("nested", {
      effects: { done: true },
      cost: (s) => plan({ n: s.n }, { n: 3 }, [inc])?.totalCost ?? 99,
    });
    expect(plan({ n: 1, done: false }, { done: true }, [nested, inc])?.totalCost).toBe(2);
  });
});

describe("goals A* cannot search toward", () => {
  it("explains a NirvanaGoal instead of failing", async () => {
    const { NirvanaGoal } = await import("../../src/planner/index.js");
    const result = planDetailed({}, new NirvanaGoal(), [A("a", { effects: { x: true } })]);
    expect(result.status).toBe("no_plan");
    expect(result.explanation?.suggestion).toContain("UtilityStrategy");
  });
});
