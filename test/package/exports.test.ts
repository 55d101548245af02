/**
 * The root barrel and the planner's entry name the public API only: the
 * search engine's internals (compiled problems, the relaxed model, the
 * heuristic factory) are `@internal` and stay importable from their source
 * files for tests, not from the package.
 */
import { describe, expect, it } from "vitest";

// Runtime names (the types `CompiledProblem` and `Heuristic` left the barrels with them; tsc checks those).
const INTERNALS = ["RelaxedModel", "createHeuristic", "compileProblem"];

describe("the package's entry points", () => {
  it("do not export the search engine's internals", async () => {
    const root = Object.keys(await import("../../src/index.js"));
    const planner = Object.keys(await import("../../src/planner/index.js"));
    for (const name of INTERNALS) {
      expect(root).not.toContain(name);
      expect(planner).not.toContain(name);
    }
    // The public planner API is still there.
    expect(root).toEqual(expect.arrayContaining(["plan", "planDetailed", "AStarStrategy", "StrategyRouter", "BasePlanningStrategy"]));
  });
});
