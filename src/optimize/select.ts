import { describeValue, LangGoapError } from "../core/errors.js";
import { type GoalLike, type GoalSpec, toGoalSpec } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { Plan } from "../planner/index.js";
import {
  activeObjectives,
  evaluatePlan,
  namedObjectiveValues,
  type ObjectiveMode,
  type PlanEvaluation,
  scoreFromEvaluation,
} from "./evaluate.js";
import { selectExactly } from "./exact-selection.js";
import { explainInfeasibility } from "./explain.js";
import { type LexicographicResult, solveLexicographic } from "./lexicographic.js";
import type { OptimizeMetadata } from "./metadata.js";
import { schedulePlan } from "./schedule.js";
import { selectionModel } from "./selection-model.js";
import type { SolverChoice } from "./solver-types.js";
import { createSolver } from "./solvers.js";
import { resourceUsageOf, violationsOf } from "./validate.js";

/** Options of {@link optimizePlans}. */
export interface OptimizeOptions {
  /** @defaultValue "highs" (in a browser: "javascript-lp-solver" in-process) */
  readonly solver?: SolverChoice;
  /** Budget of the whole selection (all lexicographic levels). @defaultValue 10 000 */
  readonly timeLimitMs?: number;
  /**
   * `lexicographic`: hard feasibility, then preferences, then each
   * objective in declared order, then cost. `weighted`: one weighted sum of
   * preferences and objectives (LangGOAP's behaviour). @defaultValue "lexicographic"
   */
  readonly objectiveMode?: ObjectiveMode;
  /** Resource capacities used when a constraint or objective is on `makespanMs`. */
  readonly capacities?: Readonly<Record<string, number>>;
  /**
   * How the one plan is chosen. `exact`: each candidate's totals are
   * constants, so the lexicographic minimum is found by one scan (exact,
   * microseconds for thousands of candidates). `milp`: the same levels as
   * a selection MILP on `solver`, solved level by level (kept for
   * cross-checking; subject to the solver's tolerance and time limit).
   * @defaultValue "exact"
   */
  readonly method?: "exact" | "milp";
}

function usesMakespan(goal: GoalSpec): boolean {
  return goal.constraints.some((c) => c.key === "makespanMs") || goal.objectives.some((o) => o.key === "makespanMs");
}

/** @internal Candidates as the selection sees them. */
export interface CandidateEvaluations {
  readonly evaluations: readonly PlanEvaluation[];
  /** Why a candidate cannot run under the capacities at all (null when it can). */
  readonly unschedulable: readonly (string | null)[];
}

/** @internal Evaluates candidates, scheduling each under capacities when `makespanMs` matters. */
export async function evaluateCandidates(
  candidates: readonly Plan[],
  goal: GoalSpec,
  options: Pick<OptimizeOptions, "capacities" | "solver" | "timeLimitMs">,
): Promise<CandidateEvaluations> {
  const capacities = options.capacities;
  if (!capacities || !usesMakespan(goal)) {
    return { evaluations: candidates.map((p) => evaluatePlan(p, goal)), unschedulable: candidates.map(() => null) };
  }
  const evaluations: PlanEvaluation[] = [];
  const unschedulable: (string | null)[] = [];
  for (const plan of candidates) {
    const scheduled = await schedulePlan(plan, {
      capacities,
      ...(options.solver !== undefined ? { solver: options.solver } : {}),
      ...(options.timeLimitMs !== undefined ? { timeLimitMs: options.timeLimitMs } : {}),
    });
    evaluations.push(evaluatePlan(plan, goal, { makespanMs: scheduled.makespanMs }));
    unschedulable.push(scheduled.status === "infeasible" ? (scheduled.message ?? "it cannot be scheduled under the capacities") : null);
  }
  return { evaluations, unschedulable };
}

/** @internal The metadata and score of one evaluated plan. */
export function annotate(
  plan: Plan,
  goal: GoalSpec,
  evaluation: PlanEvaluation,
  csp: Partial<OptimizeMetadata>,
  mode: ObjectiveMode,
): Plan {
  const first = activeObjectives(goal)[0];
  const explanation = evaluation.feasible
    ? undefined
    : (csp.explanation ?? explainInfeasibility(plan, goal, { evaluations: [evaluation] }));
  const metadata: OptimizeMetadata = {
    status: evaluation.feasible ? "feasible" : "infeasible",
    resourceUsage: Object.freeze(resourceUsageOf(plan, goal, evaluation)),
    objectiveValue: first !== undefined ? (evaluation.objectiveValues[first] as number) : plan.totalCost,
    objectiveValues: namedObjectiveValues(evaluation, goal),
    solver: "none",
    solveTimeMs: 0,
    plansEvaluated: 1,
    violations: Object.freeze(violationsOf(goal, evaluation)),
    ...csp,
    ...(explanation ? { explanation } : {}),
  };
  return plan.with({ score: scoreFromEvaluation(evaluation, goal, mode), metadata: { csp: Object.freeze(metadata) } });
}

const OPTIMIZE_OPTIONS_KEYS = {
  solver: true,
  timeLimitMs: true,
  objectiveMode: true,
  capacities: true,
  method: true,
} as const satisfies OptionKeys<OptimizeOptions>;

/**
 * Chooses the best of several candidate plans, lexicographically: hard
 * feasibility, then weighted preferences, then each objective in declared
 * order with weight > 0, then total cost, then candidate order — so an
 * objective declared first is never traded against a later one, whatever
 * the numbers. Choosing one plan whose totals are constants is an exact
 * scan (the default); `method: "milp"` solves the same levels as a MILP.
 *
 * The result is a candidate with `metadata.csp` (status `optimal` when the
 * solver proved every level, `infeasible` when no candidate meets the hard
 * constraints — the least-violating one is returned with an explanation)
 * and a `HardSoftScore` or `BendableScore` that orders plans the same way.
 *
 * @example
 * ```ts
 * const goal = new GoalSpec({ conditions, objectives: [{ key: "usd", direction: "minimize" }, { key: "minutes", direction: "minimize" }] });
 * const best = await optimizePlans([cheapSlow, fastExpensive, balanced], goal);
 * best.actionNames;             // cheapSlow's actions: usd decides first
 * best.metadata.csp?.status;    // "optimal"
 * ```
 */
export async function optimizePlans(candidates: readonly Plan[], goal: GoalLike, options: OptimizeOptions = {}): Promise<Plan> {
  checkOptionKeys(options, OPTIMIZE_OPTIONS_KEYS, "optimizePlans()");
  const spec = toGoalSpec(goal);
  if (!Array.isArray(candidates) || candidates.length === 0) {
    throw new LangGoapError("INVALID_OPTION", "optimizePlans: give at least one candidate plan");
  }
  for (const [i, p] of candidates.entries()) {
    if (!(p instanceof Plan))
      throw new LangGoapError("INVALID_OPTION", `optimizePlans: candidate ${i} is not a Plan (got ${describeValue(p)})`);
  }
  const mode = options.objectiveMode ?? "lexicographic";
  if (mode !== "lexicographic" && mode !== "weighted") {
    throw new LangGoapError(
      "INVALID_OPTION",
      `optimizePlans: objectiveMode must be "lexicographic" or "weighted", got ${describeValue(mode)}`,
    );
  }
  const { evaluations, unschedulable } = await evaluateCandidates(candidates, spec, options);
  if (unschedulable.every((why) => why !== null)) {
    // No candidate can run under the capacities: nothing to choose between.
    return annotate(
      candidates[0] as Plan,
      spec,
      evaluations[0] as PlanEvaluation,
      { status: "infeasible", plansEvaluated: candidates.length, message: `no candidate can be scheduled: ${unschedulable[0]}` },
      mode,
    );
  }
  const method = options.method ?? "exact";
  if (method !== "exact" && method !== "milp") {
    throw new LangGoapError("INVALID_OPTION", `optimizePlans: method must be "exact" or "milp", got ${describeValue(method)}`);
  }
  const excluded = unschedulable.map((why) => why !== null);
  const costs = candidates.map((p) => p.totalCost);
  let result: Pick<LexicographicResult, "status" | "levelValues" | "solver" | "solveTimeMs" | "message">;
  let picked: number;
  if (method === "exact") {
    const began = performance.now();
    const exact = selectExactly(evaluations, costs, excluded, spec, mode);
    result = { status: "optimal", levelValues: exact.levelValues, solver: "exact-scan", solveTimeMs: performance.now() - began };
    picked = exact.index;
  } else {
    const { model, levels, pickNames } = selectionModel(evaluations, costs, excluded, spec, mode);
    const solved = await solveLexicographic(
      model,
      levels,
      createSolver(options.solver),
      options.timeLimitMs !== undefined ? { timeLimitMs: options.timeLimitMs } : {},
    );
    result = solved;
    const ok = solved.status === "optimal" || solved.status === "feasible";
    picked = ok ? pickNames.findIndex((name) => solved.values[name] === 1) : -1;
  }
  const solved = result.status === "optimal" || result.status === "feasible";
  const chosen = picked >= 0 ? picked : unschedulable.indexOf(null);
  const evaluation = evaluations[chosen] as PlanEvaluation;
  const anyFeasible = evaluations.some((e, i) => e.feasible && unschedulable[i] === null);
  const status = !solved ? result.status : !evaluation.feasible ? "infeasible" : result.status;
  const explanation = anyFeasible ? null : explainInfeasibility(candidates, spec, { evaluations });
  return annotate(
    candidates[chosen] as Plan,
    spec,
    evaluation,
    {
      status,
      solver: result.solver,
      solveTimeMs: result.solveTimeMs,
      plansEvaluated: candidates.length,
      levelValues: result.levelValues,
      ...(explanation ? { explanation } : {}),
      ...(result.message !== undefined ? { message: result.message } : {}),
    },
    mode,
  );
}
