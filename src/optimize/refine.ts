import { type GoalLike, toGoalSpec } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { CSPStatus, Plan } from "../planner/index.js";
import type { ObjectiveMode, PlanEvaluation } from "./evaluate.js";
import type { OptimizeMetadata } from "./metadata.js";
import { type ScheduleResult, schedulePlan } from "./schedule.js";
import { annotate, evaluateCandidates } from "./select.js";
import type { SolverChoice } from "./solver-types.js";

/** Options of {@link refinePlan}. */
export interface RefineOptions {
  /** @defaultValue "highs" (in a browser: "javascript-lp-solver" in-process) */
  readonly solver?: SolverChoice;
  /** Limit of each solver phase. @defaultValue 10 000 */
  readonly timeLimitMs?: number;
  /** Resource capacities for scheduling (see `schedulePlan`). */
  readonly capacities?: Readonly<Record<string, number>>;
  /** @defaultValue "lexicographic" */
  readonly objectiveMode?: ObjectiveMode;
}

/** True when a plan should get a schedule: some action has a duration, or capacities are given. */
export function wantsSchedule(plan: Plan, capacities: Readonly<Record<string, number>> | undefined): boolean {
  return plan.actions.length > 0 && (plan.actions.some((a) => a.durationMs !== undefined) || Object.keys(capacities ?? {}).length > 0);
}

/**
 * @internal Adds a schedule to a plan's CSP metadata. The overall status is
 * the weaker of the two passes: a schedule that is impossible under the
 * capacities makes the plan infeasible; one that is only not proved optimal
 * (or was built without the solver) turns `optimal` into `feasible`.
 */
export function withSchedule(plan: Plan, scheduled: ScheduleResult): Plan {
  const csp = plan.metadata.csp as OptimizeMetadata | undefined;
  const selection: CSPStatus = csp?.status ?? "feasible";
  const provedSchedule = scheduled.status === "optimal" || scheduled.status === "skipped";
  const status: CSPStatus =
    scheduled.status === "infeasible" ? "infeasible" : selection === "optimal" && !provedSchedule ? "feasible" : selection;
  const messages = [csp?.message, scheduled.message && `schedule: ${scheduled.message}`].filter(Boolean);
  const merged: OptimizeMetadata = {
    ...(csp ?? { resourceUsage: [], solver: "none", solveTimeMs: 0 }),
    status,
    schedule: scheduled.schedule,
    makespanMs: scheduled.makespanMs,
    lowerBoundMs: scheduled.lowerBoundMs,
    dependencies: scheduled.dependencies,
    scheduleStatus: scheduled.status,
    // An exact-scan selection used no solver; the schedule did.
    solver: csp && csp.solver !== "none" && csp.solver !== "exact-scan" ? csp.solver : scheduled.solver,
    solveTimeMs: (csp?.solveTimeMs ?? 0) + scheduled.solveTimeMs,
    ...(messages.length ? { message: messages.join("; ") } : {}),
  };
  return plan.with({ metadata: { csp: Object.freeze(merged) } });
}

const REFINE_OPTIONS_KEYS = {
  solver: true,
  timeLimitMs: true,
  capacities: true,
  objectiveMode: true,
} as const satisfies OptionKeys<RefineOptions>;

/**
 * Refines one plan without looking for others: checks it against the
 * goal's constraints, scores it, and schedules it when its actions have
 * durations (or capacities are given). This is the CSP pass of the
 * pipeline applied to a plan from anywhere (MCTS, a cache, a human).
 *
 * @example
 * ```ts
 * const refined = await refinePlan(plan, goal, { capacities: { agents: 2 } });
 * refined.metadata.csp?.makespanMs;
 * ```
 */
export async function refinePlan(plan: Plan, goal: GoalLike, options: RefineOptions = {}): Promise<Plan> {
  checkOptionKeys(options, REFINE_OPTIONS_KEYS, "refinePlan()");
  const spec = toGoalSpec(goal);
  const { evaluations } = await evaluateCandidates([plan], spec, options);
  let refined = annotate(plan, spec, evaluations[0] as PlanEvaluation, {}, options.objectiveMode ?? "lexicographic");
  if (wantsSchedule(plan, options.capacities)) {
    refined = withSchedule(
      refined,
      await schedulePlan(plan, {
        ...(options.capacities ? { capacities: options.capacities } : {}),
        ...(options.solver !== undefined ? { solver: options.solver } : {}),
        ...(options.timeLimitMs !== undefined ? { timeLimitMs: options.timeLimitMs } : {}),
      }),
    );
  }
  return refined;
}
