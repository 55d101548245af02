import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resourceProblem, resourceToLanggoap } from "../../bench/problems.js";
import { ActionSpec, type Condition, GoalSpec, type WorldState } from "../../src/core/index.js";
import { compileProblem } from "../../src/planner/compile.js";
import { OperatorCounting } from "../../src/planner/heuristics/operator-counting.js";
import { createHeuristic } from "../../src/planner/heuristics/registry.js";
import { RelaxedModel } from "../../src/planner/heuristics/relaxed-model.js";
import { planDetailed, replayPlan } from "../../src/planner/index.js";
import { referenceCost } from "./reference-ucs.js";

function startValue(start: WorldState, goal: GoalSpec, actions: ActionSpec[]): number {
  const p = compileProblem(start, goal, actions);
  return createHeuristic("opcount", p, new RelaxedModel(p, p.start)).evaluate(p.start, 0);
}

const NUMBERS = ["a", "b", "c"] as const;
const bound = fc.integer({ min: 0, max: 5 });
const numericTest: fc.Arbitrary<[string, Condition]> = fc.tuple(
  fc.constantFrom(...NUMBERS),
  fc.oneof(
    fc.record({ gte: bound }),
    fc.record({ lte: bound }),
    fc.record({ gt: bound }),
    fc.record({ lt: bound }),
    bound.map((v) => v as Condition),
  ),
);
const flag = fc.tuple(fc.constantFrom("f0", "f1"), fc.boolean());

/** Random numeric domains whose values stay within 0..6, unless an action that may leave it runs once. */
const domain = fc.record({
  actions: fc.array(
    fc.record({
      pre: fc.array(fc.oneof(numericTest, flag), { maxLength: 2 }),
      changes: fc.array(fc.tuple(fc.constantFrom(...NUMBERS), fc.integer({ min: -3, max: 3 })), { minLength: 1, maxLength: 3 }),
      set: fc.option(fc.tuple(fc.constantFrom(...NUMBERS), bound), { nil: undefined }),
      flag: fc.option(flag, { nil: undefined }),
      cost: fc.integer({ min: 0, max: 5 }),
      guarded: fc.boolean(),
    }),
    { minLength: 1, maxLength: 7 },
  ),
  start: fc.record({ a: bound, b: bound, c: bound, f0: fc.boolean(), f1: fc.boolean() }),
  goal: fc.array(fc.oneof(numericTest, numericTest, flag), { minLength: 1, maxLength: 3 }),
});

type Domain = typeof domain extends fc.Arbitrary<infer T> ? T : never;

function build(d: Domain): { actions: ActionSpec[]; start: WorldState; goal: GoalSpec } {
  const actions = d.actions.map((a, i) => {
    const preconditions: Record<string, Condition> = Object.fromEntries(a.pre);
    const effects: Record<string, unknown> = {};
    for (const [key, delta] of a.changes) {
      if (delta === 0 || key in effects) continue;
      effects[key] = delta > 0 ? { inc: delta } : { dec: -delta };
      // Guarded changes keep the value within 0..6; unguarded ones run once (canRerun: false), so search stays finite.
      if (a.guarded) preconditions[key] = delta > 0 ? { lte: 6 - delta } : { gte: -delta };
    }
    if (a.set && !(a.set[0] in effects)) effects[a.set[0]] = a.set[1];
    if (a.flag) effects[a.flag[0]] = a.flag[1];
    if (Object.keys(effects).length === 0) effects.f0 = true;
    return new ActionSpec({ name: `a${i}`, preconditions, effects: effects as never, cost: a.cost, canRerun: a.guarded });
  });
  return { actions, start: d.start as WorldState, goal: new GoalSpec({ conditions: Object.fromEntries(d.goal) }) };
}

describe("operator counting (opcount)", () => {
  it("is exact on the resource domain where hmax counts the longest chain only", () => {
    const { actions, start, goal } = resourceToLanggoap(resourceProblem({ CAP: 12, W: 6, S: 3, G: 4, H: 2 }));
    expect(startValue(start, goal, actions)).toBe(66);
    const counted = planDetailed(start, goal, actions, { heuristic: "opcount" });
    const hmax = planDetailed(start, goal, actions, { heuristic: "hmax" });
    expect(counted.plan?.totalCost).toBe(66);
    expect(hmax.plan?.totalCost).toBe(66);
    expect(counted.stats.nodesExpanded).toBeLessThan(hmax.stats.nodesExpanded / 50);
  });

  it("never exceeds the optimal cost from any state a search meets, and its plans are optimal (random numeric domains)", () => {
    let bounded = 0;
    fc.assert(
      fc.property(domain, fc.array(fc.nat(), { maxLength: 5 }), (d, walk) => {
        const { actions, start, goal } = build(d);
        const truth = referenceCost(start, goal, actions);
        const result = planDetailed(start, goal, actions, { heuristic: "opcount" });
        expect(result.status).toBe(truth === null ? "no_plan" : "found");
        if (truth !== null) {
          expect(result.plan?.totalCost).toBe(truth);
          expect(replayPlan(start, result.plan!.actions, goal).valid).toBe(true);
        }
        // One instance along a walk from the start: the basis carried between evaluations must not break the bound.
        const p = compileProblem(start, goal, actions);
        const heuristic = createHeuristic("opcount", p, new RelaxedModel(p, p.start));
        let state = start;
        const used = new Set<string>();
        for (const pick of [0, ...walk]) {
          if (!p.rebindStart(state)) break;
          const value = heuristic.evaluate(Float64Array.from(p.start), 0);
          const remaining = actions.filter((a) => a.canRerun || !used.has(a.name));
          const optimal = referenceCost(state, goal, remaining);
          // Without a plan any value is a bound; with one, the value must not pass its cost.
          if (optimal !== null) {
            expect(value).toBeLessThanOrEqual(optimal + 1e-9);
            if (value > 0) bounded++;
          }
          const applicable = remaining.filter((a) => a.isApplicable(state));
          if (applicable.length === 0) break;
          const next = applicable[pick % applicable.length]!;
          if (!next.canRerun) used.add(next.name);
          state = next.apply(state);
        }
      }),
      { numRuns: 300, seed: 2029 },
    );
    expect(bounded).toBeGreaterThan(100);
  });

  it("drops a warm basis that leans on a fact the state lacks: the same value as a fresh program", () => {
    const { actions, start, goal } = resourceToLanggoap(resourceProblem({ CAP: 12, W: 6, S: 3, G: 4, H: 2 }));
    const p = compileProblem(start, goal, actions);
    const model = new RelaxedModel(p, p.start);
    const values: Record<string, [number, number]> = {};
    for (const key of ["wood", "stone", "iron", "gold"]) {
      const row = Float64Array.from(p.start);
      row[p.keyIndex.get(key) as number] = Number.NaN;
      const warm = new OperatorCounting(p, model);
      expect(warm.evaluate(p.start, 0)).toBe(66);
      values[key] = [warm.evaluate(row, 0), new OperatorCounting(p, model).evaluate(row, 0)];
    }
    // Without the fact there is no row for it: the warm basis, which priced it, must not carry over.
    expect(values).toEqual({ wood: [30, 30], stone: [54, 54], iron: [42, 42], gold: [34, 34] });
  });
});
