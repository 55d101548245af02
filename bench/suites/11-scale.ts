/**
 * The chain scale series (issue 14): generated STRIPS chain problems with
 * N = 24..48 facts, M = 2.25·N actions, a chain of N/2 actions to the goal,
 * seeds 1..3. For every admissible heuristic (and `hff` for reference):
 * expansions, milliseconds per plan, expansions per second, the plan's cost
 * and whether it is the optimal cost (the cheapest cost any admissible
 * search found on the instance); `zero` and `hmax` also with relevance
 * analysis off, to show how many states it saves. Each search has a time cap
 * (`BENCH_SCALE_CAP_MS`, default 5,000 ms): a capped search reports
 * `budget_exhausted`, not a cost.
 *
 * Then the peak memory of the largest searches (N44 and N48, default heuristic
 * and LM-cut), each in a child process: megabytes above the process's
 * baseline and bytes per expanded and per generated state.
 *
 * `npm run bench -- scale` (`BENCH_SCALE_RUNS=default,lmcut` picks the runs; `BENCH_SCALE_MEMORY=0` skips memory)
 */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type HeuristicName, planDetailed } from "../../src/planner/index.js";
import { emit } from "../emit.js";
import { chainProblem, chainToLanggoap } from "../problems.js";

const CAP_MS = Number(process.env.BENCH_SCALE_CAP_MS ?? 5000);
const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);
type Run = HeuristicName | "default" | "zero, relevance off" | "hmax, relevance off";
const ADMISSIBLE: readonly Run[] = ["zero", "zero, relevance off", "hmax", "hmax, relevance off", "lmcut", "default"];
const REFERENCE: readonly Run[] = ["hff"];
const PICKED = process.env.BENCH_SCALE_RUNS?.split(",").map((run) => run.trim());
const picked = (run: Run) => PICKED === undefined || PICKED.includes(run);

function optionsOf(run: Run): { heuristic?: HeuristicName; relevance?: boolean } {
  if (run === "default") return {};
  if (run.endsWith(", relevance off")) return { heuristic: run.split(",")[0] as HeuristicName, relevance: false };
  return { heuristic: run as HeuristicName };
}

export default async function scale(): Promise<void> {
  for (let N = 24; N <= 48; N += 4) {
    for (let seed = 1; seed <= 3; seed++) {
      const M = Math.round(N * 2.25);
      const { actions, start, goal } = chainToLanggoap(chainProblem({ N, M, D: N / 2, seed }));
      const rows: Record<string, unknown>[] = [];
      let optimal = Number.POSITIVE_INFINITY;
      for (const heuristic of [...ADMISSIBLE, ...REFERENCE].filter(picked)) {
        const options = { timeBudgetMs: CAP_MS, maxNodes: Number.POSITIVE_INFINITY, ...optionsOf(heuristic) };
        const began = performance.now();
        const result = planDetailed(start, goal, actions, options);
        const ms = performance.now() - began;
        const cost = result.plan?.totalCost ?? null;
        if (cost !== null && ADMISSIBLE.includes(heuristic)) optimal = Math.min(optimal, cost);
        rows.push({
          suite: "scale",
          instance: `N${N}-M${M} seed ${seed}`,
          heuristic,
          status: result.status,
          expansions: result.stats.nodesExpanded,
          ms: Math.round(ms * 10) / 10,
          expansionsPerSecond: Math.round(result.stats.nodesExpanded / (ms / 1000)),
          cost,
          // The default switches heuristics on large searches: which one found the plan.
          ...(heuristic === "default" && result.plan ? { foundBy: result.plan.metadata.heuristic } : {}),
        });
      }
      for (const row of rows) {
        const known = Number.isFinite(optimal);
        emit({ ...row, optimalCost: known ? optimal : null, optimal: row.cost === null || !known ? null : row.cost === optimal });
      }
    }
  }
  if (process.env.BENCH_SCALE_MEMORY === "0") return;
  for (const N of [44, 48])
    for (let seed = 1; seed <= 3; seed++)
      for (const heuristic of (["default", "lmcut"] as const).filter(picked)) await memoryRow(N, seed, heuristic);
}

/** Peak memory of one search of the series, measured alone in a child process. */
async function memoryRow(N: number, seed: number, heuristic: string): Promise<void> {
  const child = join(here, "..", "children", "search-memory.ts");
  const { stdout } = await run(process.execPath, ["--import", "tsx", child, "chain", String(N), String(seed), heuristic, String(CAP_MS)], {
    cwd: join(here, "..", ".."),
  });
  const row = JSON.parse(stdout) as Record<string, unknown>;
  emit({
    suite: "scale",
    bench: "memory",
    instance: `N${N}-M${Math.round(N * 2.25)} seed ${seed}`,
    heuristic,
    status: row.status,
    expansions: row.nodesExpanded,
    generated: row.nodesGenerated,
    ms: row.ms,
    peakAboveBaselineMB: (row.peakRssMB as number) - (row.baseRssMB as number),
    bytesPerExpandedNode: row.bytesPerExpandedNode,
    bytesPerGeneratedNode: row.bytesPerGeneratedNode,
  });
}
