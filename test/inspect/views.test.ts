/**
 * What the inspector's views hold, without a browser: a run's steps,
 * diffs, replans, approvals and figures from a real graph; finished runs
 * read back from the history store when a run ends; STUP tables as crowd
 * scores; a search's tree and explanation; hostile strings in display form.
 */
import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it } from "vitest";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "../../examples/lib/village.js";
import { ActionSpec } from "../../src/core/index.js";
import { GoapGraph, StoreExecutionHistory } from "../../src/graph/index.js";
import { createInspector, type Inspector } from "../../src/inspect/index.js";
import { GoapAgent, StupSelector, stupGoalSelector } from "../../src/utility/index.js";

let inspector: Inspector | undefined;
afterEach(async () => {
  await inspector?.close();
  inspector = undefined;
});

// biome-ignore lint/suspicious/noExplicitAny: views are JSON read back in tests
const view = (i: Inspector, key: string): any => (i.snapshot()[key] as { data: unknown }).data;

describe("inspector views", () => {
  it("a run: steps with values now, diffs, the replan, the approval and who answered, figures; the finished run from the store", async () => {
    const history = new StoreExecutionHistory(new InMemoryStore());
    inspector = createInspector({ history });
    const run = inspector.run("release", { budget: { maxExpansions: 1000 } });
    let tests = 0;
    const graph = new GoapGraph(
      [
        new ActionSpec({ name: "build", effects: { built: true } }),
        // The first test run breaks the build: the run replans and builds again.
        new ActionSpec({
          name: "test",
          preconditions: { built: true },
          effects: { tested: true },
          execute: () => (++tests === 1 ? { built: false } : undefined),
        }),
        new ActionSpec({ name: "deploy", preconditions: { tested: true }, effects: { deployed: true }, requireHumanApproval: true }),
      ],
      { tracer: run, history },
    );
    graph.compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t1" } };
    run.observe(await graph.invoke({ deployed: true }, {}, config));
    await inspector.idle();
    let v = view(inspector, "run:release");
    expect(v.status).toBe("awaiting_human");
    expect(v.approvals.items).toEqual([{ action: "deploy", kind: "goap_action_approval", status: "waiting" }]);
    expect(v.replans.items).toEqual([{ round: 2, reason: expect.any(String), actions: ["build", "test", "deploy"] }]);
    run.observe(await graph.resume({ approved: true, by: "alice" }, config));
    await inspector.idle();
    v = view(inspector, "run:release");
    expect(v.status).toBe("goal_achieved");
    expect(v.approvals.items).toEqual([
      { action: "deploy", kind: "goap_action_approval", status: "answered", answer: { approved: true, by: "alice" }, by: "alice" },
    ]);
    expect(v.diffs.items.map((d: { action: string; changes: unknown[] }) => [d.action, d.changes])).toEqual([
      ["build", [{ key: "built", before: null, after: true }]],
      ["test", [{ key: "built", before: true, after: false }]],
      ["build", [{ key: "built", before: false, after: true }]],
      ["test", [{ key: "tested", before: null, after: true }]],
      ["deploy", [{ key: "deployed", before: null, after: true }]],
    ]);
    expect(v.plan.steps.map((s: { name: string; status: string }) => `${s.name}:${s.status}`)).toEqual([
      "build:succeeded",
      "test:succeeded",
      "deploy:succeeded",
    ]);
    expect(v.plan.steps[2].pre).toEqual([{ text: "tested = true", now: true, set: true, holds: true }]);
    // Causal links for the plan graph's columns: test needs build's effect, deploy needs test's.
    expect(v.plan.steps.map((s: { after: number[] }) => s.after)).toEqual([[], [0], [1]]);
    expect(v.figures).toMatchObject({ strategy: "astar", rounds: 2, cost: 3 });
    expect(v.figures.expansionsLeft).toBe(1000 - v.figures.expansions);
    // The run ended: the inspector read the store again by itself.
    const records = view(inspector, "history").records;
    expect(records.map((r: { status: string; planActions: string[] }) => [r.status, r.planActions])).toEqual([
      ["goal_achieved", ["build", "test", "deploy"]],
    ]);
  });

  it("one tracer for concurrent runs: each run its own view, and the kept runs are bounded", async () => {
    inspector = createInspector({ maxViews: 3 });
    // Three runs are inside "wait" at once (none leaves before all have entered): their hooks interleave.
    let inside = 0;
    let allInside: () => void = () => {};
    const barrier = new Promise<void>((resolve) => {
      allInside = resolve;
    });
    const graph = new GoapGraph(
      [
        new ActionSpec({
          name: "wait",
          effects: { waited: true },
          execute: async (state) => {
            if (state.alone === true) return;
            if (++inside === 3) allInside();
            await barrier;
          },
        }),
        new ActionSpec({ name: "go", preconditions: { waited: true }, effects: { there: true } }),
      ],
      { tracer: inspector.tracer() },
    );
    const invoke = (id: string, state = {}) =>
      graph.invoke({ there: true }, state, { configurable: { thread_id: `t-${id}`, run_id: `run-${id}` } });
    await Promise.all(["a", "b", "c"].map((id) => invoke(id)));
    // A fourth run after them: three kept, the oldest (a) is forgotten.
    await invoke("d", { alone: true });
    await inspector.idle();
    const runs = Object.keys(inspector.snapshot()).filter((k) => k.startsWith("run:"));
    expect(runs.sort()).toEqual(["run:run-b", "run:run-c", "run:run-d"]);
    for (const key of runs) {
      const v = view(inspector, key);
      expect(v.status).toBe("goal_achieved");
      expect(v.title).toBe(`t-${key.slice(-1)} · ${key.slice(4)}`);
      expect(v.diffs.items.map((d: { action: string }) => d.action)).toEqual(["wait", "go"]);
    }
  });

  it("a failing history store is shown as an error, never thrown", async () => {
    inspector = createInspector({ history: { list: () => Promise.reject(new Error("database is down")) } });
    expect(await inspector.refreshHistory()).toBe(0);
    expect(view(inspector, "history")).toEqual({ records: [], error: "history store: database is down" });
  });

  it("STUP agents: utility per goal from the selection tables", () => {
    inspector = createInspector();
    const stup = new StupSelector({
      actions: createVillageActions(),
      goals: [
        { name: "eat", goal: VILLAGE_GOALS.notHungry, score: 0.8, multiplier: 2 },
        { name: "wood", goal: VILLAGE_GOALS.gatherWood, score: 0.5 },
      ],
    });
    const agent = new GoapAgent({
      name: "guard",
      actions: createVillageActions(),
      state: villageStartState(),
      selector: stupGoalSelector(stup, { onSelect: inspector.crowd.stupListener("guard") }),
    });
    inspector.crowd.watch(agent);
    agent.tick(0.1);
    inspector.crowd.sample(0.1);
    const frame = view(inspector, "crowd");
    expect(frame.columns).toEqual(["eat", "wood"]);
    expect(frame.scores).toEqual([[1.6, 0.5]]);
    expect(frame.rows[0].slice(0, 3)).toEqual(["guard", "running", "eat"]);
  });

  it("a search: the tree with g, h and f and the plan's path; a no-plan explanation; hostile strings in display form", () => {
    inspector = createInspector();
    expect(
      inspector.search("eat", villageStartState(), VILLAGE_GOALS.notHungry, createVillageActions(), { heuristic: "zero", maxTreeNodes: 5 }),
    ).toBe("found");
    const tree = view(inspector, "search:eat");
    expect(tree.nodes).toHaveLength(5);
    expect(tree.omitted).toBe(tree.expansions - 5);
    expect(tree.nodes[0]).toMatchObject({ id: 0, parent: null, action: null, g: 0, h: 0, f: 0, path: true });
    expect(inspector.search("gold", {}, { gold: "\u202eexe.gnp" }, createVillageActions())).toBe("no_plan");
    const none = view(inspector, "search:gold");
    expect(none.explanation.unreachableConditions).toEqual(['gold = "\\u202eexe.gnp"']);
  });
});
