import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { replayPlan } from "../../src/planner/index.js";
import { planDependencies } from "../../src/viz/dependencies.js";
import { villagePlan } from "./fixtures.js";

describe("planDependencies (viz causal links)", () => {
  it("links each step to the nearest earlier step that produces what it needs", () => {
    const p = villagePlan();
    expect(planDependencies(p.actions, p.expectedStates)).toEqual([[], [0], [], [1, 2], [3]]);
  });

  it("skips writers that leave a precondition false, judged on expected states", () => {
    const light = new ActionSpec({ name: "light", effects: { lit: true } });
    const douse = new ActionSpec({ name: "douse", effects: { lit: false } });
    const read = new ActionSpec({ name: "read", preconditions: { lit: true }, effects: { read: true } });
    const actions = [light, douse, light, read];
    const { states } = replayPlan({}, actions);
    expect(planDependencies(actions, states)).toEqual([[], [], [], [2]]);
    // Without states only the writer is known: the nearest one counts.
    expect(planDependencies([light, douse, read])).toEqual([[], [], [1]]);
  });

  it("links numeric conditions to the increment that satisfied them", () => {
    const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 1 } } });
    const build = new ActionSpec({ name: "build", preconditions: { wood: { gte: 2 } }, effects: { house: true } });
    const actions = [chop, chop, chop, build];
    expect(planDependencies(actions, replayPlan({ wood: 0 }, actions).states)).toEqual([[], [], [], [2]]);
  });

  it("has no links for independent steps", () => {
    const a = new ActionSpec({ name: "a", effects: { x: true } });
    const b = new ActionSpec({ name: "b", preconditions: { y: true }, effects: { z: true } });
    expect(planDependencies([a, b])).toEqual([[], []]);
  });
});
