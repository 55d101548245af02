import { describe, expect, it, vi } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { Consideration, ResponseCurve, UtilityAction } from "../../src/utility/index.js";

const errorOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    return e instanceof LangGoapError ? `${e.code}: ${e.message}` : `not a LangGoapError: ${e}`;
  }
  return "no error";
};

const compensated = (product: number, n: number) => product + (1 - product) * (1 - 1 / n) * product;

describe("Consideration", () => {
  it("scores a blackboard key through its curve", () => {
    const hunger = new Consideration({ inputKey: "hunger", curve: { type: "quadratic" } });
    expect(hunger.score({ hunger: 0.5 })).toBeCloseTo(0.25, 12);
    expect(hunger.name).toBe("hunger");
  });

  it("reads booleans as 1 and 0", () => {
    const armed = new Consideration({ inputKey: "has_ammo", curve: { type: "step", xShift: 0.5 } });
    expect(armed.score({ has_ammo: true })).toBe(1);
    expect(armed.score({ has_ammo: false })).toBe(0);
  });

  it("computes derived inputs with input(state)", () => {
    const threat = new Consideration({
      name: "threat",
      input: (bb) => 1 - Math.min((bb.enemy_distance as number) / 20, 1),
      curve: new ResponseCurve({ type: "linear" }),
    });
    expect(threat.score({ enemy_distance: 5 })).toBeCloseTo(0.75, 12);
  });

  it("names the consideration when its input function throws", () => {
    const c = new Consideration({
      name: "distance",
      input: () => {
        throw new Error("no enemy");
      },
      curve: {},
    });
    expect(errorOf(() => c.score({}))).toBe('INVALID_STATE: consideration "distance": input function threw: no enemy');
  });

  it("refuses a missing key unless a defaultValue is given", () => {
    const c = new Consideration({ inputKey: "hunger", curve: {} });
    expect(errorOf(() => c.score({}))).toBe(
      'UNKNOWN_FACT: consideration "hunger": blackboard has no "hunger"; set it or give the consideration a defaultValue',
    );
    expect(new Consideration({ inputKey: "hunger", curve: {}, defaultValue: 0.4 }).score({})).toBeCloseTo(0.4, 12);
  });

  it("refuses non-numeric inputs and ambiguous options", () => {
    const c = new Consideration({ inputKey: "mood", curve: {} });
    expect(errorOf(() => c.score({ mood: "happy" }))).toMatch(
      /^INVALID_STATE: consideration "mood": input must be a number or a boolean, got "happy"/,
    );
    expect(errorOf(() => new Consideration({ curve: {} }))).toMatch(/give exactly one of inputKey .* and input/);
    expect(errorOf(() => new Consideration({ inputKey: "a", input: () => 1, curve: {} }))).toMatch(/give exactly one of/);
  });
});

describe("UtilityAction multiplicative scoring", () => {
  const eat = new UtilityAction({
    name: "eat",
    considerations: [
      { inputKey: "hunger", curve: { type: "exponential", exponent: 5 } },
      { inputKey: "food_nearby", curve: { type: "step", xShift: 0.1 } },
    ],
  });

  it("multiplies the considerations and applies the guide's compensation factor", () => {
    const hunger = new ResponseCurve({ type: "exponential", exponent: 5 }).evaluate(0.9);
    expect(eat.score({ hunger: 0.9, food_nearby: 0.5 })).toBeCloseTo(compensated(hunger, 2), 12);
    expect(eat.score({ hunger: 0.9, food_nearby: 0.5 })).toBeCloseTo(0.7235, 4);
  });

  it("compensates more with more considerations: 1 − 1/n", () => {
    const three = new UtilityAction({
      name: "three",
      considerations: ["a", "b", "c"].map((k) => ({ inputKey: k, curve: {} })),
    });
    const p = 0.8 * 0.5 * 0.5;
    expect(three.score({ a: 0.8, b: 0.5, c: 0.5 })).toBeCloseTo(p + (1 - p) * (2 / 3) * p, 12);
    const one = new UtilityAction({ name: "one", considerations: [{ inputKey: "a", curve: {} }] });
    expect(one.score({ a: 0.3 })).toBeCloseTo(0.3, 12);
  });

  it("returns the plain product without compensation when asked", () => {
    const raw = new UtilityAction({
      name: "raw",
      compensate: false,
      considerations: ["a", "b"].map((k) => ({ inputKey: k, curve: {} })),
    });
    expect(raw.score({ a: 0.5, b: 0.5 })).toBeCloseTo(0.25, 12);
  });

  it("stops at the first zero without reading the remaining considerations", () => {
    const later = vi.fn(() => 1);
    const action = new UtilityAction({
      name: "shoot",
      considerations: [
        { inputKey: "has_ammo", curve: { type: "step", xShift: 0.5 } },
        { name: "aim", input: later, curve: {} },
      ],
    });
    expect(action.score({ has_ammo: false })).toBe(0);
    expect(later).not.toHaveBeenCalled();
  });

  it("applies the weight after compensation, so a weight of 2 exactly doubles the score", () => {
    const base = { considerations: ["a", "b"].map((k) => ({ inputKey: k, curve: {} })) };
    const light = new UtilityAction({ name: "light", ...base });
    const heavy = new UtilityAction({ name: "heavy", weight: 2, ...base });
    const bb = { a: 0.6, b: 0.7 };
    expect(heavy.score(bb)).toBeCloseTo(2 * light.score(bb), 12);
    expect(light.score(bb)).toBeCloseTo(compensated(0.42, 2), 12);
  });
});

describe("UtilityAction additive scoring and momentum", () => {
  it("averages the considerations so one zero does not veto", () => {
    const action = new UtilityAction({
      name: "gather",
      weight: 0.5,
      scoring: "additive",
      considerations: ["a", "b", "c"].map((k) => ({ inputKey: k, curve: {} })),
    });
    expect(action.score({ a: 0, b: 0.6, c: 0.9 })).toBeCloseTo(0.5 * 0.5, 12);
  });

  it("gives the running choice a momentum bonus of ×(1 + momentum)", () => {
    const action = new UtilityAction({ name: "a", considerations: [{ inputKey: "x", curve: {} }] });
    expect(action.score({ x: 0.5 }, { running: true, momentum: 0.25 })).toBeCloseTo(0.625, 12);
    expect(action.score({ x: 0.5 }, { running: false, momentum: 0.25 })).toBeCloseTo(0.5, 12);
    const own = new UtilityAction({ name: "b", momentum: 0.1, considerations: [{ inputKey: "x", curve: {} }] });
    expect(own.score({ x: 0.5 }, { running: true, momentum: 0.25 })).toBeCloseTo(0.55, 12);
  });

  it("explains every consideration's input and score", () => {
    const action = new UtilityAction({
      name: "flee",
      weight: 1.3,
      considerations: [
        { inputKey: "threat", curve: { type: "exponential", exponent: 4 } },
        { inputKey: "health", curve: { type: "quadratic", invert: true } },
      ],
    });
    const breakdown = action.explain({ threat: 0, health: 0.2 });
    expect(breakdown.score).toBe(0);
    expect(breakdown.considerations.map((c) => [c.name, c.input])).toEqual([
      ["threat", 0],
      ["health", 0.2],
    ]);
    expect(breakdown.considerations[1]?.score).toBeCloseTo(0.64, 12);
  });
});

describe("UtilityAction validation", () => {
  it("names the bad option", () => {
    expect(errorOf(() => new UtilityAction({ name: "idle", considerations: [] }))).toMatch(
      /^INVALID_OPTION: utility action "idle": considerations must be a non-empty array/,
    );
    expect(errorOf(() => new UtilityAction({ name: "x", weight: -1, considerations: [{ inputKey: "a", curve: {} }] }))).toBe(
      'INVALID_OPTION: utility action "x": weight must be a finite number >= 0, got -1',
    );
    expect(
      errorOf(() => new UtilityAction({ name: "x", scoring: "max" as "additive", considerations: [{ inputKey: "a", curve: {} }] })),
    ).toMatch(/scoring must be "multiplicative" or "additive", got "max"/);
  });
});
