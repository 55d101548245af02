import { describe, expect, it } from "vitest";
import {
  CHAIN_INSTANCES,
  chainProblem,
  chainToLanggoap,
  fingerprint,
  RESOURCE_INSTANCES,
  resourceProblem,
  resourceToLanggoap,
} from "../../bench/problems.js";
import { planDetailed } from "../../src/planner/index.js";

describe("benchmark generators", () => {
  it.each([
    ["chain-S", "d4ba19fb0ab5344b", 14],
    ["chain-M", "b64dcbf0b1ad7e05", 13],
    ["chain-L", "d1046b7b81494406", 17],
    ["chain-XL", "0c7efaeeaf111491", 15],
  ] as const)("%s has fingerprint %s and optimal cost %d", (name, expected, cost) => {
    const problem = chainProblem(CHAIN_INSTANCES[name]);
    expect(fingerprint(problem)).toBe(expected);
    const { actions, start, goal } = chainToLanggoap(problem);
    const result = planDetailed(start, goal, actions);
    expect(result.plan?.totalCost).toBe(cost);
  });

  it("chain problems follow the spec's shape", () => {
    const p = chainProblem(CHAIN_INSTANCES["chain-S"]);
    expect(p.actions).toHaveLength(24);
    expect(p.actions.slice(0, 8).map((a) => a.name)).toEqual(["c0", "c1", "c2", "c3", "c4", "c5", "c6", "c7"]);
    for (const [i, a] of p.actions.slice(0, 8).entries()) {
      expect(a.add).toEqual([i]);
      if (i > 0) expect(a.pre).toContain(i - 1);
      expect(a.del.every((f) => f >= 8 && !a.pre.includes(f))).toBe(true);
    }
    for (const a of p.actions.slice(8)) {
      expect(a.add.every((f) => f >= 8)).toBe(true);
      expect(a.del.includes(7)).toBe(false);
      expect(a.cost >= 1 && a.cost <= 3).toBe(true);
      expect([...a.pre].sort((x, y) => x - y)).toEqual(a.pre);
    }
  });

  it.each([
    ["res-1", 21],
    ["res-2", 66],
  ] as const)("%s is solved optimally with cost %d", (name, cost) => {
    const { actions, start, goal } = resourceToLanggoap(resourceProblem(RESOURCE_INSTANCES[name]));
    const result = planDetailed(start, goal, actions);
    expect(result.plan?.totalCost).toBe(cost);
    expect(result.plan?.actionNames.filter((n) => n === "build")).toHaveLength(RESOURCE_INSTANCES[name].H);
  });
});
