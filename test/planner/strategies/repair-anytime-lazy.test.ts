import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec, LangGoapError, type WorldState } from "../../../src/core/index.js";
import {
  AnytimePlanningStrategy,
  AStarStrategy,
  LazyDecompositionStrategy,
  Plan,
  plan,
  RepairStrategy,
  repairPlan,
} from "../../../src/planner/index.js";

// A corridor with a door; a bridge gives a shortcut once it exists.
const walk1 = new ActionSpec({ name: "walk1", effects: { p1: true } });
const walk2 = new ActionSpec({ name: "walk2", preconditions: { p1: true }, effects: { p2: true } });
const passDoor = new ActionSpec({ name: "pass_door", preconditions: { p2: true, door: "open" }, effects: { p3: true } });
const finish = new ActionSpec({ name: "finish", preconditions: { p3: true }, effects: { done: true } });
const openDoor = new ActionSpec({ name: "open_door", preconditions: { door: "closed" }, effects: { door: "open" } });
const unlock = new ActionSpec({ name: "unlock", preconditions: { door: "locked" }, effects: { door: "closed" } });
const bridge = new ActionSpec({ name: "cross_bridge", preconditions: { p1: true, bridge: true }, effects: { p3: true } });
const corridor = [walk1, walk2, passDoor, finish, openDoor, unlock, bridge];
const done = new GoalSpec({ conditions: { done: true } });
const fresh: WorldState = { p1: false, p2: false, p3: false, done: false, door: "open", bridge: false };

function mustPlan(start: WorldState): Plan {
  const p = plan(start, done, corridor);
  if (!p) throw new Error("fixture has no plan");
  return p;
}

describe("repairPlan / RepairStrategy", () => {
  const prior = mustPlan(fresh);

  it("fixture: the prior plan walks through the door", () => {
    expect(prior.actionNames).toEqual(["walk1", "walk2", "pass_door", "finish"]);
  });

  it("keeps the still-valid prefix and replans only the suffix", async () => {
    // walk1 ran; then the door got locked and a bridge appeared.
    const world = { ...fresh, p1: true, door: "locked", bridge: true };
    const repaired = await repairPlan(prior, world, done, corridor, { currentStep: 1 });
    expect(repaired.validPrefixLength).toBe(1);
    expect(repaired.suffixReplanned).toBe(true);
    expect(repaired.repairApplied).toBe(true);
    expect(repaired.plan?.actionNames).toEqual(["walk2", "cross_bridge", "finish"]);
    expect(repaired.plan?.totalCost).toBe(3);
    expect(repaired.plan?.expectedStates.at(-1)?.done).toBe(true);
    expect(repaired.plan?.metadata.strategy).toBe("repair");
    // A fresh plan would skip walk2: repair keeps the course instead.
    expect(plan(world, done, corridor)?.actionNames).toEqual(["cross_bridge", "finish"]);
  });

  it("stops the prefix at a blacklisted action and plans the suffix without it", async () => {
    const context = { currentStep: 1, blacklisted: ["pass_door"] };
    const around = await repairPlan(prior, { ...fresh, p1: true, bridge: true }, done, corridor, context);
    expect(around.validPrefixLength).toBe(1);
    expect(around.plan?.actionNames).toEqual(["walk2", "cross_bridge", "finish"]);
    // Without the bridge there is no way to p3 but the door: the suffix search proves it and does not
    // fall back to the blacklisted action (lifting a blacklist is the graph's decision).
    const stuck = await repairPlan(prior, { ...fresh, p1: true }, done, corridor, context);
    expect(stuck.validPrefixLength).toBe(1);
    expect(stuck.plan).toBeNull();
    expect(stuck.suffixStatus).toBe("no_plan");
  });

  it("keeps a prefix that already reaches the goal, and nothing after it", async () => {
    const overlong = new Plan({ actions: [...prior.actions, walk1], expectedStates: [], totalCost: 0 });
    const repaired = await repairPlan(overlong, { ...fresh, p1: true, p2: true }, done, corridor, { currentStep: 1 });
    expect(repaired.plan?.actionNames).toEqual(["walk2", "pass_door", "finish"]);
    expect(repaired.plan?.totalCost).toBe(3);
    expect(repaired.suffixReplanned).toBe(false);
  });

  it("replans from scratch when the kept prefix leads to a dead end", async () => {
    const goLeft = new ActionSpec({ name: "go_left", preconditions: { pos: "mid" }, effects: { pos: "left" } });
    const fromLeft = new ActionSpec({ name: "from_left", preconditions: { pos: "left", bridge: true }, effects: { done: true } });
    const goRight = new ActionSpec({ name: "go_right", preconditions: { pos: "mid" }, effects: { pos: "right" } });
    const fromRight = new ActionSpec({ name: "from_right", preconditions: { pos: "right" }, effects: { done: true }, cost: 5 });
    const actions = [goLeft, fromLeft, goRight, fromRight];
    const oldPlan = plan({ pos: "mid", bridge: true, done: false }, done, actions) as Plan;
    expect(oldPlan.actionNames).toEqual(["go_left", "from_left"]);
    const now = { pos: "mid", bridge: false, done: false };
    const repaired = await repairPlan(oldPlan, now, done, actions);
    expect(repaired.plan).toBeNull();
    expect(repaired.validPrefixLength).toBe(1);
    const strategy = new RepairStrategy();
    expect((await strategy.plan(now, done, actions, { priorPlan: oldPlan, currentStep: 0 }))?.actionNames).toEqual([
      "go_right",
      "from_right",
    ]);
  });

  it("plans from scratch without a prior plan, and returns an empty plan when the goal holds", async () => {
    const strategy = new RepairStrategy({ inner: new AStarStrategy({ heuristic: "hff" }) });
    expect((await strategy.plan(fresh, done, corridor))?.actionNames).toEqual(prior.actionNames);
    const satisfied = await strategy.plan({ ...fresh, done: true }, done, corridor, { priorPlan: prior, currentStep: 2 });
    expect(satisfied?.isEmpty).toBe(true);
  });
});

describe("AnytimePlanningStrategy", () => {
  // Weighted A* at weight 5 grabs the expensive direct route; lower weights find the chain.
  const direct = new ActionSpec({ name: "direct", preconditions: { at: "start" }, effects: { at: "goal" }, cost: 10 });
  const toA = new ActionSpec({ name: "to_a", preconditions: { at: "start" }, effects: { at: "a" } });
  const toB = new ActionSpec({ name: "to_b", preconditions: { at: "a" }, effects: { at: "b" } });
  const toGoal = new ActionSpec({ name: "b_to_goal", preconditions: { at: "b" }, effects: { at: "goal" } });
  const routes = [direct, toA, toB, toGoal];
  const atGoal = new GoalSpec({ conditions: { at: "goal" } });

  it("returns a plan and improves it (or keeps it) round by round, ending optimal", async () => {
    const seen: Array<[number, number]> = [];
    const strategy = new AnytimePlanningStrategy({ timeBudgetMs: 60_000, onImprovement: (p, w) => void seen.push([p.totalCost, w]) });
    const best = await strategy.plan({ at: "start" }, atGoal, routes);
    expect(seen).toEqual([
      [10, 5],
      [3, 3],
    ]);
    expect(best?.actionNames).toEqual(["to_a", "to_b", "b_to_goal"]);
    expect(best?.totalCost).toBe(plan({ at: "start" }, atGoal, routes)?.totalCost);
    expect(best?.metadata).toMatchObject({ strategy: "anytime", weight: 3, rounds: 5, improvements: 2 });
  });

  it("keeps the best plan so far when later rounds run out of budget", async () => {
    const strategy = new AnytimePlanningStrategy({ timeBudgetMs: 60_000, maxExpansionsPerRound: 2 });
    const best = await strategy.plan({ at: "start" }, atGoal, routes);
    expect(best?.actionNames).toEqual(["direct"]);
    expect(best?.metadata.weight).toBe(5);
  });

  it("returns null when a round proves there is no plan", async () => {
    expect(await new AnytimePlanningStrategy().plan({ at: "nowhere" }, atGoal, routes)).toBeNull();
  });

  it("rejects weights that do not decrease or fall below 1", () => {
    expect(() => new AnytimePlanningStrategy({ weights: [2, 3] })).toThrow(LangGoapError);
    expect(() => new AnytimePlanningStrategy({ weights: [2, 0.5] })).toThrow(LangGoapError);
    expect(() => new AnytimePlanningStrategy({ timeBudgetMs: 0 })).toThrow(LangGoapError);
  });
});

describe("LazyDecompositionStrategy", () => {
  const pricey = new ActionSpec({ name: "walk1", effects: { p1: true }, cost: 4 });
  const actions = [pricey, walk2, passDoor, finish];

  it("commits to the first `lookahead` actions with their own cost", async () => {
    const p = await new LazyDecompositionStrategy({ lookahead: 2 }).plan(fresh, done, actions);
    expect(p?.actionNames).toEqual(["walk1", "walk2"]);
    expect(p?.totalCost).toBe(5);
    expect(p?.expectedStates).toHaveLength(2);
    expect(p?.expectedStates[1]).toMatchObject({ p1: true, p2: true, done: false });
    expect(p?.metadata).toMatchObject({ strategy: "lazy", lookahead: 2, fullPlanLength: 4, partial: true, innerStrategy: "astar" });
  });

  it("returns a plan that fits in the lookahead whole, and null when there is none", async () => {
    const whole = await new LazyDecompositionStrategy({ lookahead: 10 }).plan(fresh, done, actions);
    expect(whole?.actionNames).toEqual(["walk1", "walk2", "pass_door", "finish"]);
    expect(whole?.metadata.partial).toBe(false);
    expect(await new LazyDecompositionStrategy().plan({ ...fresh, door: "locked" }, done, actions)).toBeNull();
  });

  it("rejects a lookahead below 1", () => {
    expect(() => new LazyDecompositionStrategy({ lookahead: 0 })).toThrow(LangGoapError);
    expect(() => new LazyDecompositionStrategy({ lookahead: 1.5 })).toThrow(LangGoapError);
  });
});
