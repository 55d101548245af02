import { InMemoryStore, MemorySaver } from "@langchain/langgraph";
import { afterEach, describe, expect, it, vi } from "vitest";
import { addTwoProblem } from "../../bench/problems.js";
import { ActionSpec, type PlanningTracer } from "../../src/core/index.js";
import { GoapGraph, StoreExecutionHistory } from "../../src/graph/index.js";
import { AStarStrategy, DEFAULT_MAX_NODES } from "../../src/planner/index.js";
import { stillClock } from "../support/still-clock.js";

const UNLIMITED = { maxNodes: Number.POSITIVE_INFINITY, timeBudgetMs: Number.POSITIVE_INFINITY };

describe("a graph's search is bounded", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("ends the unsolvable numeric example budget_exhausted under the default A*, with the figures", async () => {
    const { actions, start, goal } = addTwoProblem();
    // Time stands still: the default node budget ends the search, not the default 10 s on a busy machine.
    stillClock();
    const history = new StoreExecutionHistory(new InMemoryStore());
    const result = await new GoapGraph(actions, { history }).invoke(goal, start);
    expect(result.status).toBe("budget_exhausted");
    expect(result.executionHistory).toEqual([]);
    expect(result.noPlanExplanation).toMatchObject({
      status: "budget_exhausted",
      budget: { limit: "nodes", maxNodes: DEFAULT_MAX_NODES },
    });
    expect(result.noPlanExplanation?.suggestion).toMatch(/^search stopped by its node budget \(maxNodes 1,000,000\) after /);
    expect(result.replanReason).toBe(result.noPlanExplanation?.suggestion);
    expect((await history.list()).map((r) => r.status)).toEqual(["budget_exhausted"]);
  });

  it("takes the strategy's budget, and reports a proven no plan as no_plan", async () => {
    const { actions, start, goal } = addTwoProblem();
    const graph = new GoapGraph(actions, { strategy: new AStarStrategy({ maxNodes: 300 }) });
    const result = await graph.invoke(goal, start);
    expect(result.status).toBe("budget_exhausted");
    expect(result.noPlanExplanation?.budget).toMatchObject({ limit: "nodes", maxNodes: 300, nodesStored: 300 });
    const proven = await graph.invoke({ flying: true }, start);
    expect(proven.status).toBe("no_plan");
    expect(proven.noPlanExplanation?.status).toBeUndefined();
    expect(proven.noPlanExplanation?.unreachableConditions).toEqual(["flying = true"]);
  });
});

describe("planning in a graph never blocks the event loop and can be cancelled", () => {
  it("lets timers run while the planner node searches", async () => {
    const { actions, start, goal } = addTwoProblem();
    let expanded = 0;
    const tracer: PlanningTracer = {
      onSearchExpand: () => {
        expanded++;
      },
    };
    const graph = new GoapGraph(actions, {
      strategy: new AStarStrategy({ maxNodes: 30_000, heuristic: "zero" }),
      tracer,
      recordExpansions: true,
    });
    const seen: number[] = [];
    const timer = setInterval(() => seen.push(expanded), 0);
    const result = await graph.invoke(goal, start);
    clearInterval(timer);
    expect(result.status).toBe("budget_exhausted");
    expect(new Set(seen.filter((n) => n > 0 && n < expanded)).size).toBeGreaterThanOrEqual(2);
  });

  it("stops a search when the run's signal aborts and resolves with the state so far, status aborted", async () => {
    // add_two really adds 1: the world deviates after the first step, and from an
    // odd n no plan reaches n = 4, so the replan searches until it is stopped.
    const controller = new AbortController();
    let executed = false;
    let expandedSince = 0;
    const addTwo = new ActionSpec({
      name: "add_two",
      effects: { n: { inc: 2 } },
      execute: (s) => {
        executed = true;
        return { n: (s.n as number) + 1 };
      },
    });
    const finish = new ActionSpec({ name: "finish", preconditions: { n: 4 }, effects: { done: true } });
    // The abort comes mid-search: at the replan's 1,000th expansion.
    const tracer: PlanningTracer = {
      onSearchExpand: () => {
        if (executed && ++expandedSince === 1_000) controller.abort(new Error("operator stop"));
      },
    };
    const graph = new GoapGraph([addTwo, finish], { strategy: new AStarStrategy(UNLIMITED), tracer, recordExpansions: true });
    const result = await graph.invoke({ done: true }, { n: 0 }, { signal: controller.signal });
    expect(result.status).toBe("aborted");
    expect(result.replanReason).toBe("aborted: Error: operator stop");
    expect(result.executionHistory.map((r) => [r.actionName, r.success])).toEqual([["add_two", true]]);
    expect(result.worldState).toEqual({ n: 1 });
    // The unlimited search went on after the abort only to the end of its slice.
    expect(expandedSince).toBeGreaterThanOrEqual(1_000);
  });

  it("resolves an aborted resume with the state the run had reached", async () => {
    // deploy waits for approval; after it, add_two really adds 1, and from an odd n the replan never ends.
    const controller = new AbortController();
    let added = false;
    const deploy = new ActionSpec({ name: "deploy", effects: { deployed: true }, requireHumanApproval: true });
    const addTwo = new ActionSpec({
      name: "add_two",
      effects: { n: { inc: 2 } },
      execute: (s) => {
        added = true;
        return { n: (s.n as number) + 1 };
      },
    });
    const finish = new ActionSpec({ name: "finish", preconditions: { n: 2, deployed: true }, effects: { done: true } });
    // The operator stops the resumed run while its replan searches.
    const tracer: PlanningTracer = {
      onSearchExpand: () => {
        if (added && !controller.signal.aborted) controller.abort(new Error("operator stop"));
      },
    };
    const graph = new GoapGraph([deploy, addTwo, finish], { strategy: new AStarStrategy(UNLIMITED), tracer, recordExpansions: true });
    graph.compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "abort-resume" } };
    const paused = await graph.invoke({ done: true }, { n: 0, deployed: false }, config);
    expect(paused.__interrupt__).toHaveLength(1);
    const resumed = await graph.resume(true, { ...config, signal: controller.signal });
    expect(resumed.status).toBe("aborted");
    expect(resumed.replanReason).toBe("aborted: Error: operator stop");
    expect(resumed.executionHistory.map((r) => r.actionName)).toEqual(["deploy", "add_two"]);
    expect(resumed.worldState).toEqual({ n: 1, deployed: true });
  });
});
