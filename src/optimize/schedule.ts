import { describeValue, LangGoapError } from "../core/errors.js";
import { maxOf } from "../core/extremes.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { CSPStatus, Plan, ScheduleEntry } from "../planner/index.js";
import { buildDependencyGraph, type DependencyGraph, type DependencyMode } from "./dependencies.js";
import { precedenceModel, startVariable, timeIndexedModel, timeIndexedSize, timeWindows } from "./schedule-models.js";
import {
  constrainingResources,
  findScheduleViolation,
  heuristicSchedule,
  leftJustify,
  makespanOf,
  type ScheduleProblem,
} from "./schedule-sgs.js";
import { resolveTimeLimit } from "./solver-result.js";
import { DEFAULT_TIME_LIMIT_MS, type MilpResult, type SolverChoice } from "./solver-types.js";
import { createSolver } from "./solvers.js";

/** Options of {@link schedulePlan}. */
export interface ScheduleOptions {
  /**
   * Units available of each resource at any moment, e.g. `{ agents: 2 }`.
   * An action uses the amounts its `resources` field declares for these
   * keys while it runs. Without capacities, independent actions all run in
   * parallel.
   */
  readonly capacities?: Readonly<Record<string, number>>;
  /** @defaultValue "highs" (in a browser: "javascript-lp-solver" in-process) */
  readonly solver?: SolverChoice;
  /** Limit of the solve. @defaultValue 10 000 */
  readonly timeLimitMs?: number;
  /** Which orderings the plan imposes (see `buildDependencyGraph`). @defaultValue "safe" */
  readonly dependencies?: DependencyMode;
  /**
   * Size limit of the time-indexed model. Beyond it, time slots are made
   * coarser (durations rounded up), and the result is at best `feasible`.
   * @defaultValue 20 000
   */
  readonly maxStartVariables?: number;
}

/** A schedule for a plan. */
export interface ScheduleResult {
  /**
   * `optimal` when the makespan is proved minimal. `timeout`/`error` still
   * carry a valid schedule (built without the solver). `infeasible` when an
   * action needs more of a resource than its capacity. `skipped` when no
   * action has a duration and no capacities are given.
   */
  readonly status: CSPStatus;
  readonly schedule: readonly ScheduleEntry[];
  readonly makespanMs: number;
  /** The makespan can be no shorter than this (critical path and resource load). */
  readonly lowerBoundMs: number;
  readonly dependencies: DependencyGraph;
  readonly solver: string;
  readonly solveTimeMs: number;
  readonly message?: string;
}

function checkCapacities(capacities: Readonly<Record<string, number>>): void {
  if (typeof capacities !== "object" || capacities === null || Array.isArray(capacities)) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `schedulePlan: capacities must be an object like { agents: 2 }, got ${describeValue(capacities)}`,
    );
  }
  for (const [key, value] of Object.entries(capacities)) {
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `schedulePlan: capacity of "${key}" must be a finite number >= 0, got ${describeValue(value)}`,
        {
          resource: key,
        },
      );
    }
  }
}

function toProblem(plan: Plan, capacities: Readonly<Record<string, number>>, mode: DependencyMode): ScheduleProblem {
  const demands: Record<string, number[]> = {};
  for (const key of Object.keys(capacities)) {
    demands[key] = plan.actions.map((a) => {
      const u = a.resources?.[key] ?? 0;
      if (u < 0) {
        throw new LangGoapError("INVALID_OPTION", `action "${a.name}" declares ${u} of capacity resource "${key}"; demands must be >= 0`, {
          action: a.name,
          resource: key,
        });
      }
      return u;
    });
  }
  return {
    durations: plan.actions.map((a) => a.durationMs ?? 0),
    predecessors: buildDependencyGraph(plan, { mode }),
    demands,
    capacities,
  };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** The largest slot length that divides every duration exactly, if durations are whole µs. */
function exactGrid(durations: readonly number[]): number | null {
  const positive = durations.filter((d) => d > 0);
  if (positive.length === 0) return 1;
  for (const scale of [1, 1000]) {
    const scaled = positive.map((d) => d * scale);
    if (scaled.every((v) => Math.abs(v - Math.round(v)) < 1e-6)) return scaled.map(Math.round).reduce(gcd) / scale;
  }
  return null;
}

/** Critical path and per-resource load, whichever is larger. */
function lowerBound(problem: ScheduleProblem, durations: readonly number[], ceil: boolean): number {
  const finish = durations.map(() => 0);
  let bound = 0;
  durations.forEach((d, j) => {
    let start = 0;
    for (const i of problem.predecessors[j] ?? []) start = Math.max(start, finish[i] as number);
    finish[j] = start + d;
    bound = Math.max(bound, start + d);
  });
  for (const r of constrainingResources(problem)) {
    const load = durations.reduce((sum, d, j) => sum + d * ((problem.demands[r] as readonly number[])[j] as number), 0);
    const capacity = problem.capacities[r] as number;
    const need = load / capacity;
    bound = Math.max(bound, ceil ? Math.ceil(need - 1e-9) : need);
  }
  return bound;
}

function entries(plan: Plan, problem: ScheduleProblem, starts: readonly number[]): ScheduleEntry[] {
  return plan.actions.map((a, index) => {
    const startMs = starts[index] as number;
    const durationMs = problem.durations[index] as number;
    return Object.freeze({ index, actionName: a.name, startMs, durationMs, endMs: startMs + durationMs });
  });
}

const SCHEDULE_OPTIONS_KEYS = {
  capacities: true,
  solver: true,
  timeLimitMs: true,
  dependencies: true,
  maxStartVariables: true,
} as const satisfies OptionKeys<ScheduleOptions>;

/**
 * Schedules a plan: one interval per action (from its `durationMs`),
 * precedences from the dependency graph (each action after the nearest
 * earlier producer of each precondition, plus the orderings that keep
 * parallel runs safe), and the makespan minimised by the MILP solver.
 *
 * With `capacities`, actions compete for resources (at most `capacity`
 * units of each in use at any moment): a resource-constrained project
 * scheduling problem, solved with a time-indexed MILP whose grid divides
 * every duration (exact), warm-started from a serial-SGS schedule and
 * bounded by the time limit. The answer is left-justified and verified.
 *
 * @example
 * ```ts
 * const { makespanMs, schedule } = await schedulePlan(plan, { capacities: { agents: 2 } });
 * ```
 */
export async function schedulePlan(plan: Plan, options: ScheduleOptions = {}): Promise<ScheduleResult> {
  checkOptionKeys(options, SCHEDULE_OPTIONS_KEYS, "schedulePlan()");
  const started = performance.now();
  const capacities = options.capacities ?? {};
  checkCapacities(capacities);
  const timeLimitMs = resolveTimeLimit(options, DEFAULT_TIME_LIMIT_MS);
  const maxStartVariables = options.maxStartVariables ?? 20_000;
  if (!Number.isInteger(maxStartVariables) || maxStartVariables < 1) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `schedulePlan: maxStartVariables must be an integer >= 1, got ${describeValue(maxStartVariables)}`,
    );
  }
  const problem = toProblem(plan, capacities, options.dependencies ?? "safe");
  const finish = (status: CSPStatus, starts: readonly number[] | null, solver: string, message?: string): ScheduleResult =>
    Object.freeze({
      status,
      schedule: Object.freeze(starts ? entries(plan, problem, starts) : []),
      makespanMs: starts ? makespanOf(problem, starts) : 0,
      lowerBoundMs: lowerBound(problem, problem.durations, false),
      dependencies: problem.predecessors,
      solver,
      solveTimeMs: performance.now() - started,
      ...(message !== undefined ? { message } : {}),
    });

  if (plan.actions.length === 0) return finish("optimal", [], "none");
  if (plan.actions.every((a) => a.durationMs === undefined) && Object.keys(capacities).length === 0) {
    return finish("skipped", problem.durations, "none", "no action has a durationMs");
  }
  for (const [r, capacity] of Object.entries(capacities)) {
    const demands = problem.demands[r] as number[];
    const j = demands.findIndex((u, k) => u > capacity && (problem.durations[k] as number) > 0);
    if (j >= 0) {
      return finish(
        "infeasible",
        null,
        "none",
        `action "${plan.actions[j]?.name}" needs ${demands[j]} of "${r}" but the capacity is ${capacity}`,
      );
    }
  }

  const solver = createSolver(options.solver);
  const fallback = heuristicSchedule(problem);
  const settle = (result: MilpResult, starts: readonly number[] | null, exact: boolean, note?: string): ScheduleResult => {
    if (starts === null) {
      const why = `${result.message ?? result.status}; the schedule shown was built without the solver (serial SGS)`;
      return finish(result.status === "infeasible" ? "error" : result.status, fallback, solver.name, why);
    }
    const final = leftJustify(problem, starts);
    const violation = findScheduleViolation(problem, final);
    if (violation !== null) {
      return finish(
        "error",
        fallback,
        solver.name,
        `the solver's schedule is invalid (${violation}); the schedule shown was built without the solver`,
      );
    }
    const status = result.status === "optimal" && exact ? "optimal" : "feasible";
    if (status === "feasible" && makespanOf(problem, fallback) < makespanOf(problem, final)) {
      const why = [result.message, note, "the heuristic schedule (serial SGS) was shorter and is shown"].filter(Boolean).join("; ");
      return finish("feasible", fallback, solver.name, why);
    }
    const message = [result.message, note].filter(Boolean).join("; ");
    return finish(status, final, solver.name, message || undefined);
  };

  if (constrainingResources(problem).length === 0) {
    const result = await solver.solve(precedenceModel(problem), { timeLimitMs });
    const ok = result.status === "optimal" || result.status === "feasible";
    return settle(result, ok ? problem.durations.map((_, j) => result.values[`s${j}`] as number) : null, true);
  }

  const grid = chooseGrid(problem, maxStartVariables);
  const { slots, earliest, latest, horizon, warm } = grid;
  const slotProblem: ScheduleProblem = { ...problem, durations: slots };
  const model = timeIndexedModel(problem, { slots, earliest, latest, horizon, lowerBound: lowerBound(slotProblem, slots, true) });
  const initialSolution: Record<string, number> = { makespan: horizon };
  slots.forEach((_, j) => {
    for (let t = earliest[j] as number; t <= (latest[j] as number); t++) initialSolution[startVariable(j, t)] = warm[j] === t ? 1 : 0;
  });
  const result = await solver.solve(model, { timeLimitMs, initialSolution });
  if (result.status !== "optimal" && result.status !== "feasible") return settle(result, null, false);
  const starts = slots.map((_, j) => {
    for (let t = earliest[j] as number; t <= (latest[j] as number); t++) if (result.values[startVariable(j, t)] === 1) return t * grid.size;
    return Number.NaN;
  });
  const note = grid.approximate
    ? `durations rounded up to a grid of ${grid.size} ms to keep the model small; optimality not proved`
    : undefined;
  return settle(result, starts, !grid.approximate, note);
}

/** The time grid of the RCPSP model, with the start windows it implies. */
interface Grid {
  /** Slot length in ms. */
  readonly size: number;
  /** True when some duration is not a whole number of slots (rounded up). */
  readonly approximate: boolean;
  readonly slots: readonly number[];
  readonly earliest: readonly number[];
  readonly latest: readonly number[];
  /** Length of the heuristic schedule `warm`, in slots. */
  readonly horizon: number;
  readonly warm: readonly number[];
}

/**
 * The finest grid that divides every duration, made coarser (durations
 * rounded up) while the model would exceed `maxStartVariables` and
 * coarsening still shrinks it.
 */
function chooseGrid(problem: ScheduleProblem, maxStartVariables: number): Grid {
  const exact = exactGrid(problem.durations);
  let size = exact ?? maxOf(problem.durations) / 100;
  let approximate = exact === null;
  for (;;) {
    const slots = problem.durations.map((d) => (approximate ? Math.ceil(d / size - 1e-9) : Math.round(d / size)));
    const warm = heuristicSchedule({ ...problem, durations: slots });
    const horizon = makespanOf({ ...problem, durations: slots }, warm);
    const { earliest, latest } = timeWindows(problem, slots, horizon);
    const variables = timeIndexedSize(earliest, latest);
    if (variables <= maxStartVariables || slots.every((p) => p <= 1)) return { size, approximate, slots, earliest, latest, horizon, warm };
    size *= Math.ceil(variables / maxStartVariables);
    approximate = true;
  }
}
