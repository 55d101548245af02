import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import { inferStartState, plan } from "../../src/planner/index.js";

const pipeline = [
  new ActionSpec({ name: "gather", effects: { has_data: true } }),
  new ActionSpec({ name: "analyze", preconditions: { has_data: true }, effects: { has_result: true, quality: 0.9 } }),
  new ActionSpec({ name: "report", preconditions: { has_result: true }, effects: { done: true } }),
];

describe("inferStartState", () => {
  it("defaults booleans to false and numbers to 0 for facts the caller did not give (closed world)", () => {
    const { state, inferred, undetermined } = inferStartState(pipeline);
    expect(state).toEqual({ done: false, has_data: false, has_result: false, quality: 0 });
    expect(inferred).toEqual(state);
    expect(undetermined).toEqual([]);
    expect(plan(state, { done: true }, pipeline)?.actionNames).toEqual(["gather", "analyze", "report"]);
  });

  it("keeps given facts, reads the goal, numeric conditions and declared bounds", () => {
    const actions = [
      new ActionSpec({ name: "chop", preconditions: { has_axe: true, stamina: { gte: 2 } }, effects: { wood: { inc: 2 } } }),
      new ActionSpec({ name: "rest", effects: { stamina: { set: 10 } } }),
    ];
    const result = inferStartState(actions, {
      goal: new GoalSpec({ conditions: { wood: { gte: 4 }, warm: true } }),
      given: { has_axe: true, stamina: 1 },
      facts: { wood: { type: "number", min: 1, max: 99 } },
    });
    expect(result.state).toEqual({ has_axe: true, stamina: 1, wood: 1, warm: false });
    expect(result.inferred).toEqual({ wood: 1, warm: false });
  });

  it("lists what cannot be guessed instead of guessing: strings, mixed types, function effects", () => {
    const actions = [
      new ActionSpec({ name: "travel", preconditions: { location: "home" }, effects: { location: "market" } }),
      new ActionSpec({ name: "odd", preconditions: { level: true }, effects: { level: 3 } }),
      new ActionSpec({ name: "compute", effects: (s) => ({ score: Number(s.level) * 2 }), effectKeys: ["score"] }),
      new ActionSpec({ name: "check", preconditions: { flag: { eq: null } } }),
    ];
    const result = inferStartState(actions, { given: { constructor: "kept" } });
    expect(result.undetermined).toEqual(["flag", "level", "location", "score"]);
    expect(result.state).toEqual({ constructor: "kept" });
  });
});
