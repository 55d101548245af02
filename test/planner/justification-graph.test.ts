import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import { searchGoalOf } from "../../src/core/search-goal.js";
import { compileProblem } from "../../src/planner/compile.js";
import { CutFinder } from "../../src/planner/heuristics/justification-cut.js";
import { JustificationGraph } from "../../src/planner/heuristics/justification-graph.js";
import { RelaxedModel } from "../../src/planner/heuristics/relaxed-model.js";

/** Everything a pass leaves for the rounds: the goal's hmax, the precondition choices, the order actions were reached, the choice lists. */
function passResult(graph: JustificationGraph, value: number) {
  graph.prepareRounds();
  const lists: number[][] = [];
  for (let atom = 0; atom < graph.supHead.length; atom++) {
    const list: number[] = [];
    for (let a = graph.supHead[atom] as number; a >= 0; a = graph.supNext[a] as number) list.push(a);
    lists.push(list);
  }
  return {
    value,
    pcf: Array.from(graph.pcf),
    order: Array.from(graph.reachedOrder.subarray(0, graph.reachedCount)),
    lists,
  };
}

const FACTS = 8;
const fact = fc.integer({ min: 0, max: FACTS - 1 }).map((i) => `f${i}`);
/** Random STRIPS domains over eight facts; costs small (dense buckets) or far apart (the pass gives way to the queue). */
const randomDomain = fc.record({
  actions: fc.array(
    fc.record({ pre: fc.uniqueArray(fact, { maxLength: 3 }), add: fc.uniqueArray(fact, { minLength: 1, maxLength: 3 }), cost: fc.nat(3) }),
    { minLength: 1, maxLength: 14 },
  ),
  sparse: fc.boolean(),
  start: fc.uniqueArray(fact, { maxLength: 4 }),
  goal: fc.uniqueArray(fact, { minLength: 1, maxLength: 3 }),
});

/** The random domain compiled, each action's drawn cost mapped by `costOf`, and its relaxed model. */
function compiled(d: typeof randomDomain extends fc.Arbitrary<infer T> ? T : never, costOf: (cost: number) => number) {
  const actions = d.actions.map(
    (a, i) =>
      new ActionSpec({
        name: `a${i}`,
        preconditions: Object.fromEntries(a.pre.map((f) => [f, true])),
        effects: Object.fromEntries(a.add.map((f) => [f, true])),
        cost: costOf(a.cost),
      }),
  );
  const start = Object.fromEntries(Array.from({ length: FACTS }, (_, i) => [`f${i}`, d.start.includes(`f${i}`)]));
  const goal = new GoalSpec({ conditions: Object.fromEntries(d.goal.map((f) => [f, true])) });
  const p = compileProblem(start, searchGoalOf(goal), actions);
  return { p, model: new RelaxedModel(p, p.start) };
}

describe("LM-cut's justification graph", () => {
  it("computes the same first pass on its bucket queue as on CostQueue: values, choices, order and lists (random domains, integer costs)", () => {
    let fellBack = 0;
    let bucketed = 0;
    fc.assert(
      fc.property(randomDomain, (d) => {
        const { p, model } = compiled(d, (cost) => (d.sparse ? cost * 100_000 : cost));
        const results = [true, false].map((buckets) => {
          const graph = new JustificationGraph(p, model);
          graph.integerCosts = true;
          model.fillHolds(p.start, 0, graph.holds);
          graph.cost.set(model.costLow);
          return passResult(graph, buckets ? graph.computeHmax() : graph.computeHmaxOnQueue());
        });
        expect(results[0]).toEqual(results[1]);
        // Past eight bucket passes that gave way, the graph runs the queue pass directly: the same result.
        const again = new JustificationGraph(p, model);
        again.integerCosts = true;
        model.fillHolds(p.start, 0, again.holds);
        for (let i = 0; i < 10; i++) {
          again.cost.set(model.costLow);
          expect(passResult(again, again.computeHmax())).toEqual(results[0]);
        }
        if (d.sparse && d.actions.some((a) => a.cost > 0)) fellBack++;
        else bucketed++;
      }),
      { numRuns: 500, seed: 2027 },
    );
    expect(fellBack).toBeGreaterThan(50);
    expect(bucketed).toBeGreaterThan(50);
  });

  it("keeps hmax exact round after round: each update equals a fresh pass under the reduced costs (random domains)", () => {
    let rounds = 0;
    fc.assert(
      fc.property(randomDomain, (d) => {
        const { p, model } = compiled(d, (cost) => cost + 1);
        const graph = new JustificationGraph(p, model);
        graph.integerCosts = true;
        const cuts = new CutFinder(graph.lists, graph);
        model.fillHolds(p.start, 0, graph.holds);
        graph.cost.set(model.costLow);
        let value = graph.computeHmax();
        if (!Number.isFinite(value) || value === 0) return;
        graph.prepareRounds();
        while (value > 0) {
          const size = cuts.find();
          if (size === 0) break;
          let m = Number.POSITIVE_INFINITY;
          for (let i = 0; i < size; i++) m = Math.min(m, graph.cost[graph.cut[i] as number] as number);
          for (let i = 0; i < size; i++) graph.cost[graph.cut[i] as number] -= m;
          value = graph.updateHmax(size);
          // A fresh pass over the same state and the same reduced costs.
          const fresh = new JustificationGraph(p, model);
          fresh.integerCosts = true;
          fresh.holds.set(graph.holds);
          fresh.cost.set(graph.cost);
          expect(value).toBe(fresh.computeHmax());
          rounds++;
        }
      }),
      { numRuns: 1000, seed: 2030 },
    );
    expect(rounds).toBeGreaterThan(500);
  });
});
