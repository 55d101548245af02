/**
 * Equality conditions on numbers hold within NUMERIC_EQUALITY_TOLERANCE
 * (relative), the same in the planner's compiled tests, every heuristic,
 * the graph and plan validation; states are never merged by it.
 */
import { describe, expect, it } from "vitest";
import {
  ActionSpec,
  factsEqual,
  GoalSpec,
  GoapGraph,
  MCTSStrategy,
  NUMERIC_EQUALITY_TOLERANCE,
  numbersEqual,
  planDetailed,
  satisfiesConditions,
  testCondition,
} from "../../src/index.js";

const add = new ActionSpec({ name: "add", effects: { x: { inc: 0.1 } } });
const HEURISTICS = ["zero", "goal-count", "hmax", "lmcut", "opcount", "hadd", "hff"] as const;

describe("numbersEqual", () => {
  it("is relative, exact for two integers, and never holds for NaN or infinities", () => {
    expect(NUMERIC_EQUALITY_TOLERANCE).toBe(1e-12);
    expect(numbersEqual(0.1 + 0.1 + 0.1, 0.3)).toBe(true);
    expect(numbersEqual(3, 0.1 * 30)).toBe(true);
    expect(numbersEqual(1e6 + 0.3, 1e6 + 0.1 + 0.1 + 0.1)).toBe(true);
    expect(numbersEqual(0.3, 0.3 + 1e-9)).toBe(false);
    expect(numbersEqual(1_000_000_000, 1_000_000_001)).toBe(false);
    expect(numbersEqual(2 ** 60, 2 ** 60 + 2 ** 8)).toBe(false);
    expect(numbersEqual(0, 1e-17)).toBe(false);
    expect(numbersEqual(Number.NaN, Number.NaN)).toBe(false);
    expect(numbersEqual(Number.POSITIVE_INFINITY, 1e308)).toBe(false);
    expect(factsEqual("0.3", 0.3)).toBe(false);
  });

  it("applies to bare equality, eq, ne and in; order comparisons stay exact", () => {
    const x = 0.1 + 0.1 + 0.1;
    expect(testCondition(x, 0.3)).toBe(true);
    expect(testCondition(x, { eq: 0.3 })).toBe(true);
    expect(testCondition(x, { ne: 0.3 })).toBe(false);
    expect(testCondition(x, { in: [0.2, 0.3] })).toBe(true);
    expect(testCondition(x, { lte: 0.3 })).toBe(false);
    expect(satisfiesConditions({ x }, { x: 0.3 })).toBe(true);
  });
});

describe("planning to a non-integer equality", () => {
  it.each(HEURISTICS)("x: 0.3 after three x += 0.1 is found with %s (was no_plan)", (heuristic) => {
    const result = planDetailed({ x: 0 }, { x: 0.3 }, [add], { heuristic });
    expect(result.status).toBe("found");
    expect(result.plan?.actionNames).toEqual(["add", "add", "add"]);
  });

  it("eq, in and ne in preconditions use the same tolerance", () => {
    const finish = new ActionSpec({ name: "finish", preconditions: { x: { in: [0.3, 0.7] } }, effects: { done: true } });
    expect(planDetailed({ x: 0, done: false }, { done: true }, [add, finish]).plan?.actionNames).toEqual(["add", "add", "add", "finish"]);
    expect(planDetailed({ x: 0.1 + 0.1 + 0.1 }, { x: { ne: 0.3 } }, [add]).plan?.actionNames).toEqual(["add"]);
  });

  it("states differing by 1e-17 stay different states: only conditions use the tolerance", () => {
    // After three adds x is 0.30000000000000004: `gt 0.3` holds there (exact), `lte 0.3` does not, and
    // `reset` (x = 0.3 exactly) then leads to a new state. Merging the two would lose the plan.
    const mark = new ActionSpec({ name: "mark", preconditions: { x: { gt: 0.3 } }, effects: { marked: true } });
    const reset = new ActionSpec({ name: "reset", preconditions: { marked: true }, effects: { x: 0.3 } });
    const result = planDetailed({ x: 0, marked: false }, { marked: true, x: { lte: 0.3 } }, [add, mark, reset], { heuristic: "zero" });
    expect(result.plan?.actionNames).toEqual(["add", "add", "add", "mark", "reset"]);
  });

  it("MCTS reaches it too", async () => {
    const found = await new MCTSStrategy({ seed: 1, iterations: 500, wallClockMs: Number.POSITIVE_INFINITY }).plan(
      { x: 0 },
      new GoalSpec({ conditions: { x: 0.3 } }),
      [add],
    );
    expect(found?.actionNames).toEqual(["add", "add", "add"]);
  });

  it("the graph runs the plan, validates it and ends goal_achieved", async () => {
    const out = await new GoapGraph([add]).invoke({ x: 0.3 }, { x: 0 });
    expect(out.status).toBe("goal_achieved");
    expect(out.worldState.x).toBe(0.1 + 0.1 + 0.1);
    expect(out.executionHistory.map((r) => r.actionName)).toEqual(["add", "add", "add"]);
  });
});
