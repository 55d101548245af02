import { describe, expect, it } from "vitest";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "../../examples/lib/village.js";
import { ActionSpec, type WorldState } from "../../src/core/index.js";
import { PlanCache } from "../../src/utility/index.js";

const HUNGRY_PLAN = ["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"];

describe("PlanCache keys", () => {
  it("shares a plan between states that differ only in keys planning never reads", () => {
    const cache = new PlanCache();
    const actions = Object.freeze(createVillageActions());
    const first = cache.plan({ ...villageStartState(), npc: "anna", x: 3 }, VILLAGE_GOALS.notHungry, actions);
    const second = cache.plan({ ...villageStartState(), npc: "bert", x: 40 }, VILLAGE_GOALS.notHungry, actions);
    expect(first).toMatchObject({ status: "found", fromCache: false });
    expect(second).toMatchObject({ status: "found", fromCache: true });
    expect(second.plan?.actionNames).toEqual(HUNGRY_PLAN);
    expect(second.plan?.totalCost).toBe(8);
    // Replayed from the caller's own state: its expected states carry the caller's facts.
    expect(second.plan?.expectedStates.at(-1)).toMatchObject({ npc: "bert", x: 40, is_hungry: false });
    expect(second.plan?.metadata.cacheHit).toBe(true);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 1, size: 1 });
  });

  it("misses when a relevant fact differs", () => {
    const cache = new PlanCache();
    const actions = Object.freeze(createVillageActions());
    cache.plan(villageStartState(), VILLAGE_GOALS.notHungry, actions);
    const withWood = cache.plan({ ...villageStartState(), has_wood: true }, VILLAGE_GOALS.notHungry, actions);
    expect(withWood.fromCache).toBe(false);
    expect(withWood.plan?.actionNames).toEqual(["go_to_campfire", "cook_food", "eat_food"]);
  });

  it("shares between separately built but identical domains, rebinding to the caller's own specs", () => {
    const cache = new PlanCache();
    const mine = createVillageActions();
    const yours = createVillageActions();
    cache.plan(villageStartState(), VILLAGE_GOALS.notHungry, mine);
    const hit = cache.plan(villageStartState(), VILLAGE_GOALS.notHungry, yours);
    expect(hit.fromCache).toBe(true);
    expect(hit.plan?.actions.every((a) => yours.includes(a))).toBe(true);
  });

  it("keeps goals, heuristics and different domains apart", () => {
    const cache = new PlanCache();
    const actions = createVillageActions();
    const tired = { ...villageStartState(), is_tired: true };
    cache.plan(tired, VILLAGE_GOALS.notHungry, actions);
    expect(cache.plan(tired, VILLAGE_GOALS.rested, actions).fromCache).toBe(false);
    expect(cache.plan(tired, VILLAGE_GOALS.rested, actions, { heuristic: "hff" }).fromCache).toBe(false);
    expect(cache.plan(tired, VILLAGE_GOALS.rested, actions, { prune: false }).fromCache).toBe(false);
    expect(cache.plan(tired, VILLAGE_GOALS.rested, actions, { maxExpansions: 1000 }).fromCache).toBe(true);
    const pricier = actions.map((a) => (a.name === "sleep" ? a.with({ cost: 5 }) : a));
    const other = cache.plan(tired, VILLAGE_GOALS.rested, pricier);
    expect(other).toMatchObject({ fromCache: false });
    expect(other.plan?.totalCost).toBe(6);
  });

  it("re-reads an unfrozen action array that changed between calls", () => {
    const cache = new PlanCache();
    const actions = createVillageActions();
    const tired = { ...villageStartState(), is_tired: true };
    expect(cache.plan(tired, VILLAGE_GOALS.rested, actions).plan?.totalCost).toBe(2);
    actions.splice(
      actions.findIndex((a) => a.name === "sleep"),
      1,
    );
    expect(cache.plan(tired, VILLAGE_GOALS.rested, actions)).toMatchObject({ plan: null, status: "no_plan", fromCache: false });
  });
});

describe("PlanCache with cost functions", () => {
  const build = (cost: (s: Readonly<WorldState>) => number) =>
    Object.freeze([
      new ActionSpec({ name: "walk", cost, effects: { there: true } }),
      new ActionSpec({ name: "ride", cost: 3, effects: { there: true } }),
    ]);

  it("keys on every fact by default, since a cost function may read anything", () => {
    const cache = new PlanCache();
    const actions = build((s) => (s.raining ? 10 : 1));
    expect(cache.plan({ there: false, raining: false }, { there: true }, actions).plan?.actionNames).toEqual(["walk"]);
    const wet = cache.plan({ there: false, raining: true }, { there: true }, actions);
    expect(wet).toMatchObject({ fromCache: false });
    expect(wet.plan?.actionNames).toEqual(["ride"]);
    expect(cache.plan({ there: false, raining: true }, { there: true }, actions).fromCache).toBe(true);
  });

  it("never shares between different functions that print the same", () => {
    const cache = new PlanCache();
    cache.plan(
      { there: false },
      { there: true },
      build(() => 1),
    );
    const other = cache.plan(
      { there: false },
      { there: true },
      build(() => 9),
    );
    expect(other.fromCache).toBe(false);
    expect(other.plan?.actionNames).toEqual(["ride"]);
  });

  it("shares across unread facts when relevantKeys names what the functions read", () => {
    const cache = new PlanCache({ relevantKeys: () => ["there", "raining"] });
    const actions = build((s) => (s.raining ? 10 : 1));
    cache.plan({ there: false, raining: false, tick: 1 }, { there: true }, actions);
    expect(cache.plan({ there: false, raining: false, tick: 2 }, { there: true }, actions).fromCache).toBe(true);
    expect(cache.plan({ there: false, raining: true, tick: 2 }, { there: true }, actions).fromCache).toBe(false);
  });
});

describe("PlanCache bounds and outcomes", () => {
  it("evicts the least recently used entry beyond maxSize", () => {
    const cache = new PlanCache({ maxSize: 2 });
    const actions = Object.freeze(createVillageActions());
    const a = villageStartState();
    const b = { ...a, has_wood: true };
    const c = { ...a, has_food: true };
    cache.plan(a, VILLAGE_GOALS.notHungry, actions);
    cache.plan(b, VILLAGE_GOALS.notHungry, actions);
    cache.plan(a, VILLAGE_GOALS.notHungry, actions); // a is now the most recent
    cache.plan(c, VILLAGE_GOALS.notHungry, actions); // evicts b
    expect(cache.stats).toMatchObject({ size: 2, evictions: 1, hits: 1, misses: 3 });
    expect(cache.plan(a, VILLAGE_GOALS.notHungry, actions).fromCache).toBe(true);
    expect(cache.plan(b, VILLAGE_GOALS.notHungry, actions).fromCache).toBe(false);
  });

  it("caches proven 'no plan' answers but not exhausted budgets", () => {
    const cache = new PlanCache();
    const actions = Object.freeze(createVillageActions());
    const noAxe = { ...villageStartState(), has_axe: false };
    expect(cache.plan(noAxe, VILLAGE_GOALS.notHungry, actions)).toMatchObject({ plan: null, status: "no_plan", fromCache: false });
    expect(cache.plan(noAxe, VILLAGE_GOALS.notHungry, actions)).toMatchObject({ plan: null, status: "no_plan", fromCache: true });
    const start = villageStartState();
    expect(cache.plan(start, VILLAGE_GOALS.notHungry, actions, { maxExpansions: 1 })).toMatchObject({ status: "budget_exhausted" });
    expect(cache.plan(start, VILLAGE_GOALS.notHungry, actions, { maxExpansions: 1 }).fromCache).toBe(false);
  });

  it("answers a goal that already holds with an empty plan, without touching the cache", () => {
    const cache = new PlanCache();
    const result = cache.plan(villageStartState(), VILLAGE_GOALS.rested, createVillageActions());
    expect(result.plan?.isEmpty).toBe(true);
    expect(cache.stats).toMatchObject({ hits: 0, misses: 0, size: 0 });
  });

  it("clears entries and counters", () => {
    const cache = new PlanCache();
    cache.plan(villageStartState(), VILLAGE_GOALS.notHungry, createVillageActions());
    cache.clear();
    expect(cache.stats).toEqual({ hits: 0, misses: 0, evictions: 0, size: 0, maxSize: 1024 });
    expect(() => new PlanCache({ maxSize: 0 })).toThrow(/maxSize must be an integer >= 1, got 0/);
  });
});
