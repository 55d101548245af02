/**
 * Child process of the bounded-search benchmark's `lifted` part: the
 * unsolvable toggles problem (2^42 states) searched asynchronously with its
 * budgets lifted (`maxNodes` and `timeBudgetMs` Infinity) until an abort
 * `ms` in, while a 1 ms timer watches the event loop: the longest pauses
 * come from growing the hash table and node arrays.
 * `tsx bench/children/lifted-budgets.ts [ms]`.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { planDetailedAsync } from "../../src/planner/index.js";
import { togglesProblem } from "../problems.js";

const ms = Number(process.argv[2] ?? 6000);
const { actions, start, goal } = togglesProblem(40);
const histogram = monitorEventLoopDelay({ resolution: 1 });
const gaps: number[] = [];
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
const controller = new AbortController();
setTimeout(() => controller.abort(), ms);
const result = await planDetailedAsync(start, goal, actions, {
  maxNodes: Number.POSITIVE_INFINITY,
  timeBudgetMs: Number.POSITIVE_INFINITY,
  heuristic: "zero",
  signal: controller.signal,
});
histogram.disable();
clearInterval(timer);
gaps.sort((a, b) => a - b);
cpuGaps.sort((a, b) => a - b);
const round = (v: number) => Number(v.toFixed(1));
const p99 = (list: number[]) => round(list[Math.min(list.length - 1, Math.floor(list.length * 0.99))] ?? 0);
process.stdout.write(
  `${JSON.stringify({
    ms,
    status: result.status,
    expanded: result.stats.nodesExpanded,
    generated: result.stats.nodesGenerated,
    p99DelayMs: round(histogram.percentile(99) / 1e6),
    maxDelayMs: round(histogram.max / 1e6),
    p99GapMs: p99(gaps),
    maxGapMs: round(gaps[gaps.length - 1] ?? 0),
    p99CpuGapMs: p99(cpuGaps),
    maxCpuGapMs: round(cpuGaps[cpuGaps.length - 1] ?? 0),
    peakRssMB: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
  })}\n`,
);
