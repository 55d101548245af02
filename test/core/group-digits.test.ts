import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { truncateText } from "../../src/core/display-text.js";
import { groupDigits } from "../../src/core/group-digits.js";
import { ActionSpec } from "../../src/core/index.js";
import { planDetailed } from "../../src/planner/index.js";

describe("groupDigits", () => {
  afterEach(() => vi.restoreAllMocks());

  it("writes whole numbers as toLocaleString('en-US') does", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(groupDigits(n)).toBe(n.toLocaleString("en-US"));
      }),
      { numRuns: 500, seed: 3 },
    );
    expect(groupDigits(1675.4)).toBe("1,675");
    expect(groupDigits(-1234)).toBe("-1,234");
    expect(groupDigits(1e21)).toBe("1,000,000,000,000,000,000,000");
  });

  it("leaves Intl alone: a budget's message and a cut text's marker format no number by locale (the marker's formatter was built when display-text.ts loaded)", () => {
    // A process's first locale-aware format loads ICU's number data: tens of ms on the event loop.
    const toLocale = vi.spyOn(Number.prototype, "toLocaleString");
    // n counts 0, 2, 4, ...: finish never applies, and no search can prove it.
    const actions = [
      new ActionSpec({ name: "add_two", effects: { n: { inc: 2 } } }),
      new ActionSpec({ name: "finish", preconditions: { n: 3 }, effects: { done: true } }),
    ];
    const stopped = planDetailed({ n: 0, done: false }, { done: true }, actions, {
      maxExpansions: 1234,
      timeBudgetMs: Number.POSITIVE_INFINITY,
    });
    expect(stopped.budget?.message).toContain("1,234 expansions");
    expect(truncateText("x".repeat(12_000), 10)).toBe("xxxxxxxxxx… [11,990 of 12,000 characters cut]");
    expect(toLocale).not.toHaveBeenCalled();
  });
});
