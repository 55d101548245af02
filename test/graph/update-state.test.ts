/**
 * `updateState` between steps, as LangGraph users write it: a world change
 * made with no `asNode`, or as the observer, the planner or the executor,
 * makes the run replan from the new world before it runs another step.
 */
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { GoalSpec } from "../../src/core/index.js";
import { GoapGraph, type GoapNodeName, type GoapState, successfulActionNames } from "../../src/graph/index.js";
import { quietLogger, tracked } from "./support.js";

function houseDomain(calls: string[]) {
  return [
    tracked(calls, { name: "fetch_wood", effects: { wood: true } }),
    tracked(calls, { name: "cut_planks", preconditions: { wood: true }, effects: { planks: true } }),
    tracked(calls, { name: "build", preconditions: { planks: true }, effects: { house: true } }),
  ];
}

const thread = (id: string) => ({ configurable: { thread_id: id } });

/** A graph that stops before every executor step, so a test can edit the state between steps. */
function steppedGraph(calls: string[]) {
  const graph = new GoapGraph(houseDomain(calls), { logger: quietLogger() });
  const app = graph.compile({ checkpointer: new MemorySaver(), interruptBefore: ["executor"] });
  return { graph, app };
}

/** Continues a stepped run until it ends. */
async function runToEnd(app: ReturnType<typeof steppedGraph>["app"], config: ReturnType<typeof thread>): Promise<GoapState> {
  for (let i = 0; i < 20; i++) {
    await app.invoke(null, config);
    const snapshot = await app.getState(config);
    if (snapshot.next.length === 0) return snapshot.values as GoapState;
  }
  throw new Error("the run did not end");
}

describe("updateState between steps", () => {
  const forms: readonly (GoapNodeName | undefined)[] = [undefined, "observer", "planner", "executor"];
  for (const asNode of forms) {
    it(`a world change ${asNode ? `as "${asNode}"` : "with no asNode"} replans from the new world`, async () => {
      const calls: string[] = [];
      const { graph, app } = steppedGraph(calls);
      const config = thread(`between-${asNode ?? "none"}`);
      await app.invoke(graph.createInput({ house: true }, {}), config);
      await app.invoke(null, config); // fetch_wood, then stop before the next step
      expect(calls).toEqual(["fetch_wood"]);
      const paused = (await app.getState(config)).values as GoapState;
      expect(paused.plan?.actions).toEqual(["fetch_wood", "cut_planks", "build"]);
      expect(paused.currentStep).toBe(1);

      // Someone delivers planks: cutting them is no longer needed.
      await app.updateState(config, { worldState: { ...paused.worldState, planks: true } }, asNode);
      const done = await runToEnd(app, config);
      expect(done.status).toBe("goal_achieved");
      expect(calls).toEqual(["fetch_wood", "build"]);
      expect(done.plan?.actions).toEqual(["build"]);
      expect(done.replanCount).toBe(1);
      expect(successfulActionNames(done)).toEqual(["fetch_wood", "build"]);
    });
  }

  it("a change before the first step replans too (no asNode)", async () => {
    const calls: string[] = [];
    const { graph, app } = steppedGraph(calls);
    const config = thread("before-first");
    await app.invoke(graph.createInput({ house: true }, {}), config);
    await app.updateState(config, { worldState: { wood: true } });
    const done = await runToEnd(app, config);
    expect(calls).toEqual(["cut_planks", "build"]);
    expect(done.plan?.actions).toEqual(["cut_planks", "build"]);
  });

  it("a change to facts the plan does not use runs on without replanning", async () => {
    const calls: string[] = [];
    const { graph, app } = steppedGraph(calls);
    const config = thread("irrelevant");
    await app.invoke(graph.createInput({ house: true }, {}), config);
    await app.invoke(null, config);
    const paused = (await app.getState(config)).values as GoapState;
    await app.updateState(config, { worldState: { ...paused.worldState, weather: "rain" } });
    const done = await runToEnd(app, config);
    expect(calls).toEqual(["fetch_wood", "cut_planks", "build"]);
    expect(done.replanCount).toBe(0);
    expect(done.worldState.weather).toBe("rain");
  });

  it("under replanStrategy never, the plan runs on as made", async () => {
    const calls: string[] = [];
    const { graph, app } = steppedGraph(calls);
    const config = thread("never");
    const never = new GoalSpec({ conditions: { house: true }, policy: { replanStrategy: "never" } });
    await app.invoke(graph.createInput(never, {}), config);
    await app.invoke(null, config);
    const paused = (await app.getState(config)).values as GoapState;
    await app.updateState(config, { worldState: { ...paused.worldState, planks: true } });
    const done = await runToEnd(app, config);
    expect(calls).toEqual(["fetch_wood", "cut_planks", "build"]);
    expect(done.replanCount).toBe(0);
  });

  it("an ended run stays ended: a change after the end is kept, nothing runs", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph(houseDomain(calls), { logger: quietLogger() });
    const app = graph.compile({ checkpointer: new MemorySaver() });
    const config = thread("ended");
    await graph.invoke({ house: true }, {}, config);
    await app.updateState(config, { worldState: { house: false } });
    const after = (await app.invoke(null, config)) as GoapState;
    expect(after.status).toBe("goal_achieved");
    expect(after.worldState).toEqual({ house: false });
    expect(calls).toEqual(["fetch_wood", "cut_planks", "build"]);
  });
});
