import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import { GoalRegistry, GoapGraph } from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

const inc = new ActionSpec({ name: "inc", effects: { n: { inc: 1 } }, execute: (s) => ({ n: (s.n as number) + 1 }) });

describe("what a GOAP step writes", () => {
  it("an executor step writes the channels it changes, and goes straight on to the next step when there is nothing to decide", async () => {
    const graph = new GoapGraph([inc], { logger: quietLogger() });
    const app = graph.compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "writes" }, streamMode: "updates" as const };
    const chunks: [string, string[]][] = [];
    for await (const chunk of await app.stream(graph.createInput(new GoalSpec({ conditions: { n: 4 } }), { n: 0 }), config)) {
      for (const [node, update] of Object.entries(chunk as Record<string, Record<string, unknown> | null>)) {
        chunks.push([node, Object.keys(update ?? {}).sort()]);
      }
    }
    const step = ["currentStep", "executionHistory", "rngState", "status", "worldState"];
    // No observer superstep between steps: the observer runs once, when the goal holds.
    expect(chunks.map(([node]) => node)).toEqual(["planner", "executor", "executor", "executor", "executor", "observer"]);
    // The first step also sets the count of its results; later steps only move the run on.
    expect(chunks[1]?.[1]).toEqual(["currentStep", "executionHistory", "lastStepResultCount", "rngState", "status", "worldState"]);
    for (const i of [2, 3, 4]) expect(chunks[i]?.[1]).toEqual(step);
    expect(chunks[5]?.[1]).toEqual(["nextNode", "replanReason", "status"]);
    // One checkpoint per step: input, start, planner, four executor steps, the observer.
    let checkpoints = 0;
    for await (const _ of app.getStateHistory({ configurable: { thread_id: "writes" } })) checkpoints++;
    expect(checkpoints).toBe(8);

    // What was not rewritten still reads as before.
    const state = (await app.getState({ configurable: { thread_id: "writes" } })).values;
    expect(state.status).toBe("goal_achieved");
    expect(state.worldState).toEqual({ n: 4 });
    expect(state.executionHistory.map((r: { actionName: string; success: boolean }) => [r.actionName, r.success])).toEqual([
      ["inc", true],
      ["inc", true],
      ["inc", true],
      ["inc", true],
    ]);
    expect(state.lastStepResultCount).toBe(1);
    expect(state.humanInput).toEqual({});
    expect(state.currentStep).toBe(4);
  });

  it("a goal restored from the same data object follows the registry when a goal with the same JSON is registered later", () => {
    const registry = new GoalRegistry();
    const first = new GoalSpec({ conditions: { done: true }, value: () => 1 });
    const data = registry.toData(first);
    expect(registry.restore(data)).toBe(first);
    expect(registry.restore(data)).toBe(first);
    const second = new GoalSpec({ conditions: { done: true }, value: () => 2 });
    registry.toData(second);
    expect(registry.restore(data)).toBe(second);
  });
});
