import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { planDependencies } from "../../src/viz/index.js";
import { villagePlan } from "./fixtures.js";

describe("planDependencies", () => {
  it("links each step to the last earlier writer of every key it needs", () => {
    expect(planDependencies(villagePlan().actions)).toEqual([[], [0], [], [1, 2], [3]]);
  });

  it("links numeric conditions to the latest increment, and function effects by their keys", () => {
    const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 1 } } });
    const roll = new ActionSpec({ name: "roll", effects: () => ({ luck: 3 }), effectKeys: ["luck"] });
    const build = new ActionSpec({ name: "build", preconditions: { wood: { gte: 2 }, luck: { gt: 1 } }, effects: { house: true } });
    expect(planDependencies([chop, roll, chop, build])).toEqual([[], [], [], [1, 2]]);
  });

  it("has no links for independent steps", () => {
    const a = new ActionSpec({ name: "a", effects: { x: true } });
    const b = new ActionSpec({ name: "b", preconditions: { y: true }, effects: { z: true } });
    expect(planDependencies([a, b])).toEqual([[], []]);
  });
});
