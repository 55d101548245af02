import type { ActionSpec } from "../core/action.js";
import { unsatisfiedKeys } from "../core/conditions.js";
import type { WorldState } from "../core/facts.js";
import { type GoalLike, toGoalSpec } from "../core/goal.js";
import type { DivergenceKind } from "./divergence-policy.js";
import { isStochasticModel, type TransitionModel } from "./transitions.js";

/** How a transition model departs from declared effects: `strict` when it does not. */
export type RiskProfile = "strict" | DivergenceKind;

/** What a strategy classifier sees of a planning problem. */
export interface ProblemFeatures {
  /** Actions available to the planner (blacklisted ones excluded): the branching estimate. */
  readonly actionCount: number;
  /** Actions whose preconditions hold at the start. */
  readonly applicableAtStart: number;
  readonly goalConditionCount: number;
  /** Goal conditions that do not hold at the start. */
  readonly unmetGoalConditions: number;
  /** `unmetGoalConditions × max(1, actionCount)`: a rough size of the search. */
  readonly horizonEstimate: number;
  readonly hasConstraints: boolean;
  readonly hasObjectives: boolean;
  /** Plan-quality metrics over the trajectory (in `metrics` or as objectives). */
  readonly hasMetrics: boolean;
  /** Names of those metrics (e.g. `risk`, `makespan_ms`), for classifiers that route on them. */
  readonly metricNames: readonly string[];
  readonly hasSoftGoals: boolean;
  /** The transition model draws random outcomes. */
  readonly isStochastic: boolean;
  readonly riskProfile: RiskProfile;
}

/** Options of {@link extractFeatures}. */
export interface ExtractFeaturesOptions {
  readonly transitionModel?: TransitionModel;
  readonly blacklisted?: Iterable<string>;
}

/**
 * Measures a planning problem for a strategy classifier: its size, what the
 * goal asks for beyond conditions, and how random and risky the transition
 * model is.
 *
 * @example
 * ```ts
 * const f = extractFeatures(start, goal, actions, { transitionModel: slippery });
 * f.isStochastic; // true
 * ```
 */
export function extractFeatures(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: ExtractFeaturesOptions = {},
): ProblemFeatures {
  const spec = toGoalSpec(goal);
  const blacklisted = new Set(options.blacklisted ?? []);
  const usable = blacklisted.size ? actions.filter((a) => !blacklisted.has(a.name)) : actions;
  const unmet = unsatisfiedKeys(start, spec.conditions).length;
  const policy = options.transitionModel?.divergencePolicy;
  const metricNames = [...spec.metrics.map((m) => m.name), ...spec.objectives.flatMap((o) => (o.metric ? [o.metric.name] : []))];
  return Object.freeze({
    actionCount: usable.length,
    applicableAtStart: usable.filter((a) => a.isApplicable(start)).length,
    goalConditionCount: Object.keys(spec.conditions).length,
    unmetGoalConditions: unmet,
    horizonEstimate: unmet * Math.max(1, usable.length),
    hasConstraints: spec.constraints.length > 0,
    hasObjectives: spec.objectives.length > 0,
    hasMetrics: metricNames.length > 0,
    metricNames: Object.freeze(metricNames),
    hasSoftGoals: spec.softGoals.length > 0,
    isStochastic: isStochasticModel(options.transitionModel),
    riskProfile: policy === undefined ? "strict" : policy.kind,
  });
}
