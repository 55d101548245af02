import { type GoalLike, type GoalSpec, toGoalSpec } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { CSPMetadata, Plan, ResourceUsage } from "../planner/index.js";
import { type EvaluateOptions, evaluatePlan, hardWeight, namedObjectiveValues, type PlanEvaluation } from "./evaluate.js";
import { explainInfeasibility, type InfeasibilityExplanation } from "./explain.js";
import { declaredResourceKeys, planTotal } from "./totals.js";

/** One constraint a plan misses. */
export interface ConstraintViolation {
  /** The constraint's name. */
  readonly constraint: string;
  readonly key: string;
  readonly level: "hard" | "soft";
  readonly total: number;
  /** How far outside its bounds. */
  readonly amount: number;
  /** `amount · weight`: what it costs in the score. */
  readonly penalty: number;
}

/** What {@link validatePlan} reports: CSP metadata plus every violation. */
export interface ValidationReport extends CSPMetadata {
  /** Hard and soft violations, in the goal's constraint order. */
  readonly violations: readonly ConstraintViolation[];
  /** Present when a hard constraint is violated. */
  readonly explanation?: InfeasibilityExplanation;
}

/**
 * @internal Resource usage of an evaluated plan: one entry per constraint,
 * then one `info` entry per other resource key its actions declare.
 */
export function resourceUsageOf(plan: Plan, goal: GoalSpec, evaluation: PlanEvaluation): ResourceUsage[] {
  const usage: ResourceUsage[] = goal.constraints.map((c, i) =>
    Object.freeze({
      key: c.key,
      total: evaluation.constraintTotals[i] as number,
      ...(c.min !== undefined ? { min: c.min } : {}),
      ...(c.max !== undefined ? { max: c.max } : {}),
      satisfied: evaluation.violations[i] === 0,
      level: c.level,
    }),
  );
  const constrained = new Set(goal.constraints.filter((c) => !c.where).map((c) => c.key));
  for (const key of declaredResourceKeys(plan)) {
    if (!constrained.has(key)) usage.push(Object.freeze({ key, total: planTotal(plan, key), satisfied: true, level: "info" }));
  }
  return usage;
}

/** @internal The violations of an evaluated plan. */
export function violationsOf(goal: GoalSpec, evaluation: PlanEvaluation): ConstraintViolation[] {
  return goal.constraints.flatMap((c, i) => {
    const amount = evaluation.violations[i] as number;
    if (amount === 0) return [];
    const weight = c.level === "hard" ? hardWeight(c.weight) : c.weight;
    return [
      Object.freeze({
        constraint: c.name,
        key: c.key,
        level: c.level,
        total: evaluation.constraintTotals[i] as number,
        amount,
        penalty: amount * weight,
      }),
    ];
  });
}

const EVALUATE_OPTIONS_KEYS = { makespanMs: true } as const satisfies OptionKeys<EvaluateOptions>;

/**
 * Checks one plan against its goal without a solver: resource totals per
 * constraint (with `where` filters), every violation with its penalty,
 * objective totals, and for a hard violation an explanation with a
 * {@link ResourceShortfall} per key. Status: `infeasible` when a hard
 * constraint fails, `skipped` when the goal has nothing to check,
 * `feasible` otherwise.
 *
 * @example
 * ```ts
 * const report = validatePlan(plan, new GoalSpec({ conditions, constraints: [{ key: "usd", max: 5 }] }));
 * report.status;                                      // "infeasible"
 * report.explanation?.resourceShortfalls[0].amount;   // 2.5
 * ```
 */
export function validatePlan(plan: Plan, goal: GoalLike, options: EvaluateOptions = {}): ValidationReport {
  checkOptionKeys(options, EVALUATE_OPTIONS_KEYS, "validatePlan()");
  const started = performance.now();
  const spec = toGoalSpec(goal);
  const evaluation = evaluatePlan(plan, spec, options);
  const nothingToCheck = !spec.needsOptimization && spec.softGoals.length === 0;
  const status = nothingToCheck ? "skipped" : evaluation.feasible ? "feasible" : "infeasible";
  const explanation = evaluation.feasible ? null : explainInfeasibility(plan, spec, { evaluations: [evaluation] });
  return Object.freeze({
    status,
    resourceUsage: Object.freeze(resourceUsageOf(plan, spec, evaluation)),
    objectiveValues: namedObjectiveValues(evaluation, spec),
    solver: "none",
    solveTimeMs: performance.now() - started,
    plansEvaluated: 1,
    violations: Object.freeze(violationsOf(spec, evaluation)),
    ...(explanation ? { explanation } : {}),
  });
}
