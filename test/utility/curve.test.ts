import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { CURVE_TYPES, type CurveType, ResponseCurve } from "../../src/utility/index.js";

const curve = (type: CurveType, extra: ConstructorParameters<typeof ResponseCurve>[0] = {}) => new ResponseCurve({ type, ...extra });

describe("ResponseCurve formulas (the guide's five)", () => {
  it("linear is slope·(x − xShift) + yShift", () => {
    expect(curve("linear").evaluate(0.3)).toBeCloseTo(0.3, 12);
    expect(curve("linear", { slope: 2, xShift: 0.25, yShift: 0.1 }).evaluate(0.5)).toBeCloseTo(0.6, 12);
    expect(curve("linear", { slope: -1, yShift: 1 }).evaluate(0.2)).toBeCloseTo(0.8, 12);
  });

  it("quadratic is slope·(x − xShift)^exponent + yShift", () => {
    expect(curve("quadratic").evaluate(0.5)).toBeCloseTo(0.25, 12);
    expect(curve("quadratic", { exponent: 3 }).evaluate(0.5)).toBeCloseTo(0.125, 12);
    expect(curve("quadratic", { xShift: 0.2, slope: 2 }).evaluate(0.7)).toBeCloseTo(0.5, 12);
  });

  it("quadratic with a fractional exponent below xShift is undefined and scores 0", () => {
    expect(curve("quadratic", { exponent: 0.5, xShift: 0.5 }).evaluate(0.25)).toBe(0);
  });

  it("exponential is slope·(e^(k·x) − 1)/(e^k − 1) + yShift, from 0 to 1", () => {
    const c = curve("exponential", { exponent: 5 });
    expect(c.evaluate(0)).toBe(0);
    expect(c.evaluate(1)).toBeCloseTo(1, 12);
    expect(c.evaluate(0.5)).toBeCloseTo((Math.exp(2.5) - 1) / (Math.exp(5) - 1), 12);
    expect(c.evaluate(0.9)).toBeCloseTo(0.6039, 4);
  });

  it("exponential with exponent 0 is its limit, a straight line (no 0/0)", () => {
    expect(curve("exponential", { exponent: 0 }).evaluate(0.4)).toBeCloseTo(0.4, 12);
    expect(curve("exponential", { exponent: 1e-17 }).evaluate(0.4)).toBeCloseTo(0.4, 12);
  });

  it("logistic is slope / (1 + e^(−k·(x − xShift))) + yShift", () => {
    const c = curve("logistic", { exponent: 10, xShift: 0.5 });
    expect(c.evaluate(0.5)).toBeCloseTo(0.5, 12);
    expect(c.evaluate(0.7)).toBeCloseTo(1 / (1 + Math.exp(-2)), 12);
    expect(c.evaluate(0.3)).toBeCloseTo(1 / (1 + Math.exp(2)), 12);
  });

  it("step is 1 at or above xShift and 0 below, whatever slope and yShift say", () => {
    const c = curve("step", { xShift: 0.5, slope: 0.3, yShift: -0.2 });
    expect(c.evaluate(0.49)).toBe(0);
    expect(c.evaluate(0.5)).toBe(1);
    expect(c.evaluate(1)).toBe(1);
  });
});

describe("ResponseCurve formulas (logit, normal, sine)", () => {
  it("logit is slope·ln(u / (1 − u))/5 + 0.5 + yShift with u = x − xShift", () => {
    const c = curve("logit");
    expect(c.evaluate(0.5)).toBeCloseTo(0.5, 12);
    expect(c.evaluate(0.75)).toBeCloseTo(Math.log(3) / 5 + 0.5, 12);
    expect(c.evaluate(0.25)).toBeCloseTo(0.5 - Math.log(3) / 5, 12);
  });

  it("logit diverges at its ends and clamps to 0 and 1", () => {
    expect(curve("logit").evaluate(0)).toBe(0);
    expect(curve("logit").evaluate(1)).toBe(1);
  });

  it("normal is slope·e^(−30·k·(x − xShift − 0.5)²) + yShift, peaking at 0.5 + xShift", () => {
    const c = curve("normal", { exponent: 1 });
    expect(c.evaluate(0.5)).toBeCloseTo(1, 12);
    expect(c.evaluate(0.6)).toBeCloseTo(Math.exp(-0.3), 12);
    expect(curve("normal", { exponent: 1, xShift: 0.2 }).evaluate(0.7)).toBeCloseTo(1, 12);
  });

  it("sine is 0.5·slope·sin(2π(x − xShift)) + 0.5 + yShift", () => {
    const c = curve("sine");
    expect(c.evaluate(0)).toBeCloseTo(0.5, 12);
    expect(c.evaluate(0.25)).toBeCloseTo(1, 12);
    expect(c.evaluate(0.75)).toBeCloseTo(0, 12);
  });
});

describe("ResponseCurve input and output ranges", () => {
  it("normalises raw input from [min, max] and clamps it", () => {
    const c = curve("linear", { min: 0, max: 100 });
    expect(c.evaluate(25)).toBeCloseTo(0.25, 12);
    expect(c.evaluate(-50)).toBe(0);
    expect(c.evaluate(250)).toBe(1);
    expect(c.normalize(75)).toBeCloseTo(0.75, 12);
  });

  it("inverts after normalising (low health from a health value)", () => {
    const lowHealth = curve("quadratic", { invert: true, min: 0, max: 100 });
    expect(lowHealth.evaluate(25)).toBeCloseTo(0.5625, 12);
    expect(lowHealth.evaluate(100)).toBe(0);
  });

  it("clamps the output to [0, 1]", () => {
    expect(curve("linear", { slope: 2 }).evaluate(0.9)).toBe(1);
    expect(curve("linear", { yShift: -0.5 }).evaluate(0.2)).toBe(0);
  });

  it("always returns a number in [0, 1] for any parameters and input", () => {
    const finite = fc.double({ min: -1e3, max: 1e3, noNaN: true });
    fc.assert(
      fc.property(
        fc.constantFrom(...CURVE_TYPES),
        finite,
        fc.double({ min: -20, max: 20, noNaN: true }),
        finite,
        finite,
        fc.double({ min: -1e6, max: 1e6, noNaN: true }),
        fc.boolean(),
        (type, slope, exponent, xShift, yShift, raw, invert) => {
          const y = new ResponseCurve({ type, slope, exponent, xShift, yShift, invert }).evaluate(raw);
          return !Number.isNaN(y) && y >= 0 && y <= 1;
        },
      ),
      { numRuns: 2000, seed: 7 },
    );
  });
});

describe("ResponseCurve.sample", () => {
  it("gives evenly spaced points over [min, max] with their scores", () => {
    const c = curve("step", { xShift: 0.5, min: 0, max: 10 });
    expect(c.sample(3)).toEqual([
      { x: 0, y: 0 },
      { x: 5, y: 1 },
      { x: 10, y: 1 },
    ]);
    const points = curve("exponential", { exponent: 3 }).sample(11);
    expect(points).toHaveLength(11);
    expect(points[10]).toEqual({ x: 1, y: curve("exponential", { exponent: 3 }).evaluate(1) });
  });

  it("rejects fewer than two points", () => {
    expect(() => curve("linear").sample(1)).toThrow(/points must be an integer >= 2/);
  });
});

describe("ResponseCurve validation", () => {
  const codeOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return e instanceof LangGoapError ? `${e.code}: ${e.message}` : String(e);
    }
    return "no error";
  };

  it("names the bad option", () => {
    expect(codeOf(() => new ResponseCurve({ type: "cubic" as CurveType }))).toMatch(
      /^INVALID_OPTION: .*type must be one of linear.*"cubic"/,
    );
    expect(codeOf(() => new ResponseCurve({ slope: Number.NaN }))).toMatch(/^INVALID_OPTION: .*slope must be a finite number, got NaN/);
    expect(codeOf(() => new ResponseCurve({ min: 5, max: 5 }))).toMatch(/max \(5\) must be greater than min \(5\)/);
  });

  it("rejects a non-numeric input", () => {
    expect(codeOf(() => curve("linear").evaluate("high" as unknown as number))).toMatch(
      /^INVALID_STATE: .*input must be a number, got "high"/,
    );
  });

  it("round-trips through toJSON", () => {
    const c = curve("logistic", { exponent: 8, xShift: 0.4, invert: true, max: 20 });
    expect(new ResponseCurve(c.toJSON()).toJSON()).toEqual(c.toJSON());
    expect(c.toJSON()).toEqual({ type: "logistic", slope: 1, exponent: 8, xShift: 0.4, yShift: 0, min: 0, max: 20, invert: true });
  });
});
