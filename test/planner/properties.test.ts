import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ActionSpec, type Condition, type Effect, GoalSpec, type WorldState } from "../../src/core/index.js";
import { planDetailed, replayPlan } from "../../src/planner/index.js";
import { referenceCost } from "./reference-ucs.js";

const BOOLS = ["b0", "b1", "b2", "b3"] as const;

const conditionArb: fc.Arbitrary<[string, Condition]> = fc.oneof(
  fc.tuple(fc.constantFrom(...BOOLS), fc.boolean()),
  fc.tuple(
    fc.constant("n"),
    fc.oneof(
      fc.record({ gte: fc.integer({ min: 0, max: 4 }) }),
      fc.record({ lte: fc.integer({ min: 0, max: 4 }) }),
      fc.integer({ min: 0, max: 4 }),
    ),
  ),
);
const effectArb: fc.Arbitrary<[string, Effect]> = fc.oneof(
  fc.tuple(fc.constantFrom(...BOOLS), fc.boolean()),
  fc.tuple(
    fc.constant("n"),
    fc.oneof(fc.record({ inc: fc.integer({ min: 1, max: 2 }) }), fc.record({ dec: fc.integer({ min: 1, max: 2 }) })),
  ),
);

const actionArb = fc.record({
  pre: fc.array(conditionArb, { maxLength: 2 }),
  eff: fc.array(effectArb, { minLength: 1, maxLength: 2 }),
  cost: fc.integer({ min: 0, max: 4 }),
  canRerun: fc.boolean(),
  dynamicCost: fc.boolean(),
});

const domainArb = fc.record({
  actions: fc.array(actionArb, { minLength: 1, maxLength: 6 }),
  start: fc.record({ b0: fc.boolean(), b1: fc.boolean(), b2: fc.boolean(), b3: fc.boolean(), n: fc.integer({ min: 0, max: 2 }) }),
  goal: fc.array(conditionArb, { minLength: 1, maxLength: 2 }),
  onceEvery: fc.integer({ min: 2, max: 5 }),
});

type Domain = typeof domainArb extends fc.Arbitrary<infer T> ? T : never;

function build(d: Domain) {
  const actions = d.actions.map((a, i) => {
    const preconditions: Record<string, Condition> = Object.fromEntries(a.pre);
    // Bound the numeric fact so exhaustive search terminates.
    const effects: Record<string, Effect> = Object.fromEntries(a.eff);
    const nEffect = effects.n as { inc?: number; dec?: number } | undefined;
    if (nEffect?.inc !== undefined) preconditions.n = { lte: 4 - nEffect.inc };
    if (nEffect?.dec !== undefined) preconditions.n = { gte: nEffect.dec };
    const base = a.cost;
    return new ActionSpec({
      name: `a${i}`,
      preconditions,
      effects,
      cost: a.dynamicCost ? (s: Readonly<WorldState>) => base + ((s.n as number) % 2) : base,
      canRerun: i % d.onceEvery !== 0 || a.canRerun,
    });
  });
  return { actions, start: d.start as WorldState, goal: new GoalSpec({ conditions: Object.fromEntries(d.goal) }) };
}

describe("planner properties on generated domains", () => {
  it("every plan replays to the goal; admissible search is optimal; no plan only when none exists", () => {
    fc.assert(
      fc.property(domainArb, (d) => {
        const { actions, start, goal } = build(d);
        const truth = referenceCost(start, goal, actions);
        for (const heuristic of ["hmax", "zero"] as const) {
          const result = planDetailed(start, goal, actions, { heuristic });
          if (truth === null) {
            expect(result.status).toBe("no_plan");
            expect(result.plan).toBeNull();
            continue;
          }
          expect(result.status).toBe("found");
          const replay = replayPlan(start, result.plan!.actions, goal);
          expect(replay.valid).toBe(true);
          expect(result.plan!.totalCost).toBeCloseTo(truth, 9);
        }
        for (const heuristic of ["hadd", "hff", "goal-count"] as const) {
          const result = planDetailed(start, goal, actions, { heuristic });
          expect(result.status).toBe(truth === null ? "no_plan" : "found");
          if (result.plan) expect(replayPlan(start, result.plan.actions, goal).valid).toBe(true);
        }
      }),
      { numRuns: 300, seed: 20261202 },
    );
  });

  it("the packed-boolean engine agrees with exhaustive search on boolean domains", () => {
    const boolCondition = fc.tuple(fc.constantFrom(...BOOLS), fc.boolean());
    const boolDomain = fc.record({
      actions: fc.array(
        fc.record({
          pre: fc.array(boolCondition, { maxLength: 3 }),
          eff: fc.array(boolCondition, { minLength: 1, maxLength: 3 }),
          cost: fc.integer({ min: 0, max: 5 }),
          once: fc.boolean(),
          negate: fc.boolean(),
        }),
        { minLength: 1, maxLength: 8 },
      ),
      start: fc.record({ b0: fc.boolean(), b1: fc.boolean(), b2: fc.boolean(), b3: fc.boolean() }),
      goal: fc.array(boolCondition, { minLength: 1, maxLength: 3 }),
    });
    fc.assert(
      fc.property(boolDomain, (d) => {
        const actions = d.actions.map(
          (a, i) =>
            new ActionSpec({
              name: `a${i}`,
              // `ne` on a present boolean exercises the engine's ne-to-eq rewrite.
              preconditions: Object.fromEntries(a.pre.map(([k, v]) => [k, a.negate ? { ne: !v } : v])),
              effects: Object.fromEntries(a.eff),
              cost: a.cost,
              canRerun: !a.once,
            }),
        );
        const goal = new GoalSpec({ conditions: Object.fromEntries(d.goal) });
        const truth = referenceCost(d.start, goal, actions);
        for (const heuristic of ["hmax", "zero", "hff"] as const) {
          const result = planDetailed(d.start, goal, actions, { heuristic });
          expect(result.status).toBe(truth === null ? "no_plan" : "found");
          if (!result.plan) continue;
          expect(replayPlan(d.start, result.plan.actions, goal).valid).toBe(true);
          if (heuristic !== "hff") expect(result.plan.totalCost).toBe(truth);
        }
      }),
      { numRuns: 400, seed: 7 },
    );
  });
});
