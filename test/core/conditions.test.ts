import { describe, expect, it } from "vitest";
import { formatCondition, normalizeConditions, satisfiesConditions, testCondition, unsatisfiedKeys } from "../../src/core/index.js";

describe("conditions", () => {
  it("bare facts mean equality", () => {
    expect(testCondition(true, true)).toBe(true);
    expect(testCondition(1, true)).toBe(false);
    expect(testCondition("a", "a")).toBe(true);
    expect(testCondition(null, null)).toBe(true);
  });

  it("a missing key never satisfies, not even ne or eq null", () => {
    expect(testCondition(undefined, { ne: 1 })).toBe(false);
    expect(testCondition(undefined, { eq: null })).toBe(false);
    expect(testCondition(undefined, null)).toBe(false);
    expect(satisfiesConditions({}, { x: { ne: 5 } })).toBe(false);
  });

  it("operators compare and combine with AND", () => {
    expect(testCondition(3, { gte: 3 })).toBe(true);
    expect(testCondition(3, { gt: 3 })).toBe(false);
    expect(testCondition(2, { lt: 3, gte: 2 })).toBe(true);
    expect(testCondition(4, { lt: 3, gte: 2 })).toBe(false);
    expect(testCondition("b", { in: ["a", "b"] })).toBe(true);
    expect(testCondition("c", { in: ["a", "b"] })).toBe(false);
    expect(testCondition("3", { gte: 1 })).toBe(false);
    expect(testCondition(5, { ne: 4 })).toBe(true);
  });

  it("reports unsatisfied keys in order and formats conditions", () => {
    const conds = normalizeConditions({ a: true, wood: { gte: 3 }, kind: { in: ["x", "y"] } }, "goal");
    expect(unsatisfiedKeys({ a: true, wood: 1 }, conds)).toEqual(["wood", "kind"]);
    expect(formatCondition("wood", { gte: 3, lt: 9 })).toBe("wood >= 3 and wood < 9");
    expect(formatCondition("a", true)).toBe("a = true");
  });

  it("rejects empty operator objects, empty in-lists and non-finite numbers", () => {
    expect(() => normalizeConditions({ x: {} }, "goal")).toThrow('goal key "x": empty operator object');
    expect(() => normalizeConditions({ x: { in: [] } }, "goal")).toThrow('operator "in" expects a non-empty array');
    expect(() => normalizeConditions({ x: Number.NaN }, "goal")).toThrow('goal key "x": expected a finite number, got NaN');
    expect(() => normalizeConditions([1], "goal")).toThrow("expected an object of conditions");
  });
});
