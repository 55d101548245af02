import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import { GoapGraph, successfulActionNames } from "../../src/graph/index.js";
import { quietLogger, updateTrail } from "./support.js";

/** research → write (fast, fails once) → publish; a premium writer is the costlier alternative. */
function writerDomain() {
  const calls: string[] = [];
  let fastFailures = 0;
  const actions = [
    new ActionSpec({
      name: "research",
      effects: { researched: true },
      cost: 1,
      execute: () => {
        calls.push("research");
      },
    }),
    new ActionSpec({
      name: "write_fast",
      preconditions: { researched: true },
      effects: { drafted: true },
      cost: 1,
      execute: () => {
        calls.push("write_fast");
        if (fastFailures++ === 0) throw new Error("rate limited");
      },
    }),
    new ActionSpec({
      name: "write_premium",
      preconditions: { researched: true },
      effects: { drafted: true },
      cost: 5,
      execute: () => {
        calls.push("write_premium");
      },
    }),
    new ActionSpec({
      name: "publish",
      preconditions: { drafted: true },
      effects: { published: true },
      cost: 1,
      execute: () => {
        calls.push("publish");
      },
    }),
  ];
  return { actions, calls };
}

const goal = new GoalSpec({ conditions: { published: true } });

describe("flaky writer", () => {
  it("replans once around the failed fast writer and finishes with the premium one", async () => {
    const { actions, calls } = writerDomain();
    const graph = new GoapGraph(actions, { logger: quietLogger() });
    const result = await graph.invoke(goal, {});

    expect(result.status).toBe("goal_achieved");
    expect(result.replanCount).toBe(1);
    expect(result.replanReason).toBeNull();
    expect(result.blacklistedActions).toEqual(["write_fast"]);
    expect(result.actionFailureCounts).toEqual({ write_fast: 1 });
    expect(calls).toEqual(["research", "write_fast", "write_premium", "publish"]);
    expect(successfulActionNames(result)).toEqual(["research", "write_premium", "publish"]);
    expect(result.plan?.actions).toEqual(["write_premium", "publish"]);
    expect(result.plan?.totalCost).toBe(6);
    expect(result.worldState).toEqual({ researched: true, drafted: true, published: true });
    expect(
      result.executionHistory.map(({ actionName, success, error, failure, attempts, stateBefore, stateAfter }) => ({
        actionName,
        success,
        error,
        failure,
        attempts,
        stateBefore,
        stateAfter,
      })),
    ).toEqual([
      { actionName: "research", success: true, error: null, failure: null, attempts: 1, stateBefore: {}, stateAfter: { researched: true } },
      {
        actionName: "write_fast",
        success: false,
        error: "rate limited",
        failure: "error",
        attempts: 1,
        stateBefore: { researched: true },
        stateAfter: { researched: true },
      },
      {
        actionName: "write_premium",
        success: true,
        error: null,
        failure: null,
        attempts: 1,
        stateBefore: { researched: true },
        stateAfter: { researched: true, drafted: true },
      },
      {
        actionName: "publish",
        success: true,
        error: null,
        failure: null,
        attempts: 1,
        stateBefore: { researched: true, drafted: true },
        stateAfter: { researched: true, drafted: true, published: true },
      },
    ]);
  });

  it("passes through exactly these node updates and statuses", async () => {
    const { actions } = writerDomain();
    const graph = new GoapGraph(actions, { logger: quietLogger() });
    const trail = await updateTrail(await graph.stream(goal, {}, { streamMode: "updates" }));
    expect(trail).toEqual([
      "planner executing plan=research,write_fast,publish",
      "executor executing",
      // Nothing to decide after research: straight on to the next step.
      "executor action_failed",
      "observer - reason=action_failed",
      "planner executing plan=write_premium,publish",
      "executor executing",
      // The first step after a replan is observed (the observer's last decision was to plan): it sends the run on.
      "observer -",
      "executor executing",
      "observer goal_achieved reason=null",
    ]);
  });
});
