/**
 * Child process of the bounded-search benchmark: runs one unbounded
 * problem under the default budgets and prints (one JSON line) how the
 * search stopped and the process's peak memory, so the figure is not
 * mixed with other suites' allocations. `tsx bench/children/search-memory.ts toggles|counters|add-two`,
 * or `chain N seed [heuristic] [capMs]` for an instance of the scale series (default heuristic, 5 s cap).
 */

import { type HeuristicName, type PlanOptions, planDetailed } from "../../src/planner/index.js";
import { addTwoProblem, chainProblem, chainToLanggoap, countersProblem, type LanggoapProblem, togglesProblem } from "../problems.js";

const kind = process.argv[2] ?? "toggles";
const problems: Record<string, () => LanggoapProblem> = {
  toggles: () => togglesProblem(40),
  counters: () => countersProblem(38),
  "add-two": addTwoProblem,
  chain: () => {
    const N = Number(process.argv[3]);
    return chainToLanggoap(chainProblem({ N, M: Math.round(N * 2.25), D: N / 2, seed: Number(process.argv[4]) }));
  },
};
const make = problems[kind];
if (!make) throw new Error(`unknown problem ${kind}; expected one of ${Object.keys(problems).join(", ")}`);
const { actions, start, goal } = make();
const heuristic = kind === "chain" && process.argv[5] && process.argv[5] !== "default" ? (process.argv[5] as HeuristicName) : undefined;
const options: PlanOptions =
  kind === "chain"
    ? { maxNodes: Number.POSITIVE_INFINITY, timeBudgetMs: Number(process.argv[6] ?? 5000), ...(heuristic ? { heuristic } : {}) }
    : {};
const baseRss = process.memoryUsage().rss;
const began = performance.now();
const result = planDetailed(start, goal, actions, options);
const ms = performance.now() - began;
const peakRss = process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  `${JSON.stringify({
    problem: kind === "chain" ? `N${process.argv[3]} seed ${process.argv[4]}` : kind,
    ...(kind === "chain" ? { heuristic: heuristic ?? "default", nodesGenerated: result.stats.nodesGenerated } : {}),
    status: result.status,
    limit: result.budget?.limit ?? null,
    maxNodes: result.budget?.maxNodes ?? null,
    nodesStored: result.budget?.nodesStored ?? null,
    nodesExpanded: result.stats.nodesExpanded,
    ms: Math.round(ms),
    baseRssMB: Math.round(baseRss / 1e6),
    peakRssMB: Math.round(peakRss / 1e6),
    bytesPerStoredNode: result.budget ? Math.round((peakRss - baseRss) / result.budget.nodesStored) : null,
    bytesPerExpandedNode: result.stats.nodesExpanded > 0 ? Math.round((peakRss - baseRss) / result.stats.nodesExpanded) : null,
    bytesPerGeneratedNode: result.stats.nodesGenerated > 0 ? Math.round((peakRss - baseRss) / result.stats.nodesGenerated) : null,
  })}\n`,
);
