/**
 * The loader's quick action check must never accept what the zod schema
 * refuses (it would let bad input in), and should accept ordinary actions
 * (or large domains would fall back to zod and load slowly).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isActionShape } from "../../src/core/action-shape.js";
import { actionSchema } from "../../src/core/domain-schema.js";

const fact = fc.oneof(fc.boolean(), fc.double(), fc.string({ maxLength: 3 }), fc.constant(null));
const anything = fc.oneof(
  fact,
  fc.constant(undefined),
  fc.array(fact, { maxLength: 2 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fact, { maxKeys: 2 }),
);
const operatorKey = fc.constantFrom("eq", "ne", "gt", "gte", "lt", "lte", "in", "inc", "dec", "set", "x");
const operators = fc.dictionary(operatorKey, fc.oneof(anything, fc.array(fact, { maxLength: 2 })), { maxKeys: 3 });
const record = (value: fc.Arbitrary<unknown>) => fc.oneof(fc.dictionary(fc.string({ maxLength: 3 }), value, { maxKeys: 3 }), anything);
const field = fc.constantFrom(
  "name",
  "preconditions",
  "effects",
  "cost",
  "resources",
  "durationMs",
  "description",
  "canRerun",
  "readOnly",
  "maxRetries",
  "utility",
  "metadata",
  "other",
);
const fuzzyAction = fc.dictionary(field, fc.oneof(anything, record(fc.oneof(fact, operators)), fc.integer({ min: -2, max: 3 })), {
  maxKeys: 6,
});

const validAction = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 5 }),
    preconditions: fc.dictionary(
      fc.string({ maxLength: 3 }),
      fc.oneof(
        fact.filter((v) => typeof v !== "number" || Number.isFinite(v)),
        fc.record({ gte: fc.integer() }),
        fc.record({ in: fc.array(fc.integer(), { minLength: 1, maxLength: 2 }) }),
      ),
      { maxKeys: 3 },
    ),
    effects: fc.dictionary(
      fc.string({ maxLength: 3 }),
      fc.oneof(fc.boolean(), fc.record({ inc: fc.integer() }), fc.record({ set: fc.string() })),
      { maxKeys: 3 },
    ),
    cost: fc.double({ min: 0, max: 1e6, noNaN: true }),
    maxRetries: fc.nat(5),
    metadata: fc.dictionary(fc.string({ maxLength: 3 }), anything, { maxKeys: 2 }),
  },
  { requiredKeys: ["name"] },
);

describe("isActionShape", () => {
  it("accepts only actions the zod schema accepts", () => {
    fc.assert(
      fc.property(fc.oneof(fuzzyAction, validAction), (raw) => {
        if (isActionShape(raw)) expect(actionSchema.safeParse(raw).success).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("accepts the ordinary actions zod accepts, so big domains take the quick path", () => {
    fc.assert(
      fc.property(validAction, (raw) => {
        expect(actionSchema.safeParse(raw).success).toBe(true);
        expect(isActionShape(raw)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("refuses the shapes zod refuses, leaving zod to word the error", () => {
    for (const bad of [
      {},
      { name: "" },
      { name: "a", cost: -1 },
      { name: "a", cost: Number.NaN },
      { name: "a", effects: { x: { inc: 1, dec: 1 } } },
      { name: "a", effects: { x: { inc: "1" } } },
      { name: "a", preconditions: { x: { in: [] } } },
      { name: "a", preconditions: { x: { gte: "3" } } },
      { name: "a", maxRetries: 1.5 },
      { name: "a", metadata: [] },
      { name: "a", extra: 1 },
      [],
      null,
    ]) {
      expect(isActionShape(bad)).toBe(false);
      expect(actionSchema.safeParse(bad).success).toBe(false);
    }
  });
});
