/** Worker thread: times one peer planner on one instance (so a slow peer can be stopped). */
import { parentPort, workerData } from "node:worker_threads";
import { median } from "../emit.js";
import { peerInstance, planWithGoap, planWithMahler, replayCost } from "./build.js";

const { peer, instance, maxRuns } = workerData as { peer: "goap" | "mahler"; instance: string; maxRuns: number };
const inst = peerInstance(instance);
const times: number[] = [];
let names: string[] | null = null;
let iterations: number | undefined;
const began = performance.now();
for (let run = 0; run < maxRuns; run++) {
  const t0 = performance.now();
  if (peer === "goap") names = planWithGoap(inst);
  else {
    const r = planWithMahler(inst);
    names = r?.names ?? null;
    iterations = r?.iterations;
  }
  times.push(performance.now() - t0);
  // Fast peers are repeated for a stable median; slow ones are measured once or twice.
  if (performance.now() - began > 2000 && run >= 1) break;
}
parentPort?.postMessage({
  status: names ? "found" : "no_plan",
  cost: names ? replayCost(inst, names) : null,
  length: names?.length ?? null,
  msPerPlan: median(times.length > 1 ? times.slice(1) : times),
  runs: times.length,
  ...(iterations !== undefined ? { iterations } : {}),
});
