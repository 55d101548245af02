import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec, type WorldState } from "../../src/core/index.js";
import { planDetailed, replayPlan } from "../../src/planner/index.js";
import { referenceCost } from "./reference-ucs.js";

/** Two steps to the goal, and `k` switches nothing reads, each cheaper than a goal step. */
function distractorDomain(k: number) {
  const actions = [
    new ActionSpec({ name: "fetch", effects: { has_key: true }, cost: 2 }),
    new ActionSpec({ name: "open", preconditions: { has_key: true }, effects: { door_open: true }, cost: 2 }),
  ];
  const start: WorldState = { has_key: false, door_open: false };
  for (let i = 0; i < k; i++) {
    start[`lamp${i}`] = false;
    actions.push(new ActionSpec({ name: `toggle${i}`, preconditions: { [`lamp${i}`]: false }, effects: { [`lamp${i}`]: true }, cost: 1 }));
  }
  return { actions, start, goal: new GoalSpec({ conditions: { door_open: true } }) };
}

describe("relevance analysis", () => {
  it("leaves out actions and facts nothing reads: blind search expands the goal chain only", () => {
    const { actions, start, goal } = distractorDomain(8);
    const off = planDetailed(start, goal, actions, { heuristic: "zero", relevance: false });
    const on = planDetailed(start, goal, actions, { heuristic: "zero" });
    expect(on.plan?.actionNames).toEqual(["fetch", "open"]);
    expect(off.plan?.actionNames).toEqual(["fetch", "open"]);
    expect(on.plan?.totalCost).toBe(4);
    // Without the analysis every subset of the 8 lamps costing under 4 is expanded.
    expect(off.stats.nodesExpanded).toBeGreaterThan(100);
    expect(on.stats.nodesExpanded).toBe(2);
    // The plan's states are the whole world: the lamps keep their values.
    expect(on.plan?.finalState).toMatchObject({ door_open: true, lamp0: false, lamp7: false });
  });

  it("is off while expansions are recorded, so records show whole states", () => {
    const { actions, start, goal } = distractorDomain(3);
    const recorded = planDetailed(start, goal, actions, { heuristic: "zero", recordExpansions: true });
    const off = planDetailed(start, goal, actions, { heuristic: "zero", relevance: false });
    expect(recorded.stats.nodesExpanded).toBe(off.stats.nodesExpanded);
    expect(recorded.expansions?.some((e) => e.state.lamp0 === true)).toBe(true);
  });

  it("keeps facts a relevant precondition reads, however far from the goal", () => {
    const actions = [
      new ActionSpec({ name: "a", effects: { x: true }, cost: 1 }),
      new ActionSpec({ name: "b", preconditions: { x: true }, effects: { y: true }, cost: 1 }),
      new ActionSpec({ name: "c", preconditions: { y: true, z: false }, effects: { goal: true }, cost: 1 }),
      new ActionSpec({ name: "spoil", effects: { z: true }, cost: 0 }),
      new ActionSpec({ name: "unspoil", preconditions: { w: true }, effects: { z: false }, cost: 5 }),
    ];
    const start = { x: false, y: false, z: false, w: false, goal: false };
    const found = planDetailed(start, { goal: true }, actions, { heuristic: "zero" });
    expect(found.plan?.actionNames).toEqual(["a", "b", "c"]);
    const spoiled = planDetailed({ ...start, z: true }, { goal: true }, actions, { heuristic: "zero" });
    expect(spoiled.status).toBe("no_plan");
    const rescued = planDetailed({ ...start, z: true, w: true }, { goal: true }, actions, { heuristic: "zero" });
    expect(rescued.plan?.totalCost).toBe(8);
  });

  it("never changes the optimal cost or the status (exhaustive search on random boolean domains)", () => {
    const FACTS = ["f0", "f1", "f2", "f3", "f4", "f5"] as const;
    const literal = fc.tuple(fc.constantFrom(...FACTS), fc.boolean());
    const domain = fc.record({
      actions: fc.array(
        fc.record({
          pre: fc.array(literal, { maxLength: 3 }),
          eff: fc.array(literal, { minLength: 1, maxLength: 2 }),
          cost: fc.integer({ min: 0, max: 4 }),
          once: fc.boolean(),
        }),
        { minLength: 1, maxLength: 10 },
      ),
      start: fc.record(Object.fromEntries(FACTS.map((f) => [f, fc.boolean()])) as Record<(typeof FACTS)[number], fc.Arbitrary<boolean>>),
      goal: fc.array(literal, { minLength: 1, maxLength: 2 }),
    });
    fc.assert(
      fc.property(domain, (d) => {
        const actions = d.actions.map(
          (a, i) =>
            new ActionSpec({
              name: `a${i}`,
              preconditions: Object.fromEntries(a.pre),
              effects: Object.fromEntries(a.eff),
              cost: a.cost,
              canRerun: !a.once,
            }),
        );
        const goal = new GoalSpec({ conditions: Object.fromEntries(d.goal) });
        const truth = referenceCost(d.start, goal, actions);
        for (const heuristic of ["zero", "hmax"] as const) {
          const on = planDetailed(d.start, goal, actions, { heuristic });
          const off = planDetailed(d.start, goal, actions, { heuristic, relevance: false });
          expect(on.status).toBe(off.status);
          expect(on.status).toBe(truth === null ? "no_plan" : "found");
          if (!on.plan) continue;
          expect(on.plan.totalCost).toBe(truth);
          expect(replayPlan(d.start, on.plan.actions, goal).valid).toBe(true);
        }
      }),
      { numRuns: 400, seed: 14 },
    );
  });

  it("leaves out numeric actions nothing reads: a wide numeric world plans within a small node budget", () => {
    // Two increments to the goal beside 40 counters of their own; every counter's action applies at the start.
    const actions = [new ActionSpec({ name: "add_two", effects: { n: { inc: 2 } } })];
    const start: WorldState = { n: 0 };
    for (let i = 0; i < 40; i++) {
      actions.push(new ActionSpec({ name: `tend_${i}`, preconditions: { [`w${i}`]: { lt: 3 } }, effects: { [`w${i}`]: { inc: 1 } } }));
      start[`w${i}`] = i % 3;
    }
    const goal = new GoalSpec({ conditions: { n: { gte: 4 } } });
    // Before, the first expansion made a child per counter and stopped at the node budget without a plan.
    const on = planDetailed(start, goal, actions, { heuristic: "zero", maxNodes: 10 });
    expect(on.status).toBe("found");
    expect(on.plan?.actionNames).toEqual(["add_two", "add_two"]);
    expect(on.stats.nodesExpanded).toBe(2);
    expect(on.plan?.finalState).toMatchObject({ n: 4, w0: 0, w1: 1, w39: 0 });
    const off = planDetailed(start, goal, actions, { heuristic: "zero", maxNodes: 10, relevance: false });
    expect(off.status).toBe("budget_exhausted");
  });

  it("freezes numeric facts nothing reads: states differing only in them are one state", () => {
    // `step` also bumps a counter nothing reads; `warm` only bumps it. Without freezing, each count of `noise` makes
    // another state for blind search to expand.
    const actions = [
      new ActionSpec({ name: "step", effects: { n: { inc: 1 }, noise: { inc: 1 } }, cost: 2 }),
      new ActionSpec({ name: "warm", effects: { noise: { inc: 1 } }, cost: 1 }),
    ];
    const start = { n: 0, noise: 0 };
    const goal = { n: { gte: 2 } };
    const on = planDetailed(start, goal, actions, { heuristic: "zero" });
    const off = planDetailed(start, goal, actions, { heuristic: "zero", relevance: false, maxExpansions: 1000 });
    expect(on.plan?.actionNames).toEqual(["step", "step"]);
    expect(off.plan?.totalCost).toBe(4);
    expect(on.stats.nodesExpanded).toBe(2);
    expect(off.stats.nodesExpanded).toBeGreaterThan(on.stats.nodesExpanded);
    // The plan's states are replayed from the real effects: the frozen counter moves in them.
    expect(on.plan?.finalState).toEqual({ n: 2, noise: 2 });
  });
});
