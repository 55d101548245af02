/**
 * Steps with nothing to decide go straight on (issue 33): the executor's
 * conditional edge sends the run to its next step without an observer
 * superstep when the observer would only have sent it on. Whatever the
 * observer has to decide (a termination policy to consult, a failure, a
 * deviation, `every_action` replanning, the goal) still goes through it, and
 * a checkpoint saved by the graph that observed every step still resumes.
 */
import { MemorySaver, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { GoalSpec } from "../../src/core/index.js";
import { GoapGraph, type GoapState, MaxActionsPolicy, successfulActionNames } from "../../src/graph/index.js";
import { quietLogger, tracked, updateTrail } from "./support.js";

function chain(calls: string[]) {
  return [
    tracked(calls, { name: "fetch_wood", effects: { wood: true } }),
    tracked(calls, { name: "cut_planks", preconditions: { wood: true }, effects: { planks: true } }),
    tracked(calls, { name: "build", preconditions: { planks: true }, effects: { house: true } }),
  ];
}

const thread = (id: string) => ({ configurable: { thread_id: id } });

describe("steps with nothing to decide go straight on", () => {
  it("a plan runs step after step and is observed once, at the goal", async () => {
    const graph = new GoapGraph(chain([]), { logger: quietLogger() });
    const trail = await updateTrail(await graph.stream({ house: true }, {}, { streamMode: "updates" }));
    expect(trail).toEqual([
      "planner executing plan=fetch_wood,cut_planks,build",
      "executor executing",
      "executor executing",
      "executor executing",
      "observer goal_achieved reason=null",
    ]);
  });

  it("a termination policy is consulted after every step: the observer runs after each", async () => {
    const graph = new GoapGraph(chain([]), { logger: quietLogger(), terminationPolicies: [new MaxActionsPolicy(10)] });
    const trail = await updateTrail(await graph.stream({ house: true }, {}, { streamMode: "updates" }));
    expect(trail.filter((line) => line.startsWith("observer"))).toHaveLength(3);
    expect(trail.at(-1)).toBe("observer goal_achieved reason=null");
  });

  it("every_action replanning goes through the observer after every step", async () => {
    const graph = new GoapGraph(chain([]), { logger: quietLogger() });
    const goal = new GoalSpec({ conditions: { house: true }, policy: { replanStrategy: "every_action" } });
    const trail = await updateTrail(await graph.stream(goal, {}, { streamMode: "updates" }));
    expect(trail.filter((line) => line.startsWith("observer"))).toEqual([
      "observer - reason=every_action_replan",
      "observer - reason=every_action_replan",
      "observer goal_achieved reason=null",
    ]);
  });

  it("a step that does not turn out as planned is observed and replanned", async () => {
    const calls: string[] = [];
    // fetch_wood also brings planks: the plan's next step is no longer needed.
    const actions = chain(calls);
    actions[0] = tracked(calls, { name: "fetch_wood", effects: { wood: true }, run: () => ({ wood: true, planks: true }) });
    const graph = new GoapGraph(actions, { logger: quietLogger() });
    const trail = await updateTrail(await graph.stream({ house: true }, {}, { streamMode: "updates" }));
    expect(trail).toEqual([
      "planner executing plan=fetch_wood,cut_planks,build",
      "executor executing",
      "observer - reason=state_deviation",
      "planner executing plan=build",
      "executor executing",
      "observer goal_achieved reason=null",
    ]);
    expect(calls).toEqual(["fetch_wood", "build"]);
  });

  it("interruptAfter the executor pauses after every step, also those going straight on", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph(chain(calls), { logger: quietLogger() });
    const app = graph.compile({ checkpointer: new MemorySaver(), interruptAfter: ["executor"] });
    const config = thread("after-executor");
    await app.invoke(graph.createInput({ house: true }, {}), config);
    const pauses: string[][] = [];
    for (let i = 0; i < 10; i++) {
      const snapshot = await app.getState(config);
      if (snapshot.next.length === 0) break;
      pauses.push([...calls, ...snapshot.next]);
      await app.invoke(null, config);
    }
    expect(pauses).toEqual([
      ["fetch_wood", "executor"],
      ["fetch_wood", "cut_planks", "executor"],
      ["fetch_wood", "cut_planks", "build", "observer"],
    ]);
    expect(((await app.getState(config)).values as GoapState).status).toBe("goal_achieved");
  });

  it("a checkpoint saved by the graph that observed every step (paused before the observer) resumes here", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph(chain(calls), { logger: quietLogger() });
    const checkpointer = new MemorySaver();
    // The topology before issue 33: a plain edge from the executor to the observer.
    const observedEveryStep = new StateGraph(graph.state)
      .addNode("planner", (state, config) => graph.planner.run(state as GoapState, config))
      .addNode("executor", (state, config) => graph.executor.run(state as GoapState, config))
      .addNode("observer", (state, config) => graph.observer.run(state as GoapState, config))
      .addEdge("__start__", "planner")
      .addEdge("planner", "executor")
      .addEdge("executor", "observer")
      .addConditionalEdges("observer", (state) => (state as GoapState).nextNode ?? "__end__", ["planner", "executor", "__end__"])
      .compile({ checkpointer, interruptBefore: ["observer"] });
    const config = thread("old-checkpoint");
    await observedEveryStep.invoke(graph.createInput({ house: true }, {}), config);
    expect((await observedEveryStep.getState(config)).next).toEqual(["observer"]);
    expect(calls).toEqual(["fetch_wood"]);

    const app = graph.compile({ checkpointer });
    const done = (await app.invoke(null, config)) as GoapState;
    expect(done.status).toBe("goal_achieved");
    expect(calls).toEqual(["fetch_wood", "cut_planks", "build"]);
    expect(successfulActionNames(done)).toEqual(["fetch_wood", "cut_planks", "build"]);
  });
});
