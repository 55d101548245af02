import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maxOf, minOf } from "../../src/core/extremes.js";

describe("maxOf and minOf", () => {
  it("give what Math.max(...values) and Math.min(...values) give: NaN wins, -0 below +0, ±Infinity for no values", () => {
    const cases: number[][] = [[], [3], [1, 5, 2], [-0, 0], [0, -0], [1, Number.NaN, 3], [Number.NEGATIVE_INFINITY], [-7, -2.5]];
    for (const values of cases) {
      expect(Object.is(maxOf(values), Math.max(...values))).toBe(true);
      expect(Object.is(minOf(values), Math.min(...values))).toBe(true);
    }
    fc.assert(
      fc.property(fc.array(fc.double()), (values) => {
        expect(Object.is(maxOf(values), Math.max(...values))).toBe(true);
        expect(Object.is(minOf(values), Math.min(...values))).toBe(true);
      }),
      { seed: 24, numRuns: 300 },
    );
  });

  it("read any iterable, Map keys included", () => {
    expect(
      maxOf(
        new Map([
          [4, "a"],
          [9, "b"],
          [2, "c"],
        ]).keys(),
      ),
    ).toBe(9);
    expect(minOf(new Set([4, 9, 2]))).toBe(2);
  });

  it("take 200,000 values, where spreading them as arguments overflows the stack", () => {
    const values = Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 200_000);
    expect(() => Math.max(...values)).toThrow(RangeError);
    expect(maxOf(values)).toBe(199_999);
    expect(minOf(values)).toBe(0);
  });
});
