import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { ActionSpec, type Condition, GoalSpec, type WorldState } from "../../src/core/index.js";
import { compileProblem } from "../../src/planner/compile.js";
import { EVALUATION_WORK, LmCut } from "../../src/planner/heuristics/landmark-cut.js";
import { createHeuristic } from "../../src/planner/heuristics/registry.js";
import { RelaxedModel } from "../../src/planner/heuristics/relaxed-model.js";
import { planDetailed, replayPlan } from "../../src/planner/index.js";
import { referenceCost } from "./reference-ucs.js";

/** The heuristic's value at the start state, read from the first recorded expansion. */
function startValue(start: WorldState, goal: GoalSpec, actions: ActionSpec[], heuristic: "lmcut" | "hmax"): number {
  const result = planDetailed(start, goal, actions, { heuristic, recordExpansions: true });
  return result.expansions?.[0]?.h ?? Number.NaN;
}

describe("LM-cut", () => {
  it("adds the costs of independent landmarks where hmax counts only the costliest", () => {
    const actions = [
      new ActionSpec({ name: "get_a", effects: { a: true }, cost: 3 }),
      new ActionSpec({ name: "get_b", effects: { b: true }, cost: 4 }),
      new ActionSpec({ name: "get_c", preconditions: { a: true }, effects: { c: true }, cost: 2 }),
    ];
    const start = { a: false, b: false, c: false };
    const goal = new GoalSpec({ conditions: { b: true, c: true } });
    expect(startValue(start, goal, actions, "hmax")).toBe(5);
    // Three landmarks: get_b (4), get_a (3), get_c (2).
    expect(startValue(start, goal, actions, "lmcut")).toBe(9);
    const found = planDetailed(start, goal, actions, { heuristic: "lmcut" });
    expect(found.plan?.totalCost).toBe(9);
  });

  it("takes the cheapest action of a disjunctive landmark once", () => {
    const actions = [
      new ActionSpec({ name: "walk", effects: { there: true }, cost: 5 }),
      new ActionSpec({ name: "drive", preconditions: { car: true }, effects: { there: true }, cost: 2 }),
      new ActionSpec({ name: "rent", effects: { car: true }, cost: 2 }),
      new ActionSpec({ name: "work", preconditions: { there: true }, effects: { done: true }, cost: 1 }),
    ];
    const start = { there: false, car: false, done: false };
    const goal = new GoalSpec({ conditions: { done: true } });
    // Landmarks {work} (1) then {walk, rent} (2), then {walk, drive} (2 left of walk's 3): 5, the optimal cost.
    expect(startValue(start, goal, actions, "lmcut")).toBe(5);
    expect(planDetailed(start, goal, actions, { heuristic: "lmcut" }).plan?.actionNames).toEqual(["rent", "drive", "work"]);
  });

  it("says a dead end is one", () => {
    const actions = [new ActionSpec({ name: "a", preconditions: { key: true }, effects: { open: true } })];
    expect(planDetailed({ key: false, open: false }, { open: true }, actions, { heuristic: "lmcut" }).status).toBe("no_plan");
  });

  const FACTS = ["f0", "f1", "f2", "f3", "f4"] as const;
  const literal = fc.tuple(fc.constantFrom(...FACTS), fc.boolean());
  const numericCondition: fc.Arbitrary<[string, Condition]> = fc.tuple(
    fc.constant("n"),
    fc.oneof(fc.record({ gte: fc.integer({ min: 0, max: 4 }) }), fc.record({ lte: fc.integer({ min: 0, max: 4 }) })),
  );

  /** Random domains over five boolean facts and a number n kept within 0..4 (so exhaustive search ends). */
  const randomDomain = fc.record({
    actions: fc.array(
      fc.record({
        pre: fc.array(fc.oneof(literal, numericCondition), { maxLength: 3 }),
        eff: fc.array(literal, { minLength: 1, maxLength: 2 }),
        inc: fc.integer({ min: -1, max: 2 }),
        cost: fc.integer({ min: 0, max: 5 }),
        once: fc.boolean(),
      }),
      { minLength: 1, maxLength: 9 },
    ),
    start: fc.record({
      f0: fc.boolean(),
      f1: fc.boolean(),
      f2: fc.boolean(),
      f3: fc.boolean(),
      f4: fc.boolean(),
      n: fc.integer({ min: 0, max: 2 }),
    }),
    goal: fc.array(fc.oneof(literal, literal, numericCondition), { minLength: 1, maxLength: 3 }),
  });
  type RandomDomain = typeof randomDomain extends fc.Arbitrary<infer T> ? T : never;

  /** The domain's actions (`canRerun: false` where drawn, unless `rerunnable`), start and goal. */
  function buildDomain(d: RandomDomain, rerunnable = false): { actions: ActionSpec[]; start: WorldState; goal: GoalSpec } {
    const actions = d.actions.map((a, i) => {
      const preconditions: Record<string, Condition> = Object.fromEntries(a.pre);
      const effects: Record<string, unknown> = Object.fromEntries(a.eff);
      if (a.inc > 0) {
        effects.n = { inc: a.inc };
        preconditions.n = { lte: 4 - a.inc };
      } else if (a.inc < 0) {
        effects.n = { dec: 1 };
        preconditions.n = { gte: 1 };
      }
      return new ActionSpec({ name: `a${i}`, preconditions, effects: effects as never, cost: a.cost, canRerun: rerunnable || !a.once });
    });
    return { actions, start: d.start as WorldState, goal: new GoalSpec({ conditions: Object.fromEntries(d.goal) }) };
  }

  it("never exceeds the optimal cost, and its plans are optimal and replay (random boolean and numeric domains)", () => {
    fc.assert(
      fc.property(randomDomain, (d) => {
        const { actions, start, goal } = buildDomain(d);
        const truth = referenceCost(start, goal, actions);
        const result = planDetailed(start, goal, actions, { heuristic: "lmcut" });
        expect(result.status).toBe(truth === null ? "no_plan" : "found");
        if (truth === null) return;
        expect(result.plan?.totalCost).toBe(truth);
        expect(replayPlan(start, result.plan!.actions, goal).valid).toBe(true);
        const h = startValue(start, goal, actions, "lmcut");
        if (Number.isFinite(h)) expect(h).toBeLessThanOrEqual(truth + 1e-9);
      }),
      { numRuns: 400, seed: 2026 },
    );
  });

  it("bounds each child from its parent's landmarks by no more than the child's optimal cost (random domains)", () => {
    let checked = 0;
    let aboveStepBound = 0;
    fc.assert(
      fc.property(randomDomain, (d) => {
        const { actions, start, goal } = buildDomain(d, true);
        const p = compileProblem(start, goal, actions);
        const heuristic = createHeuristic("lmcut", p, new RelaxedModel(p, p.start));
        const parentValue = heuristic.evaluate(p.start, 0);
        if (!Number.isFinite(parentValue)) return;
        actions.forEach((action, i) => {
          if (!action.isApplicable(start)) return;
          const truth = referenceCost(action.apply(start), goal, actions);
          if (truth === null) return;
          const estimate = heuristic.childEstimate?.(i) ?? 0;
          expect(estimate).toBeLessThanOrEqual(truth + 1e-9);
          checked++;
          if (estimate > parentValue - action.getCost(start) + 1e-9) aboveStepBound++;
        });
      }),
      { numRuns: 400, seed: 2027 },
    );
    // The property was exercised, and the landmark bound is often better than the parent's value less the step cost.
    expect(checked).toBeGreaterThan(200);
    expect(aboveStepBound).toBeGreaterThan(20);
  });

  it("starts a child from its parent's landmarks without the action and stays at most the child's optimal cost (random domains)", () => {
    let seeded = 0;
    fc.assert(
      fc.property(randomDomain, (d) => {
        const { actions, start, goal } = buildDomain(d, true);
        const p = compileProblem(start, goal, actions);
        const heuristic = createHeuristic("lmcut", p, new RelaxedModel(p, p.start));
        heuristic.beginSearch?.(Number.POSITIVE_INFINITY);
        const parentRow = Float64Array.from(p.start);
        if (!Number.isFinite(heuristic.evaluateNode?.(parentRow, 0, 0, -1, -1) ?? Number.NaN)) return;
        actions.forEach((action, i) => {
          if (!action.isApplicable(start)) return;
          const child = action.apply(start);
          const truth = referenceCost(child, goal, actions);
          if (truth === null || !p.rebindStart(child)) return;
          // Node 1 reached from node 0 by action i: seeded from node 0's landmarks.
          const value = heuristic.evaluateNode?.(Float64Array.from(p.start), 0, 1 + i, 0, i) ?? Number.NaN;
          expect(value).toBeLessThanOrEqual(truth + 1e-9);
          seeded++;
        });
      }),
      { numRuns: 400, seed: 2028 },
    );
    expect(seeded).toBeGreaterThan(200);
  });

  it("skips a child's first pass when its parent's zero-cost relaxed plan still reaches the goal, with the value the pass gives (random domains)", () => {
    let skipped = 0;
    let evaluated = 0;
    fc.assert(
      fc.property(randomDomain, (d) => {
        const { actions, start, goal } = buildDomain(d, true);
        const p = compileProblem(start, goal, actions);
        const cuts = [true, false].map((reuse) => new LmCut(p, new RelaxedModel(p, p.start), { reuseZeroCostPlans: reuse }));
        for (const c of cuts) c.beginSearch();
        // Breadth first over the first 40 states, each evaluated as its parent's child by both.
        const nodes: { state: WorldState; key: string }[] = [{ state: start, key: JSON.stringify(start) }];
        const seen = new Set([nodes[0]!.key]);
        const rowOf = (state: WorldState) => (p.rebindStart(state) ? Float64Array.from(p.start) : null);
        const rootRow = rowOf(start);
        if (!rootRow) return;
        const rootValues = cuts.map((c) => c.evaluateNode(rootRow, 0, 0, -1, -1));
        expect(rootValues[0]).toBe(rootValues[1]);
        for (let parent = 0; parent < nodes.length && nodes.length < 40; parent++) {
          const state = nodes[parent]!.state;
          actions.forEach((action, i) => {
            if (!action.isApplicable(state) || nodes.length >= 40) return;
            const child = action.apply(state);
            const key = JSON.stringify(child);
            if (seen.has(key)) return;
            const row = rowOf(child);
            if (!row) return;
            seen.add(key);
            nodes.push({ state: child, key });
            const node = nodes.length - 1;
            const values = cuts.map((c) => c.evaluateNode(row, 0, node, parent, i));
            expect(values[0]).toBe(values[1]);
            expect(cuts[0]!.childEstimate(i)).toBe(cuts[1]!.childEstimate(i));
            evaluated++;
          });
        }
        expect(cuts[1]!.passesSkipped).toBe(0);
        skipped += cuts[0]!.passesSkipped;
      }),
      { numRuns: 300, seed: 2029 },
    );
    // The skip was exercised often, and not everywhere (children whose plan no longer holds get their pass).
    expect(skipped).toBeGreaterThan(500);
    expect(skipped).toBeLessThan(evaluated);
  });

  it("keeps a parent's zero-cost plan when the child's action deletes an atom it needs and a free action brings it back", () => {
    // go (cost 1) needs a and reaches the goal; swap (free) trades a for b; back (free) trades b for a.
    const go = new ActionSpec({ name: "go", preconditions: { a: true }, effects: { g: true }, cost: 1 });
    const swap = new ActionSpec({ name: "swap", preconditions: { a: true }, effects: { a: false, b: true }, cost: 0 });
    const back = new ActionSpec({ name: "back", preconditions: { b: true }, effects: { a: true }, cost: 0 });
    const start: WorldState = { a: true, b: false, g: false };
    const goal = new GoalSpec({ conditions: { g: true } });
    for (const withBack of [true, false]) {
      const actions = withBack ? [go, swap, back] : [go, swap];
      const p = compileProblem(start, goal, actions);
      const cuts = new LmCut(p, new RelaxedModel(p, p.start));
      cuts.beginSearch();
      expect(cuts.evaluateNode(Float64Array.from(p.start), 0, 0, -1, -1)).toBe(1);
      // The child after swap: a is gone. With back, a free action from the child reaches a again: no pass, still 1.
      expect(p.rebindStart(swap.apply(start))).toBe(true);
      const value = cuts.evaluateNode(Float64Array.from(p.start), 0, 1, 0, 1);
      expect(value).toBe(withBack ? 1 : Number.POSITIVE_INFINITY);
      expect(cuts.passesSkipped).toBe(withBack ? 1 : 0);
    }
  });

  it("caps an evaluation's cuts by a count of work, never by time, and ends at the deadline without a partial value", () => {
    // 2,000 independent goal facts, each set by its own action: hmax says 1, LM-cut finds one unit landmark a fact.
    const count = 2000;
    const actions = Array.from({ length: count }, (_, i) => new ActionSpec({ name: `set_${i}`, effects: { [`g${i}`]: true } }));
    const start: WorldState = Object.fromEntries(Array.from({ length: count }, (_, i) => [`g${i}`, false]));
    const goal = new GoalSpec({ conditions: Object.fromEntries(Array.from({ length: count }, (_, i) => [`g${i}`, true])) });
    const p = compileProblem(start, goal, actions);
    const heuristic = createHeuristic("lmcut", p, new RelaxedModel(p, p.start));
    heuristic.beginSearch?.(Number.POSITIVE_INFINITY);
    // A round costs the atoms (plus the init and goal atoms) and the actions (plus the goal action).
    const rounds = Math.floor(EVALUATION_WORK / (p.atoms.length + 2 + p.actions.length + 1));
    expect(rounds).toBe(130);
    expect(heuristic.evaluate(p.start, 0)).toBe(rounds);
    // A slow clock changes nothing: the value is a count of cuts.
    const now = vi.spyOn(performance, "now");
    let t = 0;
    now.mockImplementation(() => (t += 1000));
    try {
      heuristic.beginSearch?.(Number.POSITIVE_INFINITY);
      expect(heuristic.evaluate(p.start, 0)).toBe(rounds);
      // A deadline that passes during the evaluation: no value at all, the search must end.
      heuristic.beginSearch?.(t + 2000);
      expect(heuristic.evaluate(p.start, 0)).toBeNaN();
    } finally {
      now.mockRestore();
    }
  });
});
