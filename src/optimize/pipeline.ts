import type { ActionSpec } from "../core/action.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import { type GoalLike, type GoalSpec, toGoalSpec } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { callTracer, type PlanningTracer } from "../core/tracer.js";
import { type HeuristicName, type Plan, planDetailedAsync, type StrategyResult } from "../planner/index.js";
import { enumeratePlans } from "./alternatives.js";
import { activeObjectives, hasPreferences, type ObjectiveMode, type PlanEvaluation } from "./evaluate.js";
import { wantsSchedule, withSchedule } from "./refine.js";
import { schedulePlan } from "./schedule.js";
import { annotate, evaluateCandidates, optimizePlans } from "./select.js";
import type { SolverChoice } from "./solver-types.js";

/** Options of {@link pipelinePlan}. */
export interface PipelineOptions {
  /** Alternatives enumerated besides the A* plan (the k cheapest distinct plans). @defaultValue 5 */
  readonly maxAlternatives?: number;
  /** @defaultValue "highs" (in a browser: "javascript-lp-solver" in-process) */
  readonly solver?: SolverChoice;
  /** Limit of each solver phase (selection, scheduling). @defaultValue 10 000 */
  readonly timeLimitMs?: number;
  /** Resource capacities for scheduling, e.g. `{ agents: 2 }`. */
  readonly capacities?: Readonly<Record<string, number>>;
  /** @defaultValue "lexicographic" */
  readonly objectiveMode?: ObjectiveMode;
  /** Heuristic of the A* searches. @defaultValue the planner's choice by domain (see `PlanOptions.heuristic`) */
  readonly heuristic?: HeuristicName;
  /** Actions to avoid (A* falls back to them when nothing else works, unless `blacklistFallback` is false). */
  readonly blacklisted?: Iterable<string>;
  /** Let A* use blacklisted actions when no plan exists without them. @defaultValue true */
  readonly blacklistFallback?: boolean;
  /** Bound on the A* searches of the enumeration. @defaultValue 5000 */
  readonly maxSearches?: number;
  /** Stops the searches (solver phases are bounded by `timeLimitMs`). */
  readonly signal?: AbortSignal;
  /** Receives the A* search hooks and `onSearchDeadEnd("csp_infeasible", ...)` when the A* plan breaks a hard constraint. */
  readonly tracer?: PlanningTracer;
  /** Record the A* expansions for the tracer. @defaultValue false */
  readonly recordExpansions?: boolean;
}

/** True when the cheapest plan may not be the best one, so alternatives are worth enumerating. */
function rankedBeyondCost(goal: GoalSpec): boolean {
  return activeObjectives(goal).length > 0 || hasPreferences(goal) || goal.constraints.some((c) => c.key === "makespanMs");
}

const PIPELINE_OPTIONS_KEYS = {
  maxAlternatives: true,
  solver: true,
  timeLimitMs: true,
  capacities: true,
  objectiveMode: true,
  heuristic: true,
  blacklisted: true,
  blacklistFallback: true,
  maxSearches: true,
  signal: true,
  tracer: true,
  recordExpansions: true,
} as const satisfies OptionKeys<PipelineOptions>;

function checkOptions(options: PipelineOptions): number {
  checkOptionKeys(options, PIPELINE_OPTIONS_KEYS, "pipelinePlan()");
  const k = options.maxAlternatives ?? 5;
  if (!Number.isInteger(k) || k < 0) {
    throw new LangGoapError("INVALID_OPTION", `pipelinePlan: maxAlternatives must be an integer >= 0, got ${describeValue(k)}`);
  }
  return k;
}

/**
 * The two-phase pipeline. Phase one: A* finds the cheapest plan (the
 * construction heuristic). Phase two, only when the goal has constraints,
 * objectives or metrics: the plan is validated; when it breaks a hard
 * constraint, or the goal ranks plans by more than cost, the k cheapest
 * distinct plans are enumerated and the MILP solver selects the best of
 * them lexicographically; the chosen plan is then scheduled (when actions
 * have durations) and returned with `metadata.csp` and a `HardSoftScore`
 * or `BendableScore`.
 *
 * The constraint layer is advisory: when no candidate meets the hard
 * constraints, the least-violating plan is still returned, with
 * `csp.status === "infeasible"` and an explanation. `null` means A* proved
 * there is no plan at all.
 *
 * @example
 * ```ts
 * const goal = new GoalSpec({ conditions: { report: true }, constraints: [{ key: "usd", max: 1 }] });
 * const plan = await pipelinePlan({}, goal, actions, { maxAlternatives: 5 });
 * plan?.metadata.csp?.status; // "optimal"
 * ```
 */
export async function pipelinePlan(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: PipelineOptions = {},
): Promise<Plan | null> {
  return (await pipelinePlanDetailed(start, goal, actions, options)).plan;
}

/**
 * {@link pipelinePlan} with the status of its A* phase when there is no
 * plan: `no_plan` (proven), `budget_exhausted` (A*'s default budgets: 10 s,
 * 1,000,000 states) or `aborted`. A* searches asynchronously, so the event
 * loop keeps running.
 *
 * @example
 * ```ts
 * const { plan, status } = await pipelinePlanDetailed({}, goal, actions);
 * ```
 */
export async function pipelinePlanDetailed(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: PipelineOptions = {},
): Promise<StrategyResult> {
  const maxAlternatives = checkOptions(options);
  const spec = toGoalSpec(goal);
  const first = await planDetailedAsync(start, spec, actions, {
    ...(options.heuristic !== undefined ? { heuristic: options.heuristic } : {}),
    ...(options.blacklisted ? { blacklisted: options.blacklisted } : {}),
    ...(options.blacklistFallback !== undefined ? { blacklistFallback: options.blacklistFallback } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.tracer ? { tracer: options.tracer } : {}),
    ...(options.recordExpansions ? { recordExpansions: true } : {}),
  });
  const primary = first.plan;
  if (primary === null) return first;
  return { plan: await refinePrimary(primary, start, spec, actions, options, maxAlternatives), status: "found", stats: first.stats };
}

async function refinePrimary(
  primary: Plan,
  start: Readonly<WorldState>,
  spec: GoalSpec,
  actions: readonly ActionSpec[],
  options: PipelineOptions,
  maxAlternatives: number,
): Promise<Plan> {
  if (!spec.needsOptimization && options.capacities === undefined) return primary;

  const mode = options.objectiveMode ?? "lexicographic";
  const solverOptions = {
    ...(options.solver !== undefined ? { solver: options.solver } : {}),
    ...(options.timeLimitMs !== undefined ? { timeLimitMs: options.timeLimitMs } : {}),
    ...(options.capacities ? { capacities: options.capacities } : {}),
  };
  const primaryCheck = await evaluateCandidates([primary], spec, solverOptions);
  const primaryEvaluation = primaryCheck.evaluations[0] as PlanEvaluation;
  const primaryFeasible = primaryEvaluation.feasible && primaryCheck.unschedulable[0] === null;
  if (!primaryFeasible && options.recordExpansions) {
    callTracer(options.tracer, "onSearchDeadEnd", "csp_infeasible", { plan: primary.actionNames, status: "infeasible" });
  }

  let candidates: Plan[] = [primary];
  if (!primary.isEmpty && maxAlternatives > 0 && (!primaryFeasible || rankedBeyondCost(spec))) {
    // Reorderings of one plan have the same totals, and (their precedences
    // coming from what each action needs) almost always the same schedule:
    // counting them separately would fill k with permutations.
    const blacklisted = primary.metadata.usedBlacklistFallback ? [] : [...(options.blacklisted ?? [])];
    candidates = enumeratePlans(start, spec, actions, {
      count: maxAlternatives + 1,
      primary,
      distinct: "actions",
      blacklisted,
      ...(options.heuristic !== undefined ? { heuristic: options.heuristic } : {}),
      ...(options.maxSearches !== undefined ? { maxSearches: options.maxSearches } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (candidates.length === 0) candidates = [primary];
  }

  let chosen =
    candidates.length > 1 || spec.needsOptimization
      ? await optimizePlans(candidates, spec, { ...solverOptions, objectiveMode: mode })
      : annotate(primary, spec, primaryEvaluation, {}, mode);
  if (wantsSchedule(chosen, options.capacities)) chosen = withSchedule(chosen, await schedulePlan(chosen, solverOptions));
  return chosen.with({
    metadata: {
      ...primary.metadata,
      strategy: "pipeline",
      alternativesConsidered: candidates.length,
      csp: chosen.metadata.csp,
    },
  });
}
