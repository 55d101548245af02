/**
 * How a plan fares against a goal's constraints, preferences and
 * objectives, and the lexicographic levels every selection in this folder
 * orders plans by:
 *
 *   1. hard feasibility: the weighted amount by which hard constraints are
 *      violated (0 when feasible);
 *   2. preferences: weighted soft-constraint violations, minus soft-goal
 *      rewards, plus weighted quality metrics (present only when the goal
 *      has any of these);
 *   3. each objective with a weight above 0, in declared order (a weight of
 *      0 keeps an objective informational: reported, never optimised);
 *   4. ties: lower total cost, then earlier candidate.
 *
 * `objectiveMode: "weighted"` replaces levels 2–3 by one weighted sum
 * (LangGOAP's behaviour), where objective weights are the coefficients.
 */

import { satisfiesConditions } from "../core/conditions.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import type { GoalSpec, PlanQualityMetric } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { BendableScore, HardSoftScore } from "../core/score.js";
import type { Plan } from "../planner/index.js";
import { planTotal } from "./totals.js";

/** How objectives are combined: one level each in declared order, or one weighted sum. */
export type ObjectiveMode = "lexicographic" | "weighted";

/** Everything a selection needs to know about one plan. All arrays follow the goal's declaration order. */
export interface PlanEvaluation {
  /** Summed resource of each constraint (its `where` filter applied). */
  readonly constraintTotals: readonly number[];
  /** Violation amount of each constraint (0 when satisfied). */
  readonly violations: readonly number[];
  /** Σ weight · violation over hard constraints (a hard constraint of weight 0 counts with weight 1). */
  readonly hardPenalty: number;
  /** Σ weight · violation over soft constraints. */
  readonly softPenalty: number;
  /** Reward of each soft goal: its weight when the plan's final state meets it, else 0. */
  readonly softGoalRewards: readonly number[];
  /** Value of each quality metric. */
  readonly metricValues: readonly number[];
  /** softPenalty − Σ rewards + Σ metric weight · value: lower is better. */
  readonly preference: number;
  /** Raw total of each objective. */
  readonly objectiveValues: readonly number[];
  readonly feasible: boolean;
}

/** Options of {@link evaluatePlan}. */
export interface EvaluateOptions {
  /** The plan's makespan under resource capacities, when known (for `makespanMs` keys). */
  readonly makespanMs?: number;
}

/** The weight a hard constraint's violation counts with: a hard constraint always counts. */
export function hardWeight(weight: number): number {
  return weight > 0 ? weight : 1;
}

function evaluateMetric(metric: PlanQualityMetric, plan: Plan): number {
  const value = metric.evaluate(plan);
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new LangGoapError("INVALID_GOAL", `quality metric "${metric.name}" returned ${describeValue(value)}; expected a finite number`, {
      metric: metric.name,
    });
  }
  return value;
}

const EVALUATE_OPTIONS_KEYS = { makespanMs: true } as const satisfies OptionKeys<EvaluateOptions>;

/**
 * Evaluates `plan` against `goal`: constraint totals and violations,
 * penalties, soft-goal rewards, metric values and objective totals.
 *
 * @example
 * ```ts
 * const e = evaluatePlan(plan, goal);
 * e.feasible;        // false
 * e.violations[0];   // 2 (usd over its max by 2)
 * ```
 */
export function evaluatePlan(plan: Plan, goal: GoalSpec, options: EvaluateOptions = {}): PlanEvaluation {
  checkOptionKeys(options, EVALUATE_OPTIONS_KEYS, "evaluatePlan()");
  const makespan = options.makespanMs !== undefined ? { makespanMs: options.makespanMs } : {};
  const constraintTotals = goal.constraints.map((c) =>
    planTotal(plan, c.key, { ...makespan, ...(c.where ? { where: c.where } : {}), owner: `constraint "${c.name}"` }),
  );
  const violations = goal.constraints.map((c, i) => c.violation(constraintTotals[i] as number));
  let hardPenalty = 0;
  let softPenalty = 0;
  goal.constraints.forEach((c, i) => {
    const amount = violations[i] as number;
    if (c.level === "hard") hardPenalty += hardWeight(c.weight) * amount;
    else softPenalty += c.weight * amount;
  });
  const finalState = plan.finalState;
  const softGoalRewards = goal.softGoals.map((g) => (satisfiesConditions(finalState, g.conditions) ? g.weight : 0));
  const metricValues = goal.metrics.map((m) => evaluateMetric(m, plan));
  const preference =
    softPenalty -
    softGoalRewards.reduce((a, b) => a + b, 0) +
    goal.metrics.reduce((sum, m, i) => sum + m.weight * (metricValues[i] as number), 0);
  const objectiveValues = goal.objectives.map((o) =>
    o.metric
      ? evaluateMetric(o.metric, plan)
      : planTotal(plan, o.key, { ...makespan, ...(o.where ? { where: o.where } : {}), owner: `objective "${o.name ?? o.key}"` }),
  );
  return Object.freeze({
    constraintTotals: Object.freeze(constraintTotals),
    violations: Object.freeze(violations),
    hardPenalty,
    softPenalty,
    softGoalRewards: Object.freeze(softGoalRewards),
    metricValues: Object.freeze(metricValues),
    preference,
    objectiveValues: Object.freeze(objectiveValues),
    feasible: hardPenalty === 0,
  });
}

/** True when the goal has soft constraints, soft goals or metrics (the preference level exists). */
export function hasPreferences(goal: GoalSpec): boolean {
  return goal.softGoals.length > 0 || goal.metrics.length > 0 || goal.constraints.some((c) => c.level === "soft");
}

/** Objective indices that are optimised (weight above 0), in declared order. */
export function activeObjectives(goal: GoalSpec): number[] {
  return goal.objectives.flatMap((o, i) => ((o.weight ?? 1) > 0 ? [i] : []));
}

/**
 * An objective's contribution to a "higher is better" score level:
 * `-weight · value` when minimising, `+weight · value` when maximising.
 */
export function signedObjective(goal: GoalSpec, index: number, value: number): number {
  const o = goal.objectives[index];
  const w = o?.weight ?? 1;
  return o?.direction === "maximize" ? w * value : -w * value;
}

/**
 * The soft levels of a plan's score, higher is better, in the order
 * selection uses them (see the module comment).
 */
export function softLevels(evaluation: PlanEvaluation, goal: GoalSpec, mode: ObjectiveMode = "lexicographic"): number[] {
  const objectives = activeObjectives(goal).map((i) => signedObjective(goal, i, evaluation.objectiveValues[i] as number));
  if (mode === "weighted") return [objectives.reduce((a, b) => a + b, 0) - evaluation.preference];
  return hasPreferences(goal) ? [-evaluation.preference, ...objectives] : objectives;
}

/**
 * The score of an evaluated plan: a `HardSoftScore(-hardPenalty, soft)`
 * when at most one soft level exists, otherwise a `BendableScore` with one
 * hard level and one soft level per preference/objective level, so that
 * `compareScores` orders plans exactly as the selection does.
 *
 * @example
 * ```ts
 * scoreFromEvaluation(evaluatePlan(plan, goal), goal); // HardSoftScore(hard=0, soft=-12)
 * ```
 */
export function scoreFromEvaluation(
  evaluation: PlanEvaluation,
  goal: GoalSpec,
  mode: ObjectiveMode = "lexicographic",
): HardSoftScore | BendableScore {
  const levels = softLevels(evaluation, goal, mode);
  const hard = evaluation.hardPenalty === 0 ? 0 : -evaluation.hardPenalty;
  if (levels.length <= 1) return new HardSoftScore(hard, (levels[0] ?? 0) + 0);
  return new BendableScore(
    [hard],
    levels.map((v) => v + 0), // + 0 turns -0 into 0
  );
}

/** Objective totals by objective name, and soft-goal rewards as `softGoal:<name>`. */
export function namedObjectiveValues(evaluation: PlanEvaluation, goal: GoalSpec): Readonly<Record<string, number>> {
  const out: Record<string, number> = {};
  goal.objectives.forEach((o, i) => {
    out[o.name ?? o.key] = evaluation.objectiveValues[i] as number;
  });
  goal.softGoals.forEach((g, i) => {
    out[`softGoal:${g.name}`] = evaluation.softGoalRewards[i] as number;
  });
  goal.metrics.forEach((m, i) => {
    out[`metric:${m.name}`] = evaluation.metricValues[i] as number;
  });
  return Object.freeze(out);
}
