import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec, type WorldState } from "../../src/core/index.js";
import { searchGoalOf } from "../../src/core/search-goal.js";
import { bitLayoutOf, packStart } from "../../src/planner/bit-layout.js";
import { compileProblem } from "../../src/planner/compile.js";
import { AStarStrategy, planDetailed, replayPlan } from "../../src/planner/index.js";
import { Pace } from "../../src/planner/pace.js";
import { CHECK_AFTER, EARLY_CHECK_AFTER, stubbornSetsOf, stubbornSetsSteps } from "../../src/planner/stubborn-sets.js";
import { referenceCost } from "./reference-ucs.js";

const FACTS = 7;
const literal = fc.tuple(
  fc.integer({ min: 0, max: FACTS - 1 }).map((i) => `f${i}`),
  fc.boolean(),
);
/** Random boolean domains: preconditions and effects that make facts true or false, goals on either value, once-only actions, costs with fractions and zeros. */
const randomDomain = fc.record({
  actions: fc.array(
    fc.record({
      pre: fc.uniqueArray(literal, { maxLength: 3, selector: ([f]) => f }),
      eff: fc.uniqueArray(literal, { minLength: 1, maxLength: 3, selector: ([f]) => f }),
      cost: fc.oneof(fc.nat(4), fc.constantFrom(0.5, 1.25, 2.75)),
      once: fc.nat(4).map((n) => n === 0),
    }),
    { minLength: 1, maxLength: 12 },
  ),
  start: fc.array(fc.boolean(), { minLength: FACTS, maxLength: FACTS }),
  goal: fc.uniqueArray(literal, { minLength: 1, maxLength: 3, selector: ([f]) => f }),
});
type RandomDomain = typeof randomDomain extends fc.Arbitrary<infer T> ? T : never;

function build(d: RandomDomain): { actions: ActionSpec[]; start: WorldState; goal: GoalSpec } {
  return {
    actions: d.actions.map(
      (a, i) =>
        new ActionSpec({
          name: `a${i}`,
          preconditions: Object.fromEntries(a.pre),
          effects: Object.fromEntries(a.eff),
          cost: a.cost,
          canRerun: !a.once,
        }),
    ),
    start: Object.fromEntries(d.start.map((v, i) => [`f${i}`, v])),
    goal: new GoalSpec({ conditions: Object.fromEntries(d.goal) }),
  };
}

describe("strong stubborn sets", () => {
  it("find a plan exactly when one exists, of the optimal cost, that replays (random boolean domains)", () => {
    let pruned = 0;
    fc.assert(
      fc.property(randomDomain, fc.constantFrom("lmcut", "hmax", "zero"), (d, heuristic) => {
        const { actions, start, goal } = build(d);
        const truth = referenceCost(start, goal, actions);
        const full = planDetailed(start, goal, actions, { heuristic });
        const result = planDetailed(start, goal, actions, { heuristic, pruning: "stubborn-sets" });
        expect(result.status).toBe(truth === null ? "no_plan" : "found");
        if (truth === null) return;
        expect(result.plan?.totalCost).toBeCloseTo(truth, 9);
        expect(replayPlan(start, result.plan!.actions, goal).valid).toBe(true);
        if (result.stats.nodesGenerated < full.stats.nodesGenerated) pruned++;
      }),
      { numRuns: 1500, seed: 2031 },
    );
    // The property is not met by pruning nothing: it did prune, and often.
    expect(pruned).toBeGreaterThan(40);
  });

  /** `n` lights, each switched on by its own action (no action interferes with another); the goal: the first `k` on. */
  function lights(n: number, k: number) {
    const actions = Array.from({ length: n }, (_, i) => new ActionSpec({ name: `on${i}`, effects: { [`l${i}`]: true }, cost: 1 }));
    const start = Object.fromEntries(Array.from({ length: n }, (_, i) => [`l${i}`, false]));
    const goal = new GoalSpec({ conditions: Object.fromEntries(Array.from({ length: k }, (_, i) => [`l${i}`, true])) });
    return { actions, start, goal };
  }

  it("expand one order of independent actions: a state's children are the achievers of one missing goal fact", () => {
    const { actions, start, goal } = lights(40, 40);
    const pruned = planDetailed(start, goal, actions, { pruning: "stubborn-sets" });
    const full = planDetailed(start, goal, actions, { pruning: "none" });
    expect(pruned.plan?.totalCost).toBe(40);
    expect(full.plan?.totalCost).toBe(40);
    // One child per expansion (the goal's first missing light) against every light still off: 40 + 39 + ... + 1.
    expect(pruned.stats.nodesGenerated).toBe(41);
    expect(full.stats.nodesGenerated).toBe(1 + (40 * 41) / 2);
  });

  it("are on by default on boolean domains of 32 actions or more, off on smaller ones", () => {
    const big = lights(32, 5);
    const small = lights(31, 5);
    expect(planDetailed(big.start, big.goal, big.actions).stats.nodesGenerated).toBe(6);
    expect(planDetailed(small.start, small.goal, small.actions).stats.nodesGenerated).toBe(
      planDetailed(small.start, small.goal, small.actions, { pruning: "none" }).stats.nodesGenerated,
    );
    expect(planDetailed(small.start, small.goal, small.actions, { pruning: "stubborn-sets" }).stats.nodesGenerated).toBe(6);
  });

  it("enable an action through the unsatisfied precondition with the fewest achievers, in either precondition order", () => {
    // G needs p (3 achievers, each also setting a fact of its own) and q (1 achiever). At the start the set is G and
    // the achievers of q: Q1 alone is expanded, then P1-P3, then G from each: 1 + 1 + 3 + 3 states generated. Taking
    // p's achievers first would generate 1 + 3 + 3 + 3.
    // With 16 more preconditions that hold (x0-x15, one achiever each, as q), the list is sorted by the array sort
    // rather than by insertion.
    const held = Array.from({ length: 16 }, (_, i) => `x${i}`);
    for (const order of [
      ["p", "q"],
      ["q", "p"],
      [...held, "p", "q"],
    ]) {
      const actions = [
        new ActionSpec({ name: "G", preconditions: Object.fromEntries(order.map((k) => [k, true])), effects: { g: true } }),
        ...[1, 2, 3].map((i) => new ActionSpec({ name: `P${i}`, effects: { p: true, [`r${i}`]: true } })),
        new ActionSpec({ name: "Q1", effects: { q: true } }),
        // An achiever each, so that the compiler keeps x0-x15 as facts that can change.
        ...held.map((k) => new ActionSpec({ name: `set_${k}`, effects: { [k]: true } })),
      ];
      const start = { p: false, q: false, g: false, r1: false, r2: false, r3: false, ...Object.fromEntries(held.map((k) => [k, true])) };
      const goal = new GoalSpec({ conditions: { g: true } });
      // The relevance analysis off: it would drop r1-r3, which no goal needs, and merge P1-P3's states.
      const options = { heuristic: "zero", relevance: false } as const;
      const pruned = planDetailed(start, goal, actions, { ...options, pruning: "stubborn-sets" });
      expect(pruned.plan?.actionNames).toEqual(["Q1", "P1", "G"]);
      expect(pruned.stats.nodesGenerated).toBe(8);
      expect(planDetailed(start, goal, actions, { ...options, pruning: "none" }).stats.nodesGenerated).toBeGreaterThan(8);
    }
  });

  it("change nothing on a domain where every action interferes with every other", () => {
    // Every action needs and clears the token the others need: each interferes with all, nothing is pruned.
    const n = 40;
    const actions = Array.from(
      { length: n },
      (_, i) => new ActionSpec({ name: `step${i}`, preconditions: { token: true }, effects: { [`s${i}`]: true, token: false }, cost: 1 }),
    );
    actions.push(new ActionSpec({ name: "refill", preconditions: { token: false }, effects: { token: true }, cost: 1 }));
    const start = { token: true, ...Object.fromEntries(Array.from({ length: n }, (_, i) => [`s${i}`, false])) };
    const goal = new GoalSpec({ conditions: Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`s${i}`, true])) });
    const pruned = planDetailed(start, goal, actions, { pruning: "stubborn-sets", heuristic: "zero", maxExpansions: 2000 });
    const full = planDetailed(start, goal, actions, { pruning: "none", heuristic: "zero", maxExpansions: 2000 });
    expect(pruned.stats.nodesExpanded).toBe(full.stats.nodesExpanded);
    expect(pruned.stats.nodesGenerated).toBe(full.stats.nodesGenerated);
  });

  it("switch themselves off after 100 expansions that pruned under 5 % of the successors, or 1,000 under 20 %", () => {
    const { actions, start, goal } = lights(4, 4);
    const p = compileProblem(start, searchGoalOf(goal), actions);
    const layout = bitLayoutOf(p)!;
    const row = packStart(p, layout)!;
    const run = (keptPerExpansion: number, prunedPerExpansion: number, expansions: number) => {
      const sets = stubbornSetsOf(p, layout, undefined, layout.effWordClear, layout.effWordSet)!;
      sets.begin();
      for (let e = 0; e < expansions && sets.active; e++) {
        sets.compute(row, 0);
        // At the start the set is the first light's achiever (action 0): the others are pruned.
        for (let i = 0; i < keptPerExpansion; i++) expect(sets.keeps(0)).toBe(true);
        for (let i = 0; i < prunedPerExpansion; i++) expect(sets.keeps(1)).toBe(false);
      }
      sets.compute(row, 0);
      return sets.active;
    };
    expect(EARLY_CHECK_AFTER).toBe(100);
    expect(CHECK_AFTER).toBe(1000);
    expect(run(20, 1, 100)).toBe(false); // 4.8 % pruned after 100 expansions
    expect(run(19, 1, 100)).toBe(true); // 5 %
    expect(run(5, 1, 1000)).toBe(false); // 16.7 % after 1,000
    expect(run(4, 1, 1000)).toBe(true); // 20 %
  });

  it("refuses an unknown pruning method, coded, in plan() and in AStarStrategy", () => {
    const { actions, start, goal } = lights(3, 1);
    expect(() => planDetailed(start, goal, actions, { pruning: "partial-order" as never })).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION", message: expect.stringContaining("auto, none, stubborn-sets") }),
    );
    expect(() => new AStarStrategy({ pruning: "sss" as never })).toThrow(expect.objectContaining({ code: "INVALID_OPTION" }));
  });

  it("are built in slices, yielding between them, to the same sets", () => {
    const { actions, start, goal } = lights(6000, 2);
    const p = compileProblem(start, searchGoalOf(goal), actions);
    const layout = bitLayoutOf(p)!;
    const row = packStart(p, layout)!;
    const steps = stubbornSetsSteps(
      p,
      layout,
      undefined,
      layout.effWordClear,
      layout.effWordSet,
      new Pace(0, Number.POSITIVE_INFINITY, undefined),
    );
    let yields = 0;
    let step = steps.next();
    for (; !step.done; step = steps.next()) yields++;
    expect(yields).toBeGreaterThan(4);
    const paced = step.value!;
    const whole = stubbornSetsOf(p, layout, undefined, layout.effWordClear, layout.effWordSet)!;
    const kept = (sets: typeof whole) => {
      sets.begin();
      sets.compute(row, 0);
      return actions.map((_, a) => sets.keeps(a));
    };
    const keptPaced = kept(paced);
    expect(keptPaced.filter(Boolean).length).toBe(1);
    expect(keptPaced).toEqual(kept(whole));
  });
});
