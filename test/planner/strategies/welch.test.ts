import { describe, expect, it } from "vitest";
import { logGamma, regularizedIncompleteBeta, studentTCdf, welchTTest } from "../../../examples/lib/stats.js";

// Reference values computed with scipy 1.17 (scipy.stats.t, scipy.stats.ttest_ind(equal_var=False)).
describe("Student-t distribution", () => {
  it("log-gamma matches factorials and Γ(1/2) = √π", () => {
    expect(logGamma(1)).toBeCloseTo(0, 13);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 13);
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
    expect(logGamma(30.5)).toBeCloseTo(72.9534711841694, 9);
  });

  it("the incomplete beta has its closed forms", () => {
    // I_x(1, 1) = x; I_x(a, 1) = x^a; I_x(1, b) = 1 - (1 - x)^b.
    expect(regularizedIncompleteBeta(0.3, 1, 1)).toBeCloseTo(0.3, 14);
    expect(regularizedIncompleteBeta(0.7, 3, 1)).toBeCloseTo(0.343, 14);
    expect(regularizedIncompleteBeta(0.2, 1, 4)).toBeCloseTo(1 - 0.8 ** 4, 14);
  });

  it("matches the exact CDFs for 1 and 2 degrees of freedom", () => {
    for (const t of [-3, -0.5, 0, 0.7, 4]) {
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 12);
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(2 + t * t)), 12);
    }
  });

  it("matches scipy at fractional degrees of freedom and in the tails", () => {
    expect(studentTCdf(2.0423, 30)).toBeCloseTo(0.9750014488130303, 10);
    expect(studentTCdf(-3.5, 4.5)).toBeCloseTo(0.010270844984692789, 10);
    expect(studentTCdf(0.3, 100)).toBeCloseTo(0.6176000598498482, 10);
    expect(1 - studentTCdf(2.6, 7.3)).toBeCloseTo(0.017080595109290938, 10);
    expect(studentTCdf(1.959963984540054, 1e7)).toBeCloseTo(0.975, 6);
  });
});

describe("welchTTest", () => {
  const a1 = [27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1, 21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4];
  const a2 = [27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0, 24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4];

  it("reproduces the textbook example (Welch 1947 style data)", () => {
    const two = welchTTest(a1, a2, "two-sided");
    expect(two.t).toBeCloseTo(-2.455356398286006, 10);
    expect(two.df).toBeCloseTo(24.988529290231416, 10);
    expect(two.pValue).toBeCloseTo(0.021378001462866992, 10);
    expect(welchTTest(a2, a1, "greater").pValue).toBeCloseTo(0.010689000731433496, 10);
    expect(welchTTest(a2, a1, "less").pValue).toBeCloseTo(1 - 0.010689000731433496, 10);
  });

  it("compares goal rates (0/1 outcomes)", () => {
    const better = [...Array(27).fill(1), ...Array(3).fill(0)];
    const worse = [...Array(21).fill(1), ...Array(9).fill(0)];
    const r = welchTTest(better, worse, "greater");
    expect(r.meanA).toBeCloseTo(0.9, 12);
    expect(r.t).toBeCloseTo(1.9663841605003505, 10);
    expect(r.df).toBeCloseTo(50, 10);
    expect(r.pValue).toBeCloseTo(0.027408935624250792, 10);
  });

  it("handles samples without variance and rejects tiny samples", () => {
    expect(welchTTest([1, 1, 1], [0, 0, 0]).pValue).toBe(0);
    expect(welchTTest([0, 0], [1, 1]).pValue).toBe(1);
    expect(welchTTest([1, 1], [1, 1]).pValue).toBe(0.5);
    expect(() => welchTTest([1], [0, 1])).toThrow(/at least 2/);
  });
});
