import { Client } from "langsmith";
import { traceable } from "langsmith/traceable";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { LangSmithTracer } from "../../src/tracing/index.js";
import { quietLogger } from "../graph/support.js";
import { type LangSmithStub, type StubRun, startLangSmithStub } from "../support/langsmith-stub.js";

let stub: LangSmithStub;
beforeAll(async () => {
  stub = await startLangSmithStub();
});
afterAll(async () => {
  await stub.close();
});

function domain() {
  const lookup = traceable(async (topic: string) => `notes on ${topic}`, { name: "lookup" });
  return [
    new ActionSpec({
      name: "research",
      effects: { researched: true },
      cost: 1,
      execute: async (state) => ({ researched: true, notes: await lookup(String(state.topic)) }),
    }),
    new ActionSpec({
      name: "write_fast",
      preconditions: { researched: true },
      effects: { drafted: true },
      cost: 1,
      execute: () => {
        throw new Error("writer quota exceeded");
      },
    }),
    new ActionSpec({ name: "write_premium", preconditions: { researched: true }, effects: { drafted: true }, cost: 5 }),
    new ActionSpec({ name: "publish", preconditions: { drafted: true }, effects: { published: true }, cost: 1 }),
  ];
}

const childrenOf = (runs: StubRun[], parent: StubRun) => runs.filter((r) => r.parent_run_id === parent.id);

describe("LangSmithTracer", () => {
  it("sends each run's tree (run → plan rounds → actions, with inputs, outputs and errors) to the LangSmith API", async () => {
    const client = new Client({ apiUrl: stub.url, apiKey: "test-key" });
    const tracer = new LangSmithTracer({ client, projectName: "goap-tests" });
    const graph = new GoapGraph(domain(), { tracer, logger: quietLogger() });
    const results = await Promise.all([
      graph.invoke({ published: true }, { topic: "GOAP" }),
      graph.invoke({ published: true }, { topic: "HTN" }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["goal_achieved", "goal_achieved"]);
    await client.awaitPendingTraceBatches();
    expect(tracer.openRuns).toBe(0);

    const runs = [...stub.runs.values()];
    const roots = runs.filter((r) => r.name === "goap.run");
    expect(roots).toHaveLength(2);
    for (const root of roots) {
      expect(root.parent_run_id ?? null).toBeNull();
      expect(root.session_name).toBe("goap-tests");
      expect(root.error ?? null).toBeNull();
      expect(root.outputs).toMatchObject({ status: "goal_achieved", replans: 1, state: { published: true } });
      expect(root.end_time).toBeDefined();
      const children = childrenOf(runs, root);
      const plans = children.filter((r) => r.name === "goap.plan");
      expect(plans.map((p) => p.outputs?.actions)).toEqual([
        ["research", "write_fast", "publish"],
        ["write_premium", "publish"],
      ]);
      expect(plans[0]?.inputs).toMatchObject({ goal: { conditions: { published: true } }, strategy: "astar" });
      const actions = children.filter((r) => r.run_type === "tool");
      expect(actions.map((a) => [a.name, a.error ?? null])).toEqual([
        ["goap.action research", null],
        ["goap.action write_fast", "writer quota exceeded"],
        ["goap.action write_premium", null],
        ["goap.action publish", null],
      ]);
      // A traceable call made inside execute nests under the action's run.
      const lookup = runs.filter((r) => r.name === "lookup" && r.parent_run_id === actions[0]?.id);
      expect(lookup).toHaveLength(1);
      expect(lookup[0]?.trace_id).toBe(root.id);
    }
    expect(stub.calls.filter((c) => c.startsWith("POST /runs") || c.startsWith("PATCH /runs")).length).toBeGreaterThan(0);
    const topics = roots.map((root) => childrenOf(runs, root).find((r) => r.name === "goap.action research")?.outputs?.state);
    expect(topics).toEqual(expect.arrayContaining([expect.objectContaining({ researched: true })]));
  });
});
