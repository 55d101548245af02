/**
 * MILP back-ends side by side: HiGHS (WebAssembly) and javascript-lp-solver
 * on the models the optimize layer builds.
 *
 *  - plan-selection-200: optimizePlans over 200 candidate plans (one binary
 *    each) with a hard budget and two lexicographic objectives; the answer
 *    is checked against an exact sort.
 *  - plan-portfolio-200: one plan for each of 20 agents from 10 candidates
 *    each (200 binaries) under shared budgets, minimising total minutes — a
 *    multiple-choice knapsack, the hard kind of selection model.
 *  - rcpsp-30: schedulePlan on 30-task resource-constrained projects (a
 *    time-indexed MILP), five seeded instances.
 *
 * Every solve runs under a time limit; timeouts and unproved answers are
 * reported as such, never as results.
 */
import { ActionSpec, createRng, GoalSpec, type Rng } from "../../src/core/index.js";
import {
  createSolver,
  MilpModelBuilder,
  type OptimizeMetadata,
  optimizePlans,
  type SolverName,
  schedulePlan,
} from "../../src/optimize/index.js";
import { Plan, replayPlan } from "../../src/planner/index.js";
import { emit, median, timeIt } from "../emit.js";

const SOLVERS: SolverName[] = ["highs", "javascript-lp-solver"];
const TIME_LIMIT_MS = Number(process.env.BENCH_SOLVER_LIMIT_MS ?? 10_000);

function planOf(actions: ActionSpec[]): Plan {
  const replay = replayPlan({}, actions);
  return new Plan({ actions, expectedStates: replay.states, startState: {}, totalCost: replay.totalCost });
}

/** `size` single-step candidate plans with money, time and quality. */
function selectionInstance(rng: Rng, size = 200) {
  const candidates = Array.from({ length: size }, (_, i) => {
    const usd = rng.int(1, 100);
    const minutes = rng.int(1, 100);
    return planOf([new ActionSpec({ name: `option_${i}`, effects: { done: true }, cost: rng.int(1, 9), resources: { usd, minutes } })]);
  });
  const goal = new GoalSpec({
    conditions: { done: true },
    constraints: [{ key: "usd", max: 40, name: "budget" }],
    objectives: [
      { key: "minutes", direction: "minimize" },
      { key: "usd", direction: "minimize" },
    ],
  });
  // Exact answer: feasible candidates by (minutes, usd, cost, index).
  const total = (p: Plan, k: string) => p.actions[0]?.resources?.[k] as number;
  const expected = candidates
    .map((p, i) => ({ p, i }))
    .filter(({ p }) => total(p, "usd") <= 40)
    .sort(
      (a, b) =>
        total(a.p, "minutes") - total(b.p, "minutes") ||
        total(a.p, "usd") - total(b.p, "usd") ||
        a.p.totalCost - b.p.totalCost ||
        a.i - b.i,
    )[0]?.p;
  return { candidates, goal, expected };
}

/** 20 agents x 10 candidate plans, shared usd and token budgets, minimise total minutes. */
function portfolioModel(rng: Rng) {
  const b = new MilpModelBuilder();
  const usd: [number, number][] = [];
  const tokens: [number, number][] = [];
  const minutes: [number, number][] = [];
  for (let agent = 0; agent < 20; agent++) {
    const picks: [number, number][] = [];
    for (let k = 0; k < 10; k++) {
      const x = b.addBinary(`a${agent}_p${k}`);
      picks.push([x, 1]);
      const speed = rng.int(1, 50);
      usd.push([x, 60 - speed + rng.int(0, 10)]);
      tokens.push([x, rng.int(10, 100)]);
      minutes.push([x, speed + rng.int(0, 5)]);
    }
    b.addConstraint(`agent_${agent}`, picks, { min: 1, max: 1 });
  }
  b.addConstraint("usd_budget", usd, { max: 20 * 35 });
  b.addConstraint("token_budget", tokens, { max: 20 * 55 });
  b.setObjective("minimize", minutes);
  return b.build();
}

/** A 30-task project: durations 1-10 days, precedences within a window, each task uses one of two crews. */
function rcpspPlan(rng: Rng): { plan: Plan; capacities: Record<string, number> } {
  const n = 30;
  const actions: ActionSpec[] = [];
  for (let j = 0; j < n; j++) {
    const preds = Array.from({ length: j }, (_, i) => i).filter((i) => j - i <= 8 && rng.next() < 0.25);
    const crew = rng.next() < 0.5 ? "masons" : "fitters";
    actions.push(
      new ActionSpec({
        name: `task_${j}`,
        preconditions: Object.fromEntries(preds.map((i) => [`done_${i}`, true])),
        effects: { [`done_${j}`]: true },
        durationMs: rng.int(1, 10) * 1000,
        resources: { [crew]: rng.int(1, 4) },
      }),
    );
  }
  return { plan: planOf(actions), capacities: { masons: 6, fitters: 6 } };
}

export default async function solversBench(): Promise<void> {
  // --- plan-selection: the exact scan (default) against the selection MILP, 200 and 4,096 candidates ---
  for (const size of [200, 4096]) {
    const selection = selectionInstance(createRng(2024), size);
    const runsOf = [
      { method: "exact" as const, solver: "highs" as const },
      ...SOLVERS.map((solver) => ({ method: "milp" as const, solver })),
    ];
    for (const { method, solver } of runsOf) {
      let chosen: Plan | null = null;
      const { medianMs, runs } = await timeIt(
        async () => {
          chosen = await optimizePlans(selection.candidates, selection.goal, { solver, method, timeLimitMs: TIME_LIMIT_MS });
        },
        size > 200 && method === "milp"
          ? { warmup: 0, minRuns: 1, minMs: 0, maxRuns: 1 }
          : { warmup: 1, minRuns: 5, minMs: 500, maxRuns: 30 },
      );
      const meta = (chosen as Plan | null)?.metadata.csp as OptimizeMetadata | undefined;
      emit({
        suite: "solvers",
        model: `plan-selection-${size}`,
        method,
        solver: method === "exact" ? "exact-scan" : solver,
        binaries: size,
        levels: meta?.levelValues?.length ?? 0,
        status: meta?.status,
        correct: (chosen as Plan | null)?.actionNames[0] === selection.expected?.actionNames[0],
        msPerSelection: Number(medianMs.toFixed(2)),
        runs,
      });
    }
  }

  // --- plan-portfolio-200 ---------------------------------------------------
  const portfolio = portfolioModel(createRng(7));
  const objectives: Record<string, number | null> = {};
  for (const solver of SOLVERS) {
    const backend = createSolver(solver);
    const times: number[] = [];
    let last = await backend.solve(portfolio, { timeLimitMs: TIME_LIMIT_MS });
    for (let run = 0; run < 3; run++) {
      last = await backend.solve(portfolio, { timeLimitMs: TIME_LIMIT_MS });
      times.push(last.solveTimeMs);
    }
    objectives[solver] = last.objective;
    emit({
      suite: "solvers",
      model: "plan-portfolio-200",
      solver,
      binaries: 200,
      status: last.status,
      objective: last.objective,
      medianSolveMs: Number(median(times).toFixed(2)),
      timeLimitMs: TIME_LIMIT_MS,
      ...(last.message ? { message: last.message } : {}),
    });
  }
  emit({ suite: "solvers", model: "plan-portfolio-200", agree: objectives.highs === objectives["javascript-lp-solver"], objectives });

  // --- rcpsp-30 -------------------------------------------------------------
  const instances = [1, 2, 3, 4, 5].map((seed) => ({ seed, ...rcpspPlan(createRng(seed)) }));
  const makespans: Record<string, (number | null)[]> = {};
  for (const solver of SOLVERS) {
    const times: number[] = [];
    const statuses: Record<string, number> = {};
    makespans[solver] = [];
    for (const { seed, plan, capacities } of instances) {
      const started = performance.now();
      const result = await schedulePlan(plan, { capacities, solver, timeLimitMs: TIME_LIMIT_MS });
      const wallMs = performance.now() - started;
      times.push(wallMs);
      statuses[result.status] = (statuses[result.status] ?? 0) + 1;
      makespans[solver]?.push(result.status === "optimal" ? result.makespanMs : null);
      emit({
        suite: "solvers",
        model: "rcpsp-30",
        solver,
        seed,
        status: result.status,
        makespanMs: result.makespanMs,
        lowerBoundMs: result.lowerBoundMs,
        wallMs: Number(wallMs.toFixed(1)),
        ...(result.message ? { message: result.message } : {}),
      });
    }
    emit({
      suite: "solvers",
      model: "rcpsp-30",
      solver,
      instances: instances.length,
      medianWallMs: Number(median(times).toFixed(1)),
      statuses,
      timeLimitMs: TIME_LIMIT_MS,
    });
  }
  const proved = instances.map((_, i) => [makespans.highs?.[i], makespans["javascript-lp-solver"]?.[i]]);
  emit({
    suite: "solvers",
    model: "rcpsp-30",
    agreeWhereBothProved: proved.every(([a, b]) => a == null || b == null || a === b),
  });
}
