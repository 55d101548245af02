import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createVillageActions, pickVillageGoal, VILLAGE_GOALS, villageStartState } from "../../examples/lib/village.js";
import { createRng, type GoalSpec, LangGoapError, type WorldState } from "../../src/core/index.js";
import { type Plan, planDetailed } from "../../src/planner/index.js";
import { type AsyncPlanner, GoapAgent, PlanCache } from "../../src/utility/index.js";
import { PlannerPool } from "../../src/workers/index.js";
import { stillClock } from "../support/still-clock.js";

// Agents plan within a frame's time budget (100 ms), here also in-thread when the manual planner is released: time
// stands still on this thread, so a busy machine cannot end a search on it (the pool's workers have their own clocks).
beforeEach(() => {
  stillClock();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const pool = new PlannerPool({ size: 2 });
afterAll(() => pool.destroy());
const actions = Object.freeze(createVillageActions());

function villagers(count: number, extra: { planCache?: PlanCache; planner?: AsyncPlanner } = {}): GoapAgent[] {
  const rng = createRng(52);
  return Array.from({ length: count }, (_, id) => {
    const state: WorldState = {
      id,
      has_axe: rng.next() < 0.9,
      has_wood: rng.next() < 0.3,
      has_food: rng.next() < 0.2,
      near_tree: rng.next() < 0.3,
      near_campfire: rng.next() < 0.3,
      near_shelter: rng.next() < 0.3,
      is_hungry: rng.next() < 0.5,
      is_tired: rng.next() < 0.4,
    };
    // No time budget: a frame's 100 ms can run out on a busy machine, and results must not depend on speed.
    return new GoapAgent({
      actions,
      state,
      goal: pickVillageGoal(state),
      planOptions: { timeBudgetMs: Number.POSITIVE_INFINITY },
      ...extra,
    });
  });
}

/** A planner whose answers the test releases by hand. */
function manualPlanner() {
  const calls: Array<{ goal: GoalSpec; release: (plan: Plan | null) => void; fail: (e: unknown) => void }> = [];
  const planner: AsyncPlanner = {
    planDetailed: (start, goal, list, options) =>
      new Promise((resolve, reject) => {
        calls.push({
          goal,
          release: (plan) => resolve(plan ? { plan, status: "found" } : planDetailed(start, goal, list, options)),
          fail: reject,
        });
      }),
  };
  return { planner, calls };
}

describe("GoapAgent with an off-thread planner", () => {
  it("a crowd planned through the pool ends with the plans in-thread agents get", async () => {
    const local = villagers(200);
    for (const a of local) a.replan();
    const pooled = villagers(200, { planner: pool });
    const plans = await Promise.all(pooled.map((a) => a.replanAsync()));
    expect(plans.map((p) => p?.actionNames ?? null)).toEqual(local.map((a) => a.plan?.actionNames ?? null));
    expect(pooled.map((a) => a.status)).toEqual(local.map((a) => a.status));
    expect(pooled.map((a) => a.plan?.totalCost ?? null)).toEqual(local.map((a) => a.plan?.totalCost ?? null));
  });

  it("with a shared PlanCache, only distinct relevant states reach the pool, once each", async () => {
    const cache = new PlanCache();
    const before = pool.stats.planned;
    const crowd = villagers(200, { planCache: cache, planner: pool });
    await Promise.all(crowd.map((a) => a.replanAsync()));
    const local = villagers(200);
    for (const a of local) a.replan();
    expect(crowd.map((a) => a.plan?.actionNames ?? null)).toEqual(local.map((a) => a.plan?.actionNames ?? null));
    const { hits, misses } = cache.stats;
    expect(hits + misses).toBe(crowd.filter((a) => a.status !== "achieved").length);
    expect(pool.stats.planned - before).toBe(misses);
    expect(misses).toBeLessThan(100);
  });

  it("stays pending until the answer arrives, then runs the plan from the next tick", async () => {
    const { planner, calls } = manualPlanner();
    const agent = new GoapAgent({ actions, state: villageStartState(), goal: VILLAGE_GOALS.notHungry, planner });
    agent.tick(0.1);
    agent.tick(0.1);
    expect(agent.status).toBe("pending");
    expect(calls).toHaveLength(1); // a request in flight is not asked again
    calls[0]?.release(null);
    await Promise.resolve();
    await Promise.resolve();
    expect(agent.plan?.actionNames).toEqual(["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"]);
    agent.tick(0.1);
    expect(agent.currentAction?.name).toBe("chop_wood");
  });

  it("drops an answer for a goal it has left", async () => {
    const { planner, calls } = manualPlanner();
    const agent = new GoapAgent({ actions, state: villageStartState(), goal: VILLAGE_GOALS.notHungry, planner });
    agent.tick(0.1);
    agent.setGoal(VILLAGE_GOALS.gatherWood);
    agent.tick(0.1);
    expect(calls.map((c) => c.goal.conditions)).toEqual([VILLAGE_GOALS.notHungry, VILLAGE_GOALS.gatherWood]);
    calls[0]?.release(null);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(agent.plan).toBeNull();
    calls[1]?.release(null);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(agent.plan?.actionNames).toEqual(["go_to_tree", "chop_wood"]);
  });

  it("reports a failing planner as hookFailed and asks again at the next validation", async () => {
    const { planner, calls } = manualPlanner();
    const agent = new GoapAgent({ actions, state: villageStartState(), goal: VILLAGE_GOALS.notHungry, planner, replanInterval: 1 });
    const failures: unknown[] = [];
    agent.on("hookFailed", (e) => failures.push([e.hook, (e.error as LangGoapError).code]));
    agent.tick(0.1);
    calls[0]?.fail(new LangGoapError("WORKER_CRASHED", "worker died"));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(failures).toEqual([["planner", "WORKER_CRASHED"]]);
    expect(agent.status).toBe("blocked");
    agent.tick(1);
    expect(calls).toHaveLength(2);
  });

  it("refuses a planner without planDetailed", () => {
    expect(() => new GoapAgent({ actions, planner: {} as AsyncPlanner })).toThrow(/planner must have a planDetailed method/);
  });
});
