import { describe, expect, it } from "vitest";
import { longChainProblem } from "../../bench/problems.js";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { Plan, plan, planDetailed, replayPlan } from "../../src/planner/index.js";

describe("long plans", () => {
  it("plans a chain of 1,000 steps over 1,001 facts, building expected states only when read", () => {
    const { actions, start, goal } = longChainProblem(1000);
    const found = plan(start, goal, actions);
    expect(found?.length).toBe(1000);
    expect(found?.actionNames[999]).toBe("step_999");
    expect(found?.totalCost).toBe(1000);
    // The final state comes from the per-step changes, without building the 1,000 states (half a million entries).
    expect(found?.finalState.s1000).toBe(true);
    expect(Object.keys(found!.finalState)).toHaveLength(1001);
  });

  it("builds the right expected states when they are read", () => {
    const { actions, start, goal } = longChainProblem(300);
    const found = plan(start, goal, actions)!;
    expect(found.expectedStates).toHaveLength(300);
    expect(found.expectedStates[99]).toMatchObject({ s0: true, s100: true });
    expect(found.expectedStates[99]?.s101).toBeUndefined();
  });

  it("gives the expected states a replay gives", () => {
    const { actions, start, goal } = longChainProblem(40);
    const found = planDetailed(start, goal, actions, { heuristic: "hff" }).plan!;
    expect(found.expectedStates).toEqual(replayPlan(start, found.actions).states);
    expect(found.toJSON().expectedStates).toEqual(replayPlan(start, found.actions).states);
  });
});

describe("Plan from per-step changes", () => {
  const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 2 } }, cost: 2 });
  const build = new ActionSpec({ name: "build", preconditions: { wood: { gte: 4 } }, effects: { house: true, wood: { dec: 4 } } });

  it("builds expected states and the final state from the start state and each step's writes", () => {
    const p = new Plan({
      actions: [chop, chop, build],
      startState: { wood: 0, house: false },
      stateChanges: [{ wood: 2 }, { wood: 4 }, { house: true, wood: 0 }],
      totalCost: 5,
    });
    expect(p.finalState).toEqual({ wood: 0, house: true });
    expect(p.expectedStates).toEqual([
      { wood: 2, house: false },
      { wood: 4, house: false },
      { wood: 0, house: true },
    ]);
    expect(p.expectedStates).toBe(p.expectedStates);
    expect(Object.isFrozen(p.expectedStates)).toBe(true);
    // Copies keep the changes (and build nothing until read).
    expect(p.with({ totalCost: 6 }).expectedStates).toEqual(p.expectedStates);
    expect(p.with({ metadata: { strategy: "x" } }).finalState).toEqual({ wood: 0, house: true });
  });

  it("refuses changes that do not match the actions", () => {
    expect(() => new Plan({ actions: [chop, chop], startState: {}, stateChanges: [{ wood: 2 }], totalCost: 4 })).toThrow(LangGoapError);
  });
});
