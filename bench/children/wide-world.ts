/**
 * Child process of the bounded-search benchmark's `wide-world` part: plans
 * the wide numeric world of `W` facts (`wideWorldProblem`) asynchronously
 * while a 1 ms timer and `monitorEventLoopDelay` watch the event loop, and
 * prints one JSON line. `tsx bench/children/wide-world.ts W budget|abort|graph [ms]`:
 * `budget` runs under `timeBudgetMs: ms` (overrun against the budget),
 * `abort` aborts an unlimited search `ms` after it starts (latency from
 * when the abort was due to the result), `graph` runs a GoapGraph whose planner has the
 * time budget `ms` (built before the probe starts), `graph-warm` the same after one run of a small world's graph
 * and compiling this one (one-time costs of a process's first run left out); `pool` and `pool-abort` are `budget` and `abort` planned
 * by a one-worker `PlannerPool` (issue 23 item 2: where slicing on the
 * caller's thread cannot hold the event loop's p99, plan in a worker); the
 * pool is started and warmed up on a small problem before the probe starts; `langgraph-first` is the baseline for
 * `graph`: a bare one-node LangGraph graph with a MemorySaver (no planning, `W` unused), its process's first run
 * under the same probe, showing what LangGraph's own cold start pauses the loop for. Peak RSS is the whole process's. Besides wall-clock
 * delays, the CPU time used between two timer callbacks (`*CpuGapMs`): on a
 * loaded machine wall-clock gaps include waiting for a core.
 */
import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { GoapGraph } from "../../src/graph/index.js";
import { AStarStrategy, planDetailedAsync } from "../../src/planner/index.js";
import { PlannerPool } from "../../src/workers/index.js";
import { round, startLoopProbe } from "../loop-probe.js";
import { wideWorldProblem } from "../problems.js";

const W = Number(process.argv[2] ?? 200);
const mode = process.argv[3] ?? "budget";
const ms = Number(process.argv[4] ?? 2000);
const { actions, start, goal } = wideWorldProblem(W);
const pool = mode.startsWith("pool") ? new PlannerPool({ size: 1 }) : undefined;
if (pool) {
  const small = wideWorldProblem(2);
  await pool.planDetailed(small.start, small.goal, small.actions);
}

// The graph is built before the probe starts: its constructor is the caller's own synchronous call (it checks
// and indexes every action: 100-200 ms of CPU at W = 10,000), not planning.
const graphMode = mode === "graph" || mode === "graph-warm";
const graph = graphMode ? new GoapGraph(actions, { strategy: new AStarStrategy({ timeBudgetMs: ms }) }) : undefined;
if (mode === "graph-warm") {
  // One run of a small world first: what the process's first run pays once (LangGraph's and Node's lazy set-up,
  // compiling the graph) stays out of the figures, which then show what grows with the world.
  const small = wideWorldProblem(2);
  await new GoapGraph(small.actions, { strategy: new AStarStrategy({ timeBudgetMs: 50 }) }).invoke(small.goal, small.start);
  (graph as GoapGraph).compile();
}
// Built before the probe starts, as the GoapGraph is: only the run is measured.
const bare =
  mode === "langgraph-first"
    ? new StateGraph(Annotation.Root({ n: Annotation<number>() }))
        .addNode("step", (state) => ({ n: state.n + 1 }))
        .addEdge(START, "step")
        .addEdge("step", END)
        .compile({ checkpointer: new MemorySaver() })
    : undefined;
const probe = startLoopProbe();
let began = performance.now();
let status = "";
let expanded = 0;
let abortLatencyMs = 0;
const planner = pool ? pool.planDetailed.bind(pool) : planDetailedAsync;
if (mode === "budget" || mode === "pool") {
  const result = await planner(start, goal, actions, { timeBudgetMs: ms });
  status = result.status;
  expanded = result.stats.nodesExpanded;
} else if (mode === "abort" || mode === "pool-abort") {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  const result = await planner(start, goal, actions, { timeBudgetMs: Number.POSITIVE_INFINITY, signal: controller.signal });
  // From the moment the abort was due: a blocked loop also delays the timer that aborts.
  abortLatencyMs = performance.now() - (began + ms);
  status = result.status;
  expanded = result.stats.nodesExpanded;
} else if (bare) {
  // The run takes tens of ms, not seconds: the probe's timers get going first, or the histogram misses its pause.
  await new Promise((resolve) => setTimeout(resolve, 20));
  began = performance.now();
  const result = await bare.invoke({ n: 0 }, { configurable: { thread_id: "first" } });
  status = result.n === 1 ? "done" : "wrong";
} else {
  const result = await (graph as GoapGraph).invoke(goal, start);
  status = String(result.status);
}
const runMs = performance.now() - began;
await new Promise((resolve) => setTimeout(resolve, 20));
const loop = probe.stop();
await pool?.destroy();
process.stdout.write(
  `${JSON.stringify({
    W,
    mode,
    ms,
    status,
    expanded,
    runMs: Math.round(runMs),
    ...(bare ? {} : mode.endsWith("abort") ? { abortLatencyMs: round(abortLatencyMs) } : { overrunPct: round((100 * (runMs - ms)) / ms) }),
    ...loop,
    peakRssMB: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
  })}\n`,
);
