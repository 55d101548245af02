/**
 * With LangSmith tracing on for the graph (LANGSMITH_TRACING, as a LangGraph
 * user turns it on), a run is one trace: LangGraph's root run, its nodes
 * (planner, executor, observer, the named route), and LangSmithTracer's
 * `goap.run` nested under the graph's run with each action under the
 * executor node's run that ran it. Sent to a loopback stub of the API.
 */
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { traceable } from "langsmith/traceable";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { LangSmithTracer } from "../../src/tracing/index.js";
import { quietLogger } from "../graph/support.js";
import { type LangSmithStub, type StubRun, startLangSmithStub } from "../support/langsmith-stub.js";

let stub: LangSmithStub;
const saved = { ...process.env };
beforeAll(async () => {
  stub = await startLangSmithStub();
  Object.assign(process.env, { LANGSMITH_TRACING: "true", LANGSMITH_ENDPOINT: stub.url, LANGSMITH_API_KEY: "test-key" });
});
afterAll(async () => {
  for (const key of ["LANGSMITH_TRACING", "LANGSMITH_ENDPOINT", "LANGSMITH_API_KEY"]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
  await stub.close();
});

function domain() {
  const lookup = traceable(async (topic: string) => `notes on ${topic}`, { name: "lookup" });
  return [
    new ActionSpec({
      name: "research",
      effects: { researched: true },
      execute: async (state) => ({ researched: true, notes: await lookup(String(state.topic)) }),
    }),
    new ActionSpec({ name: "publish", preconditions: { researched: true }, effects: { published: true } }),
  ];
}

describe("LangSmithTracer inside a traced graph", () => {
  it("3 runs are 3 traces: goap.run under the graph's run, actions under the executor's run, nodes named", async () => {
    const graph = new GoapGraph(domain(), { tracer: new LangSmithTracer(), logger: quietLogger() });
    const results = await Promise.all(["GOAP", "HTN", "BT"].map((topic) => graph.invoke({ published: true }, { topic })));
    expect(results.map((r) => r.status)).toEqual(["goal_achieved", "goal_achieved", "goal_achieved"]);
    await awaitAllCallbacks();
    // LangChain's client sends in background batches: wait until every trace has arrived, ended.
    const ended = (name: string) => [...stub.runs.values()].filter((r) => r.name === name && r.end_time).length;
    await stub.arrived(() => ended("LangGraph") >= 3 && ended("goap.run") >= 3 && ended("lookup") >= 3);

    const runs = [...stub.runs.values()];
    const byId = new Map(runs.map((r) => [r.id, r]));
    const parentOf = (run: StubRun | undefined) => (run?.parent_run_id ? byId.get(run.parent_run_id) : undefined);
    const roots = runs.filter((r) => !r.parent_run_id);
    expect(roots.map((r) => r.name)).toEqual(["LangGraph", "LangGraph", "LangGraph"]);
    expect(new Set(runs.map((r) => r.trace_id)).size).toBe(3);

    const goapRuns = runs.filter((r) => r.name === "goap.run");
    expect(goapRuns).toHaveLength(3);
    for (const goapRun of goapRuns) expect(parentOf(goapRun)?.name).toBe("LangGraph");

    const actions = runs.filter((r) => r.name?.startsWith("goap.action "));
    expect(actions).toHaveLength(6);
    for (const action of actions) {
      const executor = parentOf(action);
      expect(executor?.name).toBe("executor");
      expect(executor?.trace_id).toBe(action.trace_id);
      // The action's trace is the one its goap.run is in.
      expect(goapRuns.some((g) => g.trace_id === action.trace_id)).toBe(true);
    }
    // A traceable call inside execute nests under the action's run.
    const lookups = runs.filter((r) => r.name === "lookup");
    expect(lookups.map((r) => parentOf(r)?.name)).toEqual(["goap.action research", "goap.action research", "goap.action research"]);

    const names = new Set(runs.map((r) => r.name));
    for (const node of ["planner", "executor", "observer", "route_after_observer"]) expect(names.has(node)).toBe(true);
    expect(names.has("RunnableLambda")).toBe(false);
  });
});
