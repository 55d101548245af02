import { CompiledStateGraph, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { GoapGraph, type GoapState, type GoapStreamEvent } from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

function domain() {
  return [
    new ActionSpec({ name: "gather", effects: { wood: true } }),
    new ActionSpec({ name: "build", preconditions: { wood: true }, effects: { house: true }, requireHumanApproval: true }),
  ];
}
const noApproval = () => [
  new ActionSpec({ name: "gather", effects: { wood: true } }),
  new ActionSpec({ name: "build", preconditions: { wood: true }, effects: { house: true } }),
];
const thread = (id: string) => ({ configurable: { thread_id: id } });

describe("the compiled graph is a real LangGraph graph", () => {
  it("is a CompiledStateGraph with planner, executor and observer, the executor and the observer routing by conditional edges", async () => {
    const app = new GoapGraph(noApproval(), { logger: quietLogger() }).compile();
    expect(app).toBeInstanceOf(CompiledStateGraph);
    const mermaid = (await app.getGraphAsync()).drawMermaid();
    for (const line of [
      "__start__ --> planner;",
      "planner --> executor;",
      "executor -.-> observer;",
      "executor -.-> executor;",
      "observer -.-> planner;",
      "observer -.-> executor;",
      "observer -.-> __end__;",
    ]) {
      expect(mermaid).toContain(line);
    }
  });

  it("streams values: the input first, the final state last", async () => {
    const graph = new GoapGraph(noApproval(), { logger: quietLogger() });
    const states: GoapState[] = [];
    for await (const chunk of await graph.stream({ house: true }, {}, { streamMode: "values" })) states.push(chunk as GoapState);
    expect(states[0]?.status).toBe("executing");
    expect(states[0]?.plan).toBeNull();
    expect(states.at(-1)?.status).toBe("goal_achieved");
    expect(states.at(-1)?.worldState).toEqual({ wood: true, house: true });
    // input, planner, executor, executor, observer: after the first step there is nothing to decide (the run goes straight
    // on), after the second the goal holds and the observer ends the run.
    expect(states.map((s) => s.currentStep)).toEqual([0, 0, 1, 2, 2]);
    expect(states.map((s) => s.nextNode)).toEqual([null, null, null, null, "__end__"]);
  });

  it("streams custom GOAP events and several modes at once", async () => {
    const graph = new GoapGraph(noApproval(), { logger: quietLogger() });
    const custom: GoapStreamEvent[] = [];
    const modes = new Set<string>();
    for await (const [mode, chunk] of await graph.stream({ house: true }, {}, { streamMode: ["custom", "updates", "debug"] })) {
      modes.add(mode as string);
      if (mode === "custom") custom.push(chunk as GoapStreamEvent);
    }
    expect([...modes].sort()).toEqual(["custom", "debug", "updates"]);
    expect(custom).toEqual([
      { kind: "plan", actions: ["gather", "build"], totalCost: 2, replan: false },
      { kind: "action", actionName: "gather", success: true, error: null },
      { kind: "action", actionName: "build", success: true, error: null },
      { kind: "finish", status: "goal_achieved", reason: null },
    ]);
  });

  it("streams checkpoints and tasks with a checkpointer", async () => {
    const graph = new GoapGraph(noApproval(), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const seen: Record<string, number> = {};
    for await (const [mode] of await graph.stream({ house: true }, {}, { ...thread("modes"), streamMode: ["checkpoints", "tasks"] })) {
      seen[mode as string] = (seen[mode as string] ?? 0) + 1;
    }
    // input, start, planner, executor, executor, observer; each of the 4 tasks starts and ends (the observer only at the end).
    expect(seen.checkpoints).toBe(6);
    expect(seen.tasks).toBe(8);
  });

  it("getState, getStateHistory and updateState work on an interrupted run", async () => {
    const graph = new GoapGraph(domain(), { logger: quietLogger() });
    const app = graph.compile({ checkpointer: new MemorySaver() });
    const config = thread("inspect");
    await graph.invoke({ house: true }, {}, config);

    const paused = await app.getState(config);
    expect(paused.next).toEqual(["executor"]);
    expect(paused.tasks[0]?.interrupts[0]?.value).toMatchObject({ type: "goap_action_approval", action: "build" });
    expect((paused.values as GoapState).worldState).toEqual({ wood: true });
    expect((paused.values as GoapState).currentStep).toBe(1);
    expect((paused.values as GoapState).status).toBe("awaiting_human");
    expect((paused.values as GoapState).awaitingHuman).toEqual({ action: "build", kind: "goap_action_approval" });

    let checkpoints = 0;
    for await (const snapshot of app.getStateHistory(config)) {
      checkpoints++;
      expect(snapshot.config.configurable?.thread_id).toBe("inspect");
    }
    expect(checkpoints).toBe(6); // input, start, planner, executor, executor (announces the question), observer

    // A person edits the world while the run waits (as if the planner had written it), then approves.
    await app.updateState(config, { worldState: { wood: true, permit: "B-42" } }, "planner");
    expect((await app.getState(config)).next).toEqual(["executor"]);
    const done = await graph.resume(true, config);
    expect(done.status).toBe("goal_achieved");
    expect(done.awaitingHuman).toBeNull();
    expect(done.worldState).toEqual({ wood: true, permit: "B-42", house: true });
    const finished = await app.getState(config);
    expect(finished.next).toEqual([]);
  });

  it("explains that human approval needs a checkpointer", async () => {
    const graph = new GoapGraph(domain(), { logger: quietLogger() });
    await expect(graph.invoke({ house: true }, {})).rejects.toThrow(
      'action "build" asks for human approval, which pauses the run: compile with a checkpointer',
    );
  });

  it("supports interruptBefore on GOAP nodes", async () => {
    const graph = new GoapGraph(noApproval(), { logger: quietLogger() });
    const app = graph.compile({ checkpointer: new MemorySaver(), interruptBefore: ["executor"] });
    const config = thread("before");
    await app.invoke(graph.createInput({ house: true }, {}), config);
    expect((await app.getState(config)).next).toEqual(["executor"]);
    await app.invoke(null, config);
    await app.invoke(null, config);
    const done = (await app.getState(config)).values as GoapState;
    expect(done.status).toBe("goal_achieved");
  });

  it("a new input on a finished thread starts a fresh run", async () => {
    const graph = new GoapGraph(noApproval(), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const config = thread("again");
    await graph.invoke({ house: true }, {}, config);
    const second = await graph.invoke({ wood: true }, {}, config);
    expect(second.status).toBe("goal_achieved");
    expect(second.executionHistory.map((r) => r.actionName)).toEqual(["gather"]);
  });
});
