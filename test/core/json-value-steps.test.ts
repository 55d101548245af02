import { describe, expect, it } from "vitest";
import { findNonJsonValue, nonJsonValueSteps, stateValuesSteps, VALUES_PER_STEP } from "../../src/core/json-value.js";

/** Runs steps to their value, counting the yields on the way. */
function drive<T>(steps: Generator<void, T, void>): { value: T; yields: number } {
  let yields = 0;
  for (;;) {
    const step = steps.next();
    if (step.done) return { value: step.value, yields };
    yields++;
  }
}

const wide = (n: number, bad?: { at: number; value: unknown }) => {
  const state: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) state[`w${i}`] = i === bad?.at ? bad.value : { level: i % 3, tags: ["a", "b"] };
  return state;
};

describe("checking values in steps", () => {
  it("yields every few hundred values on a state of 10,000 facts and finds the same first problem as one walk", () => {
    const state = wide(10_000, { at: 9_000, value: { level: 1, tags: ["a", Number.NaN] } });
    const { value, yields } = drive(nonJsonValueSteps(state));
    expect(value).toEqual({ path: "w9000.tags[1]", reason: "NaN is not a JSON number" });
    expect(value).toEqual(findNonJsonValue(state));
    // 9,000 facts of 5 values each (the fact, its level, its tags and two tags), then 4 to the problem: a yield
    // after every VALUES_PER_STEP of them.
    expect(yields).toBe(Math.floor((9_000 * 5 + 4) / VALUES_PER_STEP));
  });

  it("passes a clean state in steps, and stops at a cycle, a class instance or a deep nest where one walk does", () => {
    expect(drive(nonJsonValueSteps(wide(3_000))).value).toBeNull();
    const cyclic: Record<string, unknown> = wide(2_000);
    (cyclic.w1500 as Record<string, unknown>).self = cyclic;
    const instance = wide(2_000, { at: 1_999, value: new Map() });
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 1_200; i++) deep = { d: deep };
    for (const state of [cyclic, instance, { ...wide(700), deep }]) {
      const found = drive(nonJsonValueSteps(state)).value;
      expect(found).not.toBeNull();
      expect(found).toEqual(findNonJsonValue(state));
    }
    expect(drive(nonJsonValueSteps(cyclic)).value?.path).toBe("w1500.self");
  });

  it("throws the coded error of checkStateValues at its end", () => {
    const steps = stateValuesSteps(wide(2_000, { at: 1_500, value: 10n }), "plan");
    expect(() => drive(steps)).toThrow('plan: start state fact "w1500": 10n (a BigInt) is not JSON');
  });
});
