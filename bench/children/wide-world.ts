/**
 * Child process of the bounded-search benchmark's `wide-world` part: plans
 * the wide numeric world of `W` facts (`wideWorldProblem`) asynchronously
 * while a 1 ms timer and `monitorEventLoopDelay` watch the event loop, and
 * prints one JSON line. `tsx bench/children/wide-world.ts W budget|abort|graph [ms]`:
 * `budget` runs under `timeBudgetMs: ms` (overrun against the budget),
 * `abort` aborts an unlimited search `ms` after it starts (latency from
 * when the abort was due to the result), `graph` runs a GoapGraph whose planner has the
 * time budget `ms`. Peak RSS is the whole process's. Besides wall-clock
 * delays, the CPU time used between two timer callbacks (`*CpuGapMs`): on a
 * loaded machine wall-clock gaps include waiting for a core.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { GoapGraph } from "../../src/graph/index.js";
import { AStarStrategy, planDetailedAsync } from "../../src/planner/index.js";
import { wideWorldProblem } from "../problems.js";

const W = Number(process.argv[2] ?? 200);
const mode = process.argv[3] ?? "budget";
const ms = Number(process.argv[4] ?? 2000);
const { actions, start, goal } = wideWorldProblem(W);

const histogram = monitorEventLoopDelay({ resolution: 1 });
const gaps: number[] = [];
// CPU time between two timer callbacks: on a loaded machine a process waiting for a core shows wall-clock gaps that
// are not its own blocking; the CPU it used between two turns of the loop is (GC threads included).
const cpuGaps: number[] = [];
let last = performance.now();
let lastCpu = process.cpuUsage();
const timer = setInterval(() => {
  const now = performance.now();
  gaps.push(now - last);
  last = now;
  const cpu = process.cpuUsage(lastCpu);
  cpuGaps.push((cpu.user + cpu.system) / 1000);
  lastCpu = process.cpuUsage();
}, 1);
histogram.enable();
const began = performance.now();
let status = "";
let expanded = 0;
let abortLatencyMs = 0;
if (mode === "budget") {
  const result = await planDetailedAsync(start, goal, actions, { timeBudgetMs: ms });
  status = result.status;
  expanded = result.stats.nodesExpanded;
} else if (mode === "abort") {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), ms);
  const result = await planDetailedAsync(start, goal, actions, { timeBudgetMs: Number.POSITIVE_INFINITY, signal: controller.signal });
  // From the moment the abort was due: a blocked loop also delays the timer that aborts.
  abortLatencyMs = performance.now() - (began + ms);
  status = result.status;
  expanded = result.stats.nodesExpanded;
} else {
  const graph = new GoapGraph(actions, { strategy: new AStarStrategy({ timeBudgetMs: ms }) });
  const result = await graph.invoke(goal, start);
  status = String(result.status);
}
const runMs = performance.now() - began;
await new Promise((resolve) => setTimeout(resolve, 20));
histogram.disable();
clearInterval(timer);
gaps.sort((a, b) => a - b);
cpuGaps.sort((a, b) => a - b);
const round = (v: number) => Number(v.toFixed(1));
process.stdout.write(
  `${JSON.stringify({
    W,
    mode,
    ms,
    status,
    expanded,
    runMs: Math.round(runMs),
    ...(mode === "abort" ? { abortLatencyMs: round(abortLatencyMs) } : { overrunPct: round((100 * (runMs - ms)) / ms) }),
    p99DelayMs: round(histogram.percentile(99) / 1e6),
    maxDelayMs: round(histogram.max / 1e6),
    p99GapMs: round(gaps[Math.min(gaps.length - 1, Math.floor(gaps.length * 0.99))] ?? 0),
    maxGapMs: round(gaps[gaps.length - 1] ?? 0),
    p99CpuGapMs: round(cpuGaps[Math.min(cpuGaps.length - 1, Math.floor(cpuGaps.length * 0.99))] ?? 0),
    maxCpuGapMs: round(cpuGaps[cpuGaps.length - 1] ?? 0),
    peakRssMB: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
  })}\n`,
);
