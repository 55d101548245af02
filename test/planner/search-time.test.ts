/**
 * `stats.searchTimeMs` is the search loop alone (as Fast Downward's "Search time"), `planningTimeMs` the whole call;
 * benchmarks beside FD compare the former. Both phases of the default policy count, and pauses do not.
 */
import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { planDetailed, planDetailedAsync } from "../../src/planner/index.js";

const chain = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => new ActionSpec({ name: `step_${i}`, preconditions: { [`s${i}`]: true }, effects: { [`s${i + 1}`]: true } }),
  );

describe("the search loop's time in the stats", () => {
  it("is reported beside the whole call's, never above it, with the heuristic that searched", () => {
    const result = planDetailed({ s0: true }, { s6: true }, chain(6));
    expect(result.status).toBe("found");
    const { searchTimeMs, planningTimeMs, heuristic } = result.stats;
    expect(searchTimeMs).toBeTypeOf("number");
    expect(searchTimeMs as number).toBeGreaterThanOrEqual(0);
    expect(searchTimeMs as number).toBeLessThanOrEqual(planningTimeMs);
    expect(heuristic).toBe(result.plan?.metadata.heuristic);
  });

  it("is absent when no search ran (the goal already holds)", () => {
    const result = planDetailed({ s0: true }, { s0: true }, chain(2));
    expect(result.status).toBe("found");
    expect(result.stats.searchTimeMs).toBeUndefined();
    expect(result.stats.heuristic).toBeUndefined();
  });

  it("is reported when the search stops without a plan, naming the heuristic", async () => {
    const result = await planDetailedAsync({ s0: true }, { s40: true }, chain(40), { heuristic: "zero", maxExpansions: 10 });
    expect(result.status).toBe("budget_exhausted");
    expect(result.stats.searchTimeMs).toBeTypeOf("number");
    expect(result.stats.heuristic).toBe("zero");
  });
});
