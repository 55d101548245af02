/**
 * Child process of the bounded-search benchmark's `lifted` part: the
 * unsolvable toggles problem (2^42 states) searched asynchronously with its
 * budgets lifted (`maxNodes` and `timeBudgetMs` Infinity) until an abort
 * `ms` in, while a 1 ms timer watches the event loop: the longest pauses
 * come from growing the hash table and node arrays.
 * `tsx bench/children/lifted-budgets.ts [ms]`.
 */
import { planDetailedAsync } from "../../src/planner/index.js";
import { startLoopProbe } from "../loop-probe.js";
import { togglesProblem } from "../problems.js";

const ms = Number(process.argv[2] ?? 6000);
const { actions, start, goal } = togglesProblem(40);
const probe = startLoopProbe();
const controller = new AbortController();
setTimeout(() => controller.abort(), ms);
const result = await planDetailedAsync(start, goal, actions, {
  maxNodes: Number.POSITIVE_INFINITY,
  timeBudgetMs: Number.POSITIVE_INFINITY,
  heuristic: "zero",
  signal: controller.signal,
});
const loop = probe.stop();
process.stdout.write(
  `${JSON.stringify({
    ms,
    status: result.status,
    expanded: result.stats.nodesExpanded,
    generated: result.stats.nodesGenerated,
    ...loop,
    peakRssMB: Math.round((process.resourceUsage().maxRSS * 1024) / 1e6),
  })}\n`,
);
