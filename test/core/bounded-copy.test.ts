import { describe, expect, it } from "vitest";
import { boundedCopy } from "../../src/core/bounded-copy.js";

const rules = { maxDepth: 4, maxValues: 100, leftOut: "left out", text: (s: string) => s.slice(0, 3) };

describe("boundedCopy", () => {
  it("copies JSON-like data, every string value and key through the text rule, other values as they are", () => {
    const source = { alpha: "abcdef", list: [1, true, null, "xyzw"], nested: { beta: 2.5 } };
    expect(boundedCopy(source, rules)).toEqual({ alp: "abc", lis: [1, true, null, "xyz"], nes: { bet: 2.5 } });
    expect(boundedCopy(Number.NaN, { ...rules, other: (v) => String(v) })).toBe("NaN");
    expect(boundedCopy(undefined, rules)).toBeUndefined();
  });

  it("marks a value that contains itself, and copies a value reached twice without a cycle twice", () => {
    const shared = { k: 1 };
    const cyclic: Record<string, unknown> = { a: shared, b: shared, list: [] as unknown[] };
    cyclic.self = cyclic;
    (cyclic.list as unknown[]).push(cyclic.list);
    expect(boundedCopy(cyclic, { ...rules, text: (s: string) => s })).toEqual({
      a: { k: 1 },
      b: { k: 1 },
      list: ["[circular]"],
      self: "[circular]",
    });
  });

  it("replaces parts nested deeper than maxDepth and values past maxValues with markers that say so", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 10; i++) deep = [deep];
    expect(JSON.stringify(boundedCopy(deep, rules))).toBe('[[[["[nested deeper than 4 levels: left out]"]]]]');
    const many = Array.from({ length: 10 }, (_, i) => i);
    // The array itself counts one value: 4 of its items fit in 5.
    expect(boundedCopy(many, { ...rules, maxValues: 5 })).toEqual([0, 1, 2, 3, ...Array(6).fill("[more data: left out]")]);
  });

  it("follows toJSON and keeps own enumerable properties only", () => {
    const proto = { inherited: 1 };
    const own = Object.create(proto) as Record<string, unknown>;
    own.mine = 2;
    Object.defineProperty(own, "hidden", { value: 3, enumerable: false });
    expect(boundedCopy({ when: new Date(0), own }, { ...rules, maxDepth: 8, text: (s: string) => s })).toEqual({
      when: "1970-01-01T00:00:00.000Z",
      own: { mine: 2 },
    });
  });

  it("keeps a __proto__ key of parsed JSON as a key (assigned, it would set the copy's prototype and vanish)", () => {
    const copy = boundedCopy(JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'), { ...rules, text: (s: string) => s }) as object;
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"polluted":true},"a":1}');
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("walks a 100,000-level nesting without overflowing the stack", () => {
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    const copy = boundedCopy(deep, { ...rules, maxDepth: 32, text: (s: string) => s });
    expect(JSON.stringify(copy)).toContain("[nested deeper than 32 levels: left out]");
  });
});
