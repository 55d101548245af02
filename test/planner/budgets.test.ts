import { afterEach, describe, expect, it, vi } from "vitest";
import { addTwoProblem, countersProblem, togglesProblem } from "../../bench/problems.js";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "../../examples/lib/village.js";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import {
  AnytimePlanningStrategy,
  DEFAULT_MAX_NODES,
  DEFAULT_SEARCH_MEMORY_BYTES,
  explainNoPlan,
  plan,
  planDetailed,
  replayPlan,
} from "../../src/planner/index.js";
import { errorOf } from "../core/support.js";

/**
 * Replaces `performance.now` with a clock that only moves when `advance`
 * is called, so time budgets are tested without reading the wall clock.
 */
function fakeClock(): { advance: (ms: number) => void } {
  let now = 1_000;
  vi.spyOn(performance, "now").mockImplementation(() => now);
  return {
    advance: (ms) => {
      now += ms;
    },
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("default budgets", () => {
  it("stops the unsolvable numeric example on its node budget, saying budget_exhausted with the figures", () => {
    const { actions, start, goal } = addTwoProblem();
    // The default node budget, with the time budget lifted: on a loaded machine the default 10 s could end it first.
    const result = planDetailed(start, goal, actions, { timeBudgetMs: Number.POSITIVE_INFINITY });
    expect(result.status).toBe("budget_exhausted");
    expect(result.plan).toBeNull();
    expect(result.explanation).toBeUndefined();
    expect(result.budget).toMatchObject({
      limit: "nodes",
      maxNodes: DEFAULT_MAX_NODES,
      maxExpansions: Number.POSITIVE_INFINITY,
      timeBudgetMs: Number.POSITIVE_INFINITY,
    });
    expect(result.budget!.nodesStored).toBeGreaterThanOrEqual(DEFAULT_MAX_NODES);
    expect(result.budget!.nodesExpanded).toBe(result.stats.nodesExpanded);
    expect(result.budget!.message).toMatch(
      /^search stopped by its node budget \(maxNodes 1,000,000\) after 1,000,\d{3} states held, [\d,]+ expansions, [\d,]+ ms, without reaching the goal/,
    );
    expect(plan(start, goal, actions, { maxNodes: 1000 })).toBeNull();
  });

  it("holds fewer wide states by default, so the search's arrays stay within the memory allowance", () => {
    const { actions, start, goal } = countersProblem(200);
    const result = planDetailed(start, goal, actions, { maxExpansions: 10 });
    expect(result.budget?.limit).toBe("expansions");
    const rowBytes = 202 * 8;
    expect(result.budget!.maxNodes).toBeLessThan(DEFAULT_MAX_NODES);
    expect(result.budget!.maxNodes * 2 * rowBytes).toBeLessThanOrEqual(DEFAULT_SEARCH_MEMORY_BYTES);
    expect(result.budget!.maxNodes * 2 * rowBytes).toBeGreaterThan(DEFAULT_SEARCH_MEMORY_BYTES / 2);
    // A node budget given explicitly is taken as is.
    expect(planDetailed(start, goal, actions, { maxExpansions: 10, maxNodes: 2_000_000 }).budget!.maxNodes).toBe(2_000_000);
  });
});

describe("explicit budgets", () => {
  const { actions, start, goal } = addTwoProblem();

  it("stops on the budget that runs out first and names it", () => {
    expect(planDetailed(start, goal, actions, { maxNodes: 50 }).budget).toMatchObject({ limit: "nodes", maxNodes: 50, nodesStored: 50 });
    expect(planDetailed(start, goal, actions, { maxNodes: Number.POSITIVE_INFINITY, maxExpansions: 2000 }).budget).toMatchObject({
      limit: "expansions",
      maxNodes: Number.POSITIVE_INFINITY,
      nodesExpanded: 2000,
    });
    expect(planDetailed(start, goal, actions, { timeBudgetMs: 0, maxNodes: Number.POSITIVE_INFINITY }).budget?.limit).toBe("time");
  });

  it("accepts Infinity and refuses negative or non-numeric budgets, naming the field", () => {
    const village = createVillageActions();
    const unlimited = {
      maxNodes: Number.POSITIVE_INFINITY,
      maxExpansions: Number.POSITIVE_INFINITY,
      timeBudgetMs: Number.POSITIVE_INFINITY,
    };
    expect(plan(villageStartState(), VILLAGE_GOALS.notHungry, village, unlimited)?.actionNames).toHaveLength(5);
    for (const [field, value] of [
      ["maxNodes", -1],
      ["maxExpansions", Number.NaN],
      ["timeBudgetMs", "10"],
    ] as const) {
      const error = errorOf(() => planDetailed(start, goal, actions, { [field]: value }));
      expect(error.code).toBe("INVALID_OPTION");
      expect(error.message).toContain(field);
    }
  });

  it("never reports a budget stop as no_plan, and does not retry it without the blacklist", () => {
    const toggles = togglesProblem(6);
    const result = planDetailed(toggles.start, toggles.goal, toggles.actions, { maxNodes: 40, blacklisted: ["on0"] });
    expect(result.status).toBe("budget_exhausted");
    expect(result.stats.nodesGenerated).toBeLessThan(100);
    // A proven "no plan" is still no_plan.
    const unreachable = planDetailed({}, { flying: true }, actions);
    expect(unreachable.status).toBe("no_plan");
  });
});

describe("time budgets hold whatever a node costs", () => {
  it("stops within one node's work of the budget when every node is slow", () => {
    const clock = fakeClock();
    // Each step's cost function takes 3 ms of (fake) time.
    const slow = new ActionSpec({
      name: "add_two",
      effects: { n: { inc: 2 } },
      cost: () => {
        clock.advance(3);
        return 1;
      },
    });
    const finish = new ActionSpec({ name: "finish", preconditions: { n: 3 }, effects: { done: true } });
    const result = planDetailed({ n: 0 }, { done: true }, [slow, finish], { timeBudgetMs: 30, maxNodes: Number.POSITIVE_INFINITY });
    expect(result.budget?.limit).toBe("time");
    expect(result.stats.nodesExpanded).toBeGreaterThanOrEqual(8);
    expect(result.stats.nodesExpanded).toBeLessThanOrEqual(11);
    expect(result.budget!.elapsedMs).toBeLessThanOrEqual(30 + 3 + 3);
  });

  it("AnytimePlanningStrategy ends at its budget and says budget_exhausted when no round found a plan", async () => {
    const clock = fakeClock();
    const slow = new ActionSpec({
      name: "add_two",
      effects: { n: { inc: 2 } },
      cost: () => {
        clock.advance(2);
        return 1;
      },
    });
    const finish = new ActionSpec({ name: "finish", preconditions: { n: 3 }, effects: { done: true } });
    const strategy = new AnytimePlanningStrategy({ timeBudgetMs: 50 });
    const result = await strategy.planDetailed({ n: 0 }, new GoalSpec({ conditions: { done: true } }), [slow, finish]);
    expect(result.status).toBe("budget_exhausted");
    expect(result.plan).toBeNull();
    expect(result.stats!.planningTimeMs).toBeLessThanOrEqual(50 + 2 + 2);
    expect(result.stats!.nodesExpanded).toBeLessThanOrEqual(26);
  });
});

describe("numeric overflow", () => {
  const big = new ActionSpec({ name: "hoard", effects: { gold: { inc: 1e308 } } });
  const spend = new ActionSpec({ name: "spend", preconditions: { gold: 5 }, effects: { done: true } });

  it("is an error naming the action during search, not a plan or a 'no plan'", () => {
    const error = errorOf(() => planDetailed({ gold: 0 }, { done: true }, [big, spend], { heuristic: "zero" }));
    expect(error.code).toBe("INVALID_EFFECT");
    expect(error.message).toBe('action "hoard": "gold" += 1e+308 on 1e+308 gives Infinity; numeric facts must stay finite');
  });

  it("is an error naming the action when effects are applied or replayed", () => {
    expect(errorOf(() => big.apply({ gold: 1e308 })).message).toBe(
      'action "hoard" effect on "gold": 1e+308 + 1e+308 gives Infinity; numeric facts must stay finite',
    );
    expect(errorOf(() => replayPlan({ gold: 0 }, [big, big])).details).toMatchObject({ where: 'action "hoard" effect on "gold"' });
  });
});

describe("no-plan explanations cost nothing until read", () => {
  it("computes the explanation when it is first read, and it is the one explainNoPlan gives", () => {
    const actions = createVillageActions();
    const start = { ...villageStartState(), has_axe: false };
    const result = planDetailed(start, VILLAGE_GOALS.notHungry, actions);
    expect(result.status).toBe("no_plan");
    expect(typeof Object.getOwnPropertyDescriptor(result, "explanation")?.get).toBe("function");
    const expected = explainNoPlan(start, VILLAGE_GOALS.notHungry, actions);
    expect(result.explanation).toEqual(expected);
    expect(Object.getOwnPropertyDescriptor(result, "explanation")?.value).toEqual(expected);
    expect(JSON.parse(JSON.stringify(result)).explanation).toEqual(expected);
  });

  it("explains the state given, even when the caller changes it afterwards", () => {
    const actions = createVillageActions();
    const start: Record<string, boolean> = { ...villageStartState(), has_axe: false };
    const result = planDetailed(start, VILLAGE_GOALS.notHungry, actions);
    start.has_axe = true;
    expect(result.explanation?.unreachableConditions).toEqual(["is_hungry = false"]);
  });
});

describe("search arrays are reused across calls", () => {
  /** Elements of every typed array created with a length while `fn` runs (views of existing buffers are not counted). */
  function allocatedElements(fn: () => void): number {
    let total = 0;
    const originals = { Float64Array: globalThis.Float64Array, Int32Array: globalThis.Int32Array };
    const counting = <T extends object>(ctor: T): T =>
      new Proxy(ctor as unknown as new (...args: unknown[]) => object, {
        construct(target, args, newTarget) {
          if (typeof args[0] === "number") total += args[0];
          return Reflect.construct(target, args, newTarget === (globalThis as Record<string, unknown>)[target.name] ? target : newTarget);
        },
      }) as unknown as T;
    globalThis.Float64Array = counting(originals.Float64Array);
    globalThis.Int32Array = counting(originals.Int32Array);
    try {
      fn();
    } finally {
      globalThis.Float64Array = originals.Float64Array;
      globalThis.Int32Array = originals.Int32Array;
    }
    return total;
  }

  it("allocates no node, hash or open-list arrays when the same domain is planned again", () => {
    const actions = Object.freeze(createVillageActions());
    const numeric = [
      new ActionSpec({ name: "chop", effects: { wood: { inc: 1 } }, cost: 1 }),
      new ActionSpec({ name: "build", preconditions: { wood: { gte: 6 } }, effects: { house: true, wood: { dec: 6 } }, cost: 3 }),
    ];
    const runs = [
      () => planDetailed(villageStartState(), VILLAGE_GOALS.notHungry, actions),
      () => planDetailed({ wood: 0, house: false }, { house: true }, numeric),
    ];
    for (const run of runs) {
      const first = run();
      expect(first.status).toBe("found");
      // The start state is encoded afresh (a row of a few slots); the search's arrays (64+ entries each) are not.
      expect(allocatedElements(() => expect(run().plan?.actionNames).toEqual(first.plan?.actionNames))).toBeLessThan(32);
    }
  });
});
