import { describe, expect, it } from "vitest";
import { ReuseGate } from "../../src/planner/heuristics/reuse-gate.js";

/** Offers `offers` plans; after each kept one, `skipsPerKept` children skip through it (fractions accumulate). */
function run(gate: ReuseGate, offers: number, skipsPerKept: number): number {
  let owed = 0;
  let kept = 0;
  for (let i = 0; i < offers; i++) {
    if (!gate.offer()) continue;
    kept++;
    owed += skipsPerKept;
    for (; owed >= 1; owed--) gate.skipped();
  }
  return kept;
}

describe("ReuseGate", () => {
  it("keeps every plan while they pay (three skips each, as on openstacks)", () => {
    expect(run(new ReuseGate(), 10_000, 3)).toBe(10_000);
  });

  it("keeps the warm-up plans, then one offer in 16 where plans seldom pay (one skip in forty, as on depot)", () => {
    const gate = new ReuseGate();
    const kept = run(gate, 10_000, 1 / 40);
    // 128 in the warm-up, then the samples (every 16th offer, counted from the first): 10,000 / 16 of them.
    expect(kept).toBeGreaterThanOrEqual(ReuseGate.WARM_UP + Math.floor((10_000 - ReuseGate.WARM_UP) / 16));
    expect(kept).toBeLessThanOrEqual(ReuseGate.WARM_UP + Math.ceil(10_000 / 16) + 1);
    expect(gate.kept).toBe(kept);
  });

  it("keeps plans again when skips come back, and forgets its counts at reset", () => {
    const gate = new ReuseGate();
    run(gate, 2_000, 0);
    const before = gate.kept;
    // Enough skips to cover every plan kept so far at one skip per 2: every offer is kept again.
    for (let i = 0; i < before; i++) gate.skipped();
    expect(run(gate, 100, 1)).toBe(100);
    gate.reset();
    expect(gate.kept).toBe(0);
    expect(run(gate, ReuseGate.WARM_UP, 0)).toBe(ReuseGate.WARM_UP);
  });
});
