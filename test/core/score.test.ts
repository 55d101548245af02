import { describe, expect, it } from "vitest";
import { BendableScore, bestScore, compareScores, HardSoftScore, isBetterScore, LangGoapError, SimpleScore } from "../../src/core/index.js";

describe("scores", () => {
  it("a SimpleScore is a cost: lower is better", () => {
    expect(compareScores(new SimpleScore(3), new SimpleScore(5))).toBeLessThan(0);
    expect(isBetterScore(new SimpleScore(5), new SimpleScore(3))).toBe(false);
    expect(bestScore([new SimpleScore(4), new SimpleScore(2), new SimpleScore(9)]).value).toBe(2);
  });

  it("hard-soft scores are higher-is-better, hard level first (the min/max trap)", () => {
    const feasibleCheap = new HardSoftScore(0, -2);
    const infeasibleGreat = new HardSoftScore(-1, 100);
    expect(compareScores(feasibleCheap, infeasibleGreat)).toBeLessThan(0);
    expect(compareScores(new HardSoftScore(0, -1), new HardSoftScore(0, -5))).toBeLessThan(0);
    const sorted = [infeasibleGreat, new HardSoftScore(0, -5), feasibleCheap].sort(compareScores);
    expect(sorted.map(String)).toEqual([
      "HardSoftScore(hard=0, soft=-2)",
      "HardSoftScore(hard=0, soft=-5)",
      "HardSoftScore(hard=-1, soft=100)",
    ]);
    expect(feasibleCheap.isFeasible()).toBe(true);
    expect(infeasibleGreat.isFeasible()).toBe(false);
  });

  it("bendable scores compare lexicographically and must share a shape", () => {
    expect(compareScores(new BendableScore([0, -1], [5]), new BendableScore([0, -2], [99]))).toBeLessThan(0);
    expect(compareScores(new BendableScore([0], [1, 2]), new BendableScore([0], [1, 2]))).toBe(0);
    expect(new BendableScore([0, -1], []).isFeasible()).toBe(false);
    expect(() => compareScores(new BendableScore([0], []), new BendableScore([0, 0], []))).toThrow("different shapes");
  });

  it("mixing kinds is an error with a clear message", () => {
    try {
      compareScores(new SimpleScore(1), new HardSoftScore(0, 0));
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(LangGoapError);
      expect((e as LangGoapError).code).toBe("INVALID_SCORE");
      expect((e as Error).message).toBe(
        "cannot compare a simple score with a hard-soft score (SimpleScore(1) vs HardSoftScore(hard=0, soft=0))",
      );
    }
  });
});
