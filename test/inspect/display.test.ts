import { describe, expect, it } from "vitest";
import { displayData } from "../../src/inspect/display.js";
import { boundData } from "../../src/viz/html/escape.js";

describe("displayData and boundData: one walk, two string rules", () => {
  const hostile: Record<string, unknown> = {
    "k\u001b[2J": "v\u202eexe",
    long: "x".repeat(50),
    n: Number.NaN,
    inf: Number.POSITIVE_INFINITY,
    nothing: undefined,
    fn: function named() {},
  };
  hostile.self = hostile;

  it("displayData: strings and keys in display form, non-JSON values as text, cycles marked", () => {
    const shown = displayData(hostile, 10) as Record<string, unknown>;
    expect(shown).toEqual({
      "k\\u001b[2J": "v\\u202eexe",
      long: expect.stringMatching(/^x+…/),
      n: "NaN",
      inf: "Infinity",
      nothing: null,
      fn: expect.stringMatching(/^function/),
      self: "[circular]",
    });
    let deep: unknown = 1;
    for (let i = 0; i < 20; i++) deep = [deep];
    expect(JSON.stringify(displayData(deep))).toContain("[nested deeper than 16 levels: not sent]");
  });

  it("boundData: strings only cut, other values left for JSON.stringify, deeper limit", () => {
    const bound = boundData(hostile) as Record<string, unknown>;
    expect(bound["k\u001b[2J"]).toBe("v\u202eexe");
    expect(bound.n).toBeNaN();
    expect(bound.nothing).toBeUndefined();
    expect(typeof bound.fn).toBe("function");
    expect(bound.self).toBe("[circular]");
    let deep: unknown = 1;
    for (let i = 0; i < 20; i++) deep = [deep];
    expect(JSON.stringify(boundData(deep))).toBe(JSON.stringify(deep));
    for (let i = 0; i < 20; i++) deep = [deep];
    expect(JSON.stringify(boundData(deep))).toContain("[nested deeper than 32 levels: not embedded]");
  });

  it("both keep a __proto__ fact (parsed JSON has it as an own key)", () => {
    const state = JSON.parse('{"__proto__": {"hp": 3}, "door": "open"}') as unknown;
    expect(JSON.stringify(displayData(state))).toBe('{"__proto__":{"hp":3},"door":"open"}');
    expect(JSON.stringify(boundData(state))).toBe('{"__proto__":{"hp":3},"door":"open"}');
  });
});
