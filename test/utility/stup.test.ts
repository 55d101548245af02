import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError, type WorldState } from "../../src/core/index.js";
import { cutOff, formatStupTable, PlanCache, type StupGoalOptions, StupSelector } from "../../src/utility/index.js";

/**
 * A selector whose searches are bounded by states only: the default frame
 * budget (100 ms) is wall-clock time, which a loaded machine can spend
 * before a search ends, and these tests are about selection, not budgets
 * (test/utility/bounded-planning.test.ts covers those).
 */
function stupSelector(options: ConstructorParameters<typeof StupSelector>[0]): StupSelector {
  return new StupSelector({ ...options, planOptions: { timeBudgetMs: Number.POSITIVE_INFINITY, ...options.planOptions } });
}

/**
 * The seed's sniper: shooting the leader (score 10, cost 1) has utility per
 * cost 10; each soldier (score 1, cost 2) has 0.5.
 */
function sniper(soldiers: number) {
  const actions = [new ActionSpec({ name: "shoot_leader", cost: 1, effects: { leader_down: true } })];
  const goals: StupGoalOptions[] = [{ name: "leader", goal: { leader_down: true }, score: 10 }];
  const entries: [string, boolean][] = [["leader_down", false]];
  for (let i = 0; i < soldiers; i++) {
    actions.push(new ActionSpec({ name: `shoot_soldier_${i}`, cost: 2, effects: { [`soldier_${i}_down`]: true } }));
    goals.push({ name: `soldier_${i}`, goal: { [`soldier_${i}_down`]: true }, score: 1 });
    entries.push([`soldier_${i}_down`, false]);
  }
  return { actions, goals, state: Object.fromEntries(entries) as WorldState };
}

describe("STUP: the seed's sniper", () => {
  it("keeps 20 soldiers at 0.5 in the draw beside a leader at 10 (cut-off 0.2): together they matter", () => {
    const { actions, goals, state } = sniper(20);
    const { table } = stupSelector({ goals, actions, cutOffRatio: 0.2, seed: 1 }).evaluate(state);
    expect(table[0]).toMatchObject({ name: "leader", cost: 1, utilityPerCost: 10, status: "candidate" });
    expect(table[0]?.probability).toBeCloseTo(0.5, 12);
    for (const row of table.slice(1)) {
      expect(row).toMatchObject({ cost: 2, utilityPerCost: 0.5, status: "candidate" });
      expect(row.probability).toBeCloseTo(0.025, 12);
    }
  });

  it("removes 2 soldiers: together they make 1, not more than 10 × 0.2", () => {
    const { actions, goals, state } = sniper(2);
    const stup = stupSelector({ goals, actions, cutOffRatio: 0.2, seed: 1, cache: new PlanCache() });
    const { table } = stup.evaluate(state);
    expect(table.map((r) => [r.name, r.status, r.probability])).toEqual([
      ["leader", "candidate", 1],
      ["soldier_0", "cut_off", 0],
      ["soldier_1", "cut_off", 0],
    ]);
    for (let i = 0; i < 50; i++) expect(stup.select(state).name).toBe("leader");
  });

  it("picks with frequencies matching the weights within 2 points over 10,000 seeded draws", () => {
    const { actions, goals, state } = sniper(20);
    const stup = stupSelector({ goals, actions, cutOffRatio: 0.2, seed: 2024 });
    const evaluation = stup.evaluate(state);
    const counts = new Map<string, number>();
    for (let i = 0; i < 10_000; i++) {
      const name = stup.draw(evaluation).name as string;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    for (const row of evaluation.table) {
      expect(Math.abs((counts.get(row.name) ?? 0) / 10_000 - row.probability)).toBeLessThan(0.02);
    }
    expect(counts.size).toBe(21);
  });

  it("returns the chosen goal with its plan and marks it in the table", () => {
    const { actions, goals, state } = sniper(2);
    const selection = stupSelector({ goals, actions, seed: 1 }).select(state);
    expect(selection.name).toBe("leader");
    expect(selection.goal?.conditions).toEqual({ leader_down: true });
    expect(selection.plan?.actionNames).toEqual(["shoot_leader"]);
    expect(selection.table[0]?.status).toBe("chosen");
  });

  it("is deterministic: the same seed draws the same sequence, and select is evaluate + draw", () => {
    const { actions, goals, state } = sniper(20);
    const names = (seed: number) => {
      const stup = stupSelector({ goals, actions, seed, cache: new PlanCache() });
      return Array.from({ length: 30 }, () => stup.select(state).name);
    };
    expect(names(9)).toEqual(names(9));
    expect(names(9)).not.toEqual(names(10));
    const viaDraw = stupSelector({ goals, actions, seed: 9 });
    const evaluation = viaDraw.evaluate(state);
    expect(Array.from({ length: 30 }, () => viaDraw.draw(evaluation).name)).toEqual(names(9));
  });
});

describe("STUP: score, rank and plan filters", () => {
  const actions = [
    new ActionSpec({ name: "shoot", cost: 2, preconditions: { has_gun: true }, effects: { enemy_alive: false } }),
    new ActionSpec({ name: "watch_tv", cost: 1, effects: { entertained: true } }),
    new ActionSpec({ name: "eat", cost: 1, effects: { hungry: false } }),
  ];
  const goals: StupGoalOptions[] = [
    { name: "fight", goal: { enemy_alive: false }, score: (s) => (s.enemy_alive ? 1 : 0), rank: 2 },
    { name: "tv", goal: { entertained: true }, score: 0.8, rank: 1 },
    { name: "snack", goal: { hungry: false }, score: (s) => (s.hungry ? 0.5 : 0), rank: 1 },
  ];

  it("drops goals scoring <= 0 before ranking, so an absent enemy does not block the TV", () => {
    const stup = stupSelector({ goals, actions, seed: 3 });
    const { table } = stup.evaluate({ enemy_alive: false, has_gun: true, hungry: false, entertained: false });
    expect(table.map((r) => [r.name, r.status])).toEqual([
      ["fight", "non_positive_score"],
      ["tv", "candidate"],
      ["snack", "non_positive_score"],
    ]);
  });

  it("keeps only the highest rank: no TV while an enemy is there", () => {
    const stup = stupSelector({ goals, actions, seed: 3 });
    const selection = stup.select({ enemy_alive: true, has_gun: true, hungry: true, entertained: false });
    expect(selection.name).toBe("fight");
    expect(selection.plan?.actionNames).toEqual(["shoot"]);
    expect(selection.table.map((r) => r.status)).toEqual(["chosen", "lower_rank", "lower_rank"]);
  });

  it("drops goals without a plan; nothing is chosen when none is left (the seed ranks before planning)", () => {
    const stup = stupSelector({ goals, actions, seed: 3 });
    const selection = stup.select({ enemy_alive: true, has_gun: false, hungry: true, entertained: false });
    expect(selection).toMatchObject({ name: null, goal: null, plan: null });
    expect(selection.table[0]).toMatchObject({ status: "no_plan", planStatus: "no_plan", cost: null, utilityPerCost: null });
    expect(selection.table.map((r) => r.status)).toEqual(["no_plan", "lower_rank", "lower_rank"]);
  });

  it("with fallThroughRanks, an unplannable top rank hands the choice to the next rank down", () => {
    const stup = stupSelector({ goals, actions, seed: 3, fallThroughRanks: true });
    const state = { enemy_alive: true, has_gun: false, hungry: true, entertained: false };
    const { table } = stup.evaluate(state);
    expect(table.map((r) => [r.name, r.status, r.cost])).toEqual([
      ["fight", "no_plan", null],
      ["tv", "candidate", 1],
      ["snack", "candidate", 1],
    ]);
    expect(["tv", "snack"]).toContain(stup.select(state).name);
    // A plannable top rank still wins outright.
    expect(stup.select({ ...state, has_gun: true }).table.map((r) => r.status)).toEqual(["chosen", "lower_rank", "lower_rank"]);
    expect(() => stupSelector({ goals, actions, fallThroughRanks: "yes" as never })).toThrow(/fallThroughRanks must be a boolean/);
  });

  it("divides by the plan cost: utility per cost = score × multiplier / cost", () => {
    const stup = stupSelector({
      goals: [
        { name: "tv", goal: { entertained: true }, score: 0.8, multiplier: 3 },
        { name: "snack", goal: { hungry: false }, score: 0.5 },
      ],
      actions,
      cutOffRatio: 0,
    });
    const { table } = stup.evaluate({ hungry: true, entertained: false });
    expect(table.map((r) => [r.utility, r.cost, r.utilityPerCost])).toEqual([
      [2.4000000000000004, 1, 2.4000000000000004],
      [0.5, 1, 0.5],
    ]);
    expect(table[0]?.probability).toBeCloseTo(2.4 / 2.9, 12);
  });
});

describe("STUP: goals that cost nothing", () => {
  const actions = [new ActionSpec({ name: "eat", cost: 2, effects: { hungry: false } })];
  const goals: StupGoalOptions[] = [
    { name: "cover", goal: { in_cover: true }, score: 5 },
    { name: "eat", goal: { hungry: false }, score: 1 },
  ];
  const state = { in_cover: true, hungry: true };

  it("skips an already-satisfied goal by default: nothing to do, no division by zero", () => {
    const stup = stupSelector({ goals, actions, seed: 1 });
    const selection = stup.select(state);
    expect(selection.name).toBe("eat");
    expect(selection.table[0]).toMatchObject({ status: "satisfied", cost: 0, utilityPerCost: null, probability: 0 });
  });

  it("with satisfiedGoals: 'hold', a satisfied goal is free (utility per cost Infinity) and outranks costed goals", () => {
    const stup = stupSelector({ goals, actions, seed: 1, satisfiedGoals: "hold" });
    const selection = stup.select(state);
    expect(selection.name).toBe("cover");
    expect(selection.plan?.isEmpty).toBe(true);
    expect(selection.table.map((r) => [r.status, r.cost, r.utilityPerCost, r.probability])).toEqual([
      ["chosen", 0, Number.POSITIVE_INFINITY, 1],
      ["cut_off", 2, 0.5, 0],
    ]);
  });

  it("weighs several free goals by utility, including a plan of free actions", () => {
    const free = [...actions, new ActionSpec({ name: "whistle", cost: 0, effects: { whistled: true } })];
    const stup = stupSelector({
      goals: [...goals, { name: "whistle", goal: { whistled: true }, score: 5, multiplier: 3 }],
      actions: free,
      satisfiedGoals: "hold",
      cutOffRatio: 0.2,
    });
    const { table } = stup.evaluate({ ...state, whistled: false });
    expect(table.map((r) => [r.name, r.status, r.cost])).toEqual([
      ["cover", "candidate", 0],
      ["eat", "cut_off", 2],
      ["whistle", "candidate", 0],
    ]);
    expect(table[0]?.probability).toBeCloseTo(5 / 20, 12);
    expect(table[2]?.probability).toBeCloseTo(15 / 20, 12);
  });
});

describe("STUP plumbing", () => {
  it("plans through a shared PlanCache", () => {
    const { actions, goals, state } = sniper(3);
    const cache = new PlanCache();
    const stup = stupSelector({ goals, actions, cache });
    stup.select(state);
    stup.select(state);
    expect(cache.stats).toMatchObject({ misses: 4, hits: 4 });
  });

  it("formats the table for logs", () => {
    const { actions, goals, state } = sniper(2);
    const text = formatStupTable(stupSelector({ goals, actions }).select(state).table);
    expect(text.split("\n")).toEqual([
      "goal       rank  score  mult  cost  u/cost  p       status ",
      "leader     0     10     1     1     10      100.0%  chosen ",
      "soldier_0  0     1      1     2     0.5     0.0%    cut_off",
      "soldier_1  0     1      1     2     0.5     0.0%    cut_off",
    ]);
  });

  it("names bad goals and options", () => {
    const actions = [new ActionSpec({ name: "a", effects: { x: true } })];
    const errorOf = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return e instanceof LangGoapError ? `${e.code}: ${e.message}` : String(e);
      }
      return "no error";
    };
    const goal = { name: "g", goal: { x: true }, score: 1 };
    expect(errorOf(() => stupSelector({ goals: [goal, goal], actions }))).toBe('INVALID_OPTION: StupSelector: duplicate goal name "g"');
    expect(errorOf(() => stupSelector({ goals: [{ ...goal, multiplier: 0 }], actions }))).toBe(
      'INVALID_OPTION: STUP goal "g": multiplier must be a finite number > 0, got 0',
    );
    expect(errorOf(() => stupSelector({ goals: [goal], actions, cutOffRatio: 1.5 }))).toMatch(
      /cutOffRatio must be between 0 and 1, got 1.5/,
    );
    const nan = stupSelector({ goals: [{ ...goal, score: () => Number.NaN }], actions });
    expect(errorOf(() => nan.select({ x: false }))).toBe(
      'INVALID_GOAL: STUP goal "g": score function returned NaN; expected a finite number',
    );
  });
});

describe("cutOff", () => {
  it("follows the seed's rule on the sniper numbers", () => {
    expect(cutOff([10, ...Array(20).fill(0.5)], 0.2).every(Boolean)).toBe(true);
    expect(cutOff([10, 0.5, 0.5], 0.2)).toEqual([true, false, false]);
    expect(cutOff([10, 1.5, 1.5], 0.2)).toEqual([true, true, true]);
  });

  it("always keeps the highest, and removes only what together is no more than the threshold", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 30 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (values, ratio) => {
          const keep = cutOff(values, ratio);
          const highest = Math.max(...values);
          const removed = values.filter((_, i) => !keep[i]);
          return keep[values.indexOf(highest)] === true && removed.reduce((a, b) => a + b, 0) <= highest * ratio;
        },
      ),
      { seed: 11, numRuns: 500 },
    );
  });
});

describe("formatStupTable on a large table", () => {
  it("formats 200,000 rows (column widths without spreading the rows as arguments, which overflows the stack)", () => {
    const row = (i: number) => ({
      name: `goal_${i}`,
      rank: i,
      score: 1,
      multiplier: 1,
      utility: 1,
      cost: 2,
      utilityPerCost: 0.5,
      probability: 0,
      planStatus: null,
      status: "candidate" as const,
    });
    const lines = formatStupTable(Array.from({ length: 200_000 }, (_, i) => row(i))).split("\n");
    expect(lines).toHaveLength(200_001);
    // The widest name and rank (goal_199999, 199999) set their columns' widths.
    expect(lines[1]).toBe(`${"goal_0".padEnd(11)}  ${"0".padEnd(6)}  1      1     2     0.5     0.0%  candidate`);
  });
});
