/**
 * Child process of the bounded-search benchmark: runs one unbounded
 * problem under the default budgets and prints (one JSON line) how the
 * search stopped and the process's peak memory, so the figure is not
 * mixed with other suites' allocations. `tsx bench/children/search-memory.ts toggles|counters|add-two`.
 */

import { planDetailed } from "../../src/planner/index.js";
import { addTwoProblem, countersProblem, type LanggoapProblem, togglesProblem } from "../problems.js";

const kind = process.argv[2] ?? "toggles";
const problems: Record<string, () => LanggoapProblem> = {
  toggles: () => togglesProblem(40),
  counters: () => countersProblem(38),
  "add-two": addTwoProblem,
};
const make = problems[kind];
if (!make) throw new Error(`unknown problem ${kind}; expected one of ${Object.keys(problems).join(", ")}`);
const { actions, start, goal } = make();
const baseRss = process.memoryUsage().rss;
const began = performance.now();
const result = planDetailed(start, goal, actions);
const ms = performance.now() - began;
const peakRss = process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  `${JSON.stringify({
    problem: kind,
    status: result.status,
    limit: result.budget?.limit ?? null,
    maxNodes: result.budget?.maxNodes ?? null,
    nodesStored: result.budget?.nodesStored ?? null,
    nodesExpanded: result.stats.nodesExpanded,
    ms: Math.round(ms),
    baseRssMB: Math.round(baseRss / 1e6),
    peakRssMB: Math.round(peakRss / 1e6),
    bytesPerStoredNode: result.budget ? Math.round((peakRss - baseRss) / result.budget.nodesStored) : null,
  })}\n`,
);
