/**
 * Bounded, cancellable, non-blocking search (issues 11 §2–3 and 14 §6):
 *
 * - `default-budget`: unsolvable problems under the default budgets, each
 *   in a child process: how the search stopped, in how long, and the peak
 *   memory (the default must stop well before 1 GB);
 * - `event-loop`: the event loop's delay (p50/p99/max, monitorEventLoopDelay)
 *   while a graph run's planner searches for 3 seconds, with the default
 *   asynchronous A* and, for comparison, the same search run synchronously;
 * - `async-vs-sync`: planDetailedAsync against planDetailed on the chain
 *   instances (and one that yields a few hundred times), time ratio;
 * - `long-plan`: a chain of L actions, L = 1k..16k, time per step;
 * - `budget-overshoot`: 5 ms time budgets (and a 50 ms anytime search) on
 *   large chain instances: time taken against the budget;
 * - `no-plan-agent`: the cost of a replan for agents that get a plan and
 *   for agents that get none;
 * - `wide-world`: the wide numeric world (`wideWorldProblem`, W = 200, 500,
 *   5,000, 10,000; `BENCH_WIDE_W=200,500` for some) planned asynchronously,
 *   each run in a child process: under a 2 s time budget (overrun), aborted
 *   500 ms in (abort latency), by a graph's planner node, and the first two
 *   again in a one-worker `PlannerPool` (`pool`, `pool-abort`); event-loop
 *   p99 and longest delay, in wall-clock and in CPU time between two turns of
 *   the loop (the first counts waiting for a core on a loaded machine), with
 *   a bare one-node LangGraph graph's first run in a fresh process as the
 *   baseline (`langgraph-first`: LangGraph's own cold start);
 * - `lifted-budgets`: toggles with `maxNodes`/`timeBudgetMs` Infinity for 8 s
 *   (pauses while the hash table and node arrays grow).
 *
 * `BENCH_BOUNDED=event-loop,long-plan npm run bench -- bounded` runs some parts only.
 */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createVillageActions, VILLAGE_GOALS } from "../../examples/lib/village.js";
import { ActionSpec, createRng, GoalSpec, type WorldState } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import {
  AnytimePlanningStrategy,
  AStarStrategy,
  type HeuristicName,
  type PlanningStrategy,
  planDetailed,
  planDetailedAsync,
} from "../../src/planner/index.js";
import { emit, median, timeIt } from "../emit.js";
import { CHAIN_INSTANCES, chainProblem, chainToLanggoap, type LanggoapProblem, togglesProblem } from "../problems.js";

const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);

async function defaultBudgets(): Promise<void> {
  for (const problem of ["add-two", "toggles", "counters"]) {
    const { stdout } = await run(process.execPath, ["--import", "tsx", join(here, "..", "children", "search-memory.ts"), problem], {
      cwd: join(here, "..", ".."),
    });
    emit({ suite: "bounded", bench: "default-budget", ...JSON.parse(stdout) });
  }
}

/**
 * The event loop's delay while `work` runs: `monitorEventLoopDelay`'s
 * p50/p99/max (ms), and the gaps between the callbacks of a 1 ms interval
 * timer (p99 and longest), which also catch a loop blocked for seconds (the
 * histogram records such a stall poorly).
 */
async function loopDelayDuring<T>(work: () => Promise<T>): Promise<{ value: T; figures: Record<string, number> }> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  const gaps: number[] = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
  }, 1);
  histogram.enable();
  const began = performance.now();
  const value = await work();
  const ms = performance.now() - began;
  // Let a timer that the work held back fire, so a blocked loop is measured too.
  await new Promise((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  clearInterval(timer);
  gaps.sort((a, b) => a - b);
  const round = (v: number) => Number(v.toFixed(2));
  return {
    value,
    figures: {
      runMs: Math.round(ms),
      p50DelayMs: round(histogram.percentile(50) / 1e6),
      p99DelayMs: round(histogram.percentile(99) / 1e6),
      maxDelayMs: round(histogram.max / 1e6),
      timerCallbacks: gaps.length,
      p99GapMs: round(gaps[Math.min(gaps.length - 1, Math.floor(gaps.length * 0.99))] ?? 0),
      maxGapMs: round(gaps[gaps.length - 1] ?? 0),
    },
  };
}

/**
 * A graph run whose planner searches for 3 s (an unsolvable problem, time
 * budget 3 s): the default asynchronous A*, the same search run
 * synchronously (as before), and an idle loop of the same length as a
 * control (other processes' load shows there too).
 */
async function eventLoopDuringGraphSearch(): Promise<void> {
  const { actions, start, goal } = togglesProblem(40);
  const idle = await loopDelayDuring(() => new Promise((resolve) => setTimeout(resolve, 3000)));
  emit({ suite: "bounded", bench: "event-loop", mode: "idle (control)", ...idle.figures });
  const sync: PlanningStrategy = {
    name: "astar-sync",
    plan: async (s, g, a) => planDetailed(s, g, a, { timeBudgetMs: 3000 }).plan,
    planDetailed: async (s, g, a) => planDetailed(s, g, a, { timeBudgetMs: 3000 }),
  };
  for (const [mode, strategy] of [
    ["graph, async A* (default)", new AStarStrategy({ timeBudgetMs: 3000 })],
    ["graph, sync A* (before)", sync],
  ] as const) {
    const graph = new GoapGraph(actions, { strategy });
    const { value, figures } = await loopDelayDuring(() => graph.invoke(goal, start));
    emit({ suite: "bounded", bench: "event-loop", mode, status: value.status, ...figures });
  }
}

async function asyncVersusSync(): Promise<void> {
  const instances: [string, LanggoapProblem][] = [
    ...Object.entries(CHAIN_INSTANCES).map(([name, p]) => [name, chainToLanggoap(chainProblem(p))] as [string, LanggoapProblem]),
    ["N32-M72 seed 2", chainToLanggoap(chainProblem({ N: 32, M: 72, D: 16, seed: 2 }))],
  ];
  for (const [instance, { actions, start, goal }] of instances) {
    const big = instance.startsWith("N32");
    const options = { warmup: big ? 1 : 3, minRuns: big ? 3 : 5, minMs: big ? 0 : 400, maxRuns: big ? 3 : 2000 };
    // Alternate the two so that load from other processes hits both alike.
    const syncTimes: number[] = [];
    const asyncTimes: number[] = [];
    let expansions = 0;
    for (let round = 0; round < 3; round++) {
      syncTimes.push((await timeIt(() => planDetailed(start, goal, actions), options)).medianMs);
      asyncTimes.push(
        (
          await timeIt(async () => {
            expansions = (await planDetailedAsync(start, goal, actions)).stats.nodesExpanded;
          }, options)
        ).medianMs,
      );
    }
    const syncMs = median(syncTimes);
    const asyncMs = median(asyncTimes);
    emit({
      suite: "bounded",
      bench: "async-vs-sync",
      instance,
      expansions,
      syncMs: Number(syncMs.toFixed(3)),
      asyncMs: Number(asyncMs.toFixed(3)),
      ratio: Number((asyncMs / syncMs).toFixed(3)),
    });
  }
}

/** A chain of `length` actions over `length + 1` declared facts (the domain-file shape: every fact in the state). */
function declaredChain(length: number): LanggoapProblem {
  const actions = Array.from(
    { length },
    (_, i) => new ActionSpec({ name: `step_${i}`, preconditions: { [`s${i}`]: true }, effects: { [`s${i + 1}`]: true } }),
  );
  const start: WorldState = {};
  for (let i = 0; i <= length; i++) start[`s${i}`] = i === 0;
  return { actions, start, goal: new GoalSpec({ conditions: { [`s${length}`]: true } }) };
}

async function longPlans(): Promise<void> {
  const lengths = [1000, 2000, 4000, 8000, 16000];
  for (const heuristic of ["zero", "hmax"] as HeuristicName[]) {
    const warm = declaredChain(500);
    planDetailed(warm.start, warm.goal, warm.actions, { heuristic });
    let first = 0;
    for (const length of lengths) {
      if (heuristic === "hmax" && length > 8000) break;
      const { actions, start, goal } = declaredChain(length);
      const times: number[] = [];
      let steps = 0;
      for (let i = 0; i < 2; i++) {
        const began = performance.now();
        const result = planDetailed(start, goal, actions, { heuristic, timeBudgetMs: Number.POSITIVE_INFINITY });
        times.push(performance.now() - began);
        steps = result.plan?.length ?? 0;
      }
      const ms = Math.min(...times);
      const usPerStep = (ms * 1000) / length;
      first ||= usPerStep;
      emit({
        suite: "bounded",
        bench: "long-plan",
        heuristic,
        length,
        steps,
        ms: Math.round(ms),
        usPerStep: Number(usPerStep.toFixed(1)),
        perStepVs1k: Number((usPerStep / first).toFixed(2)),
      });
    }
  }
}

async function budgetOvershoot(): Promise<void> {
  for (const [N, seed] of [
    [44, 1],
    [48, 1],
    [48, 2],
  ] as const) {
    const { actions, start, goal } = chainToLanggoap(chainProblem({ N, M: Math.round(N * 2.25), D: N / 2, seed }));
    planDetailed(start, goal, actions, { timeBudgetMs: 5 });
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const began = performance.now();
      planDetailed(start, goal, actions, { timeBudgetMs: 5 });
      times.push(performance.now() - began);
    }
    const anytime: number[] = [];
    let found = 0;
    for (let i = 0; i < 5; i++) {
      const began = performance.now();
      if (await new AnytimePlanningStrategy({ timeBudgetMs: 50 }).plan(start, goal, actions)) found++;
      anytime.push(performance.now() - began);
    }
    emit({
      suite: "bounded",
      bench: "budget-overshoot",
      instance: `N${N}-M${Math.round(N * 2.25)} seed ${seed}`,
      budgetMs: 5,
      medianMs: Number(median(times).toFixed(2)),
      maxMs: Number(Math.max(...times).toFixed(2)),
      anytimeBudgetMs: 50,
      anytimeMedianMs: Number(median(anytime).toFixed(2)),
      anytimeMaxMs: Number(Math.max(...anytime).toFixed(2)),
      anytimeFound: `${found}/5`,
    });
  }
  // A large domain (3,000 actions) is compiled once, not at every call; LM-cut's evaluations are the dearest there
  // (thousands of cuts on a long plan), and one stops at 5 ms.
  const longChain = declaredChain(3000);
  for (const [heuristic, budgetMs] of [
    ["default", 5],
    ["lmcut", 5],
    ["lmcut", 50],
  ] as const) {
    const options = { ...(heuristic === "lmcut" ? { heuristic } : {}), timeBudgetMs: budgetMs };
    planDetailed(longChain.start, longChain.goal, longChain.actions, options);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const began = performance.now();
      planDetailed(longChain.start, longChain.goal, longChain.actions, options);
      times.push(performance.now() - began);
    }
    emit({
      suite: "bounded",
      bench: "budget-overshoot",
      instance: "chain of 3,000 steps",
      heuristic,
      budgetMs,
      medianMs: Number(median(times).toFixed(2)),
      maxMs: Number(Math.max(...times).toFixed(2)),
    });
  }
}

async function noPlanAgents(): Promise<void> {
  const actions = Object.freeze(createVillageActions());
  const rng = createRng(50);
  const states = Array.from({ length: 2000 }, () => ({
    has_axe: rng.next() < 0.5,
    has_wood: false,
    has_food: false,
    near_tree: rng.next() < 0.3,
    near_campfire: rng.next() < 0.3,
    near_shelter: false,
    is_hungry: true,
    is_tired: false,
  }));
  const goal = new GoalSpec({ conditions: VILLAGE_GOALS.notHungry });
  const groups = { plan: states.filter((s) => s.has_axe), no_plan: states.filter((s) => !s.has_axe) };
  const usPerReplan: Record<string, number> = {};
  for (const [label, group] of Object.entries(groups)) {
    const { medianMs } = await timeIt(
      () => {
        for (const state of group) planDetailed(state, goal, actions);
      },
      { warmup: 3, minRuns: 10, minMs: 1000, maxRuns: 200 },
    );
    usPerReplan[label] = (medianMs * 1000) / group.length;
  }
  emit({
    suite: "bounded",
    bench: "no-plan-agent",
    domain: "village",
    usPerReplanWithPlan: Number((usPerReplan.plan as number).toFixed(2)),
    usPerReplanNoPlan: Number((usPerReplan.no_plan as number).toFixed(2)),
    ratio: Number(((usPerReplan.no_plan as number) / (usPerReplan.plan as number)).toFixed(2)),
  });
}

async function wideWorld(): Promise<void> {
  const widths = process.env.BENCH_WIDE_W?.split(",").map(Number) ?? [200, 500, 5000, 10000];
  // The baseline for `graph`: a bare one-node LangGraph graph's first run in a fresh process (no world, no planning).
  const runs: [number, string, number][] = [[2, "langgraph-first", 0]];
  for (const W of widths) {
    for (const [mode, ms] of [
      ["budget", 2000],
      ["abort", 500],
      ["graph", 2000],
      ["pool", 2000],
      ["pool-abort", 500],
    ] as const) {
      runs.push([W, mode, ms]);
    }
  }
  for (const [W, mode, ms] of runs) {
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", join(here, "..", "children", "wide-world.ts"), String(W), mode, String(ms)],
      { cwd: join(here, "..", "..") },
    );
    emit({ suite: "bounded", bench: "wide-world", ...JSON.parse(stdout) });
  }
}

/** The toggles search with its budgets lifted, aborted after 8 s (`lifted-budgets.ts`): pauses as its tables grow. */
async function liftedBudgets(): Promise<void> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", join(here, "..", "children", "lifted-budgets.ts"), "8000"], {
    cwd: join(here, "..", ".."),
  });
  emit({ suite: "bounded", bench: "lifted-budgets", ...JSON.parse(stdout) });
}

const PARTS: Record<string, () => Promise<void>> = {
  "default-budget": defaultBudgets,
  "event-loop": eventLoopDuringGraphSearch,
  "async-vs-sync": asyncVersusSync,
  "budget-overshoot": budgetOvershoot,
  "no-plan-agent": noPlanAgents,
  "long-plan": longPlans,
  "wide-world": wideWorld,
  "lifted-budgets": liftedBudgets,
};

/** Runs every part, or those named in `BENCH_BOUNDED` (comma-separated, e.g. `event-loop,long-plan`). */
export default async function boundedBench(): Promise<void> {
  const only = process.env.BENCH_BOUNDED?.split(",").map((p) => p.trim());
  for (const [name, part] of Object.entries(PARTS)) if (!only || only.includes(name)) await part();
}
