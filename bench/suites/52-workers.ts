/**
 * Planner worker pool (issue 25.1). Three questions a game loop asks:
 *
 * - `crowd`: agents planned per second by 1,000 village agents (plan cache
 *   off, every agent searches) in-thread against a `PlannerPool` of 1, 2
 *   and N workers (N = available parallelism), with the main thread's busy
 *   time per round (event-loop utilization, so worker threads' CPU is not
 *   counted) and agents per second per worker (the figure to extrapolate
 *   per core on a larger machine).
 * - `roundTrip`: one small plan awaited alone, in-thread against the pool:
 *   the fixed cost of crossing to a worker and back, below which planning
 *   in-thread is cheaper.
 * - `wideWorld`: the main thread's event-loop delay (p99, max) while a
 *   worker plans the wide numeric world of 500 extra facts for 2 s, beside
 *   the same search in-thread with `planDetailedAsync` and an idle 2 s (the
 *   delay the machine's load alone causes).
 *
 * `npm run bench -- workers`. Times depend on machine load: read `load1`.
 */
import { availableParallelism, loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { createVillageActions, pickVillageGoal } from "../../examples/lib/village.js";
import { ActionSpec } from "../../src/core/index.js";
import { planDetailed, planDetailedAsync } from "../../src/planner/index.js";
import { GoapAgent } from "../../src/utility/index.js";
import { PlannerPool } from "../../src/workers/index.js";
import { emit, timeIt } from "../emit.js";
import { startLoopProbe } from "../loop-probe.js";
import { wideWorldProblem } from "../problems.js";
import { villagerStates } from "../villagers.js";

const AGENTS = 1000;
const load1 = () => Number(loadavg()[0]?.toFixed(1));

function villagers(pool: PlannerPool | undefined): GoapAgent[] {
  const actions = Object.freeze(createVillageActions());
  return villagerStates(AGENTS).map(
    (state) => new GoapAgent({ actions, state, goal: pickVillageGoal(state), ...(pool ? { planner: pool } : {}) }),
  );
}

async function crowd(): Promise<void> {
  const sizes = [...new Set([1, 2, availableParallelism()])];
  for (const workers of [0, ...sizes]) {
    const pool = workers > 0 ? new PlannerPool({ size: workers }) : undefined;
    const agents = villagers(pool);
    const round = pool ? () => Promise.all(agents.map((a) => a.replanAsync())) : () => agents.map((a) => a.replan());
    await round(); // workers started, domain sent
    const elu = performance.eventLoopUtilization();
    const { medianMs, runs } = await timeIt(round, { warmup: 2, minRuns: 5, minMs: 2000, maxRuns: 100 });
    const used = performance.eventLoopUtilization(elu);
    const planned = agents.filter((a) => a.status === "running").length;
    const agentsPerSec = Math.round(AGENTS / (medianMs / 1000));
    emit({
      suite: "workers",
      part: "crowd",
      domain: "village",
      agents: AGENTS,
      planner: pool ? "pool" : "in-thread",
      workers,
      planned,
      msPerRound: Number(medianMs.toFixed(2)),
      agentsPerSec,
      ...(pool
        ? { agentsPerSecPerWorker: Math.round(agentsPerSec / workers), tasksPerRound: Math.round(pool.stats.tasks / (runs + 3)) }
        : {}),
      // Main-thread busy time per round, from event-loop utilization over the timed rounds.
      mainThreadMsPerRound: Number((used.active / (runs + 2)).toFixed(2)),
      cores: availableParallelism(),
      load1: load1(),
      runs,
    });
    await pool?.close();
  }
}

async function roundTrip(): Promise<void> {
  const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 2 } }, cost: 2 });
  const actions = Object.freeze([chop]);
  const pool = new PlannerPool({ size: 1 });
  await pool.plan({ wood: 0 }, { wood: { gte: 3 } }, actions);
  const local = await timeIt(() => planDetailed({ wood: 0 }, { wood: { gte: 5 } }, actions), { minMs: 500, maxRuns: 5000 });
  const pooled = await timeIt(() => pool.planDetailed({ wood: 0 }, { wood: { gte: 5 } }, actions), { minMs: 1500, maxRuns: 5000 });
  emit({
    suite: "workers",
    part: "roundTrip",
    problem: "chop x3 (3 steps)",
    inThreadUs: Math.round(local.medianMs * 1000),
    poolUs: Math.round(pooled.medianMs * 1000),
    overheadUs: Math.round((pooled.medianMs - local.medianMs) * 1000),
    load1: load1(),
    runs: pooled.runs,
  });
  await pool.close();
}

async function wideWorld(): Promise<void> {
  const W = 500;
  const budgetMs = 2000;
  const pool = new PlannerPool({ size: 1 });
  await pool.plan({ wood: 0 }, { wood: 1 }, [new ActionSpec({ name: "warm", effects: { wood: 1 } })]); // worker started
  // "idle": the same probe while nothing plans, for the delay the machine's load alone causes.
  for (const planner of ["idle", "pool", "in-thread"] as const) {
    const { actions, start, goal } = wideWorldProblem(W);
    const probe = startLoopProbe();
    const began = performance.now();
    const result =
      planner === "pool"
        ? await pool.planDetailed(start, goal, actions, { timeBudgetMs: budgetMs })
        : planner === "in-thread"
          ? await planDetailedAsync(start, goal, actions, { timeBudgetMs: budgetMs })
          : await new Promise<{ status: string; stats: { nodesExpanded: number } }>((resolve) =>
              setTimeout(() => resolve({ status: "idle", stats: { nodesExpanded: 0 } }), budgetMs),
            );
    const runMs = performance.now() - began;
    await new Promise((resolve) => setTimeout(resolve, 20));
    const loop = probe.stop();
    emit({
      suite: "workers",
      part: "wideWorld",
      W,
      planner,
      budgetMs,
      status: result.status,
      expanded: result.stats.nodesExpanded,
      runMs: Math.round(runMs),
      // Main-thread event loop while the search runs (the CPU-gap fields count every thread of the process, so they are left out).
      p99DelayMs: loop.p99DelayMs,
      maxDelayMs: loop.maxDelayMs,
      p99GapMs: loop.p99GapMs,
      maxGapMs: loop.maxGapMs,
      load1: load1(),
    });
  }
  await pool.close();
}

export default async function workersBench(): Promise<void> {
  await roundTrip();
  await wideWorld();
  await crowd();
}
