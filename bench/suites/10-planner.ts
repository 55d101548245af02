/**
 * Planner benchmark: every generated instance with the default (the planner's
 * choice by domain, `foundBy` names it) and every heuristic, side by
 * side with the npm planners goap@1.1.1 and mahler@4.1.5 measured in the same
 * process run (peers run in worker threads so slow ones can be stopped).
 */
import { Worker } from "node:worker_threads";
import type { HeuristicName } from "../../src/planner/index.js";
import { planDetailed } from "../../src/planner/index.js";
import { emit, timeIt } from "../emit.js";
import { CHAIN_INSTANCES, chainProblem, chainToLanggoap, RESOURCE_INSTANCES, resourceProblem, resourceToLanggoap } from "../problems.js";

const OPTIMAL: Record<string, number> = { "chain-S": 14, "chain-M": 13, "chain-L": 17, "chain-XL": 15, "res-1": 21, "res-2": 66 };
/** "default": no heuristic option, the planner's choice by domain (the row peers are compared with). */
const HEURISTICS: (HeuristicName | "default")[] = ["default", "hmax", "lmcut", "opcount", "zero", "goal-count", "hadd", "hff"];
const PEER_TIMEOUT_MS = Number(process.env.BENCH_PEER_TIMEOUT_MS ?? 20_000);

interface PeerResult {
  status: string;
  cost?: number | null;
  msPerPlan?: number;
  runs?: number;
  iterations?: number;
}

function runPeer(peer: "goap" | "mahler", instance: string): Promise<PeerResult> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL("../peers/worker-entry.mjs", import.meta.url), {
      workerData: { peer, instance, maxRuns: 20 },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve({ status: `timeout (> ${PEER_TIMEOUT_MS} ms)` });
    }, PEER_TIMEOUT_MS);
    worker.once("message", (m: PeerResult) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(m);
    });
    worker.once("error", (e) => {
      clearTimeout(timer);
      resolve({ status: `error: ${e.message}` });
    });
  });
}

export default async function plannerBench(): Promise<void> {
  const instances = [
    ...Object.entries(CHAIN_INSTANCES).map(([name, p]) => [name, chainToLanggoap(chainProblem(p))] as const),
    ...Object.entries(RESOURCE_INSTANCES).map(([name, p]) => [name, resourceToLanggoap(resourceProblem(p))] as const),
  ];
  for (const [instance, { actions, start, goal }] of instances) {
    let defaultMs = 0;
    for (const heuristic of HEURISTICS) {
      const options = heuristic === "default" ? {} : { heuristic };
      let result = planDetailed(start, goal, actions, options);
      const { medianMs, runs } = await timeIt(
        () => {
          result = planDetailed(start, goal, actions, options);
        },
        { warmup: 2, minRuns: 3, minMs: 400, maxRuns: 2000 },
      );
      if (heuristic === "default") defaultMs = medianMs;
      const cost = result.plan?.totalCost ?? null;
      emit({
        suite: "planner",
        system: "langgoap",
        instance,
        heuristic,
        ...(heuristic === "default" ? { foundBy: result.plan?.metadata.heuristic ?? null } : {}),
        status: result.status,
        cost,
        optimal: cost === OPTIMAL[instance],
        expansions: result.stats.nodesExpanded,
        generated: result.stats.nodesGenerated,
        msPerPlan: Number(medianMs.toFixed(4)),
        expansionsPerSec: Math.round(result.stats.nodesExpanded / (medianMs / 1000)),
        runs,
      });
    }
    for (const peer of ["goap", "mahler"] as const) {
      const r = await runPeer(peer, instance);
      emit({
        suite: "planner",
        system: `${peer}@${peer === "goap" ? "1.1.1" : "4.1.5"}`,
        instance,
        heuristic: peer === "goap" ? "uniform-cost (goal-count ties)" : "depth-first HTN",
        ...r,
        optimal: r.cost === OPTIMAL[instance],
        ...(r.msPerPlan !== undefined
          ? { msPerPlan: Number(r.msPerPlan.toFixed(4)), langgoapSpeedup: Number((r.msPerPlan / defaultMs).toFixed(1)) }
          : {}),
      });
    }
  }
}
