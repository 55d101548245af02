/**
 * Built-in plan quality metrics. Each is a `PlanQualityMetric` (minimised):
 * put it in a goal's `metrics` (a weighted preference level) or use it as
 * an objective (`{ key: "risk", direction: "minimize", metric: riskMetric(model) }`).
 */

import type { ActionSpec } from "../core/action.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import { maxOf } from "../core/extremes.js";
import type { Fact, WorldState } from "../core/facts.js";
import type { ActionFilter, PlanQualityMetric, PlanTrajectory } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { createRng } from "../core/rng.js";
import { Plan, type TransitionModel } from "../planner/index.js";
import { planTotal } from "./totals.js";

/** Options shared by the built-in metrics. */
export interface MetricOptions {
  /** Weight when used in a goal's `metrics`. @defaultValue 1 */
  readonly weight?: number;
  /** The metric's name (in tables and explanations). */
  readonly name?: string;
}

function checkWeight(owner: string, weight: number | undefined): number {
  const w = weight ?? 1;
  if (typeof w !== "number" || !Number.isFinite(w) || w < 0) {
    throw new LangGoapError("INVALID_OPTION", `${owner}: weight must be a finite number >= 0, got ${describeValue(w)}`);
  }
  return w;
}

function asPlan(trajectory: PlanTrajectory): Plan {
  if (trajectory instanceof Plan) return trajectory;
  return new Plan({
    actions: trajectory.actions,
    expectedStates: trajectory.expectedStates,
    totalCost: trajectory.totalCost,
    ...(trajectory.startState ? { startState: trajectory.startState } : {}),
  });
}

function stateBefore(plan: PlanTrajectory, index: number): Readonly<WorldState> {
  return index === 0 ? (plan.startState ?? {}) : (plan.expectedStates[index - 1] ?? {});
}

/**
 * A resource summed over the plan (`usd`, `tokens`, ...), or one of the
 * derived keys: `cost`, `steps` (the plan's length), `durationMs`,
 * `makespanMs` (the schedule's length when only dependencies limit
 * parallelism).
 *
 * @example
 * ```ts
 * new GoalSpec({ conditions, metrics: [resourceTotalMetric("tokens", { weight: 0.001 })] });
 * ```
 */
export function resourceTotalMetric(key: string, options: MetricOptions & { readonly where?: ActionFilter } = {}): PlanQualityMetric {
  if (typeof key !== "string" || key === "")
    throw new LangGoapError("INVALID_OPTION", `resourceTotalMetric: key must be a non-empty string, got ${describeValue(key)}`);
  const name = options.name ?? key;
  const weight = checkWeight(`metric "${name}"`, options.weight);
  const where = options.where;
  return Object.freeze({
    name,
    weight,
    evaluate: (plan: PlanTrajectory) => planTotal(asPlan(plan), key, { owner: `metric "${name}"`, ...(where ? { where } : {}) }),
  });
}

const METRIC_OPTIONS_KEYS = { weight: true, name: true } as const satisfies OptionKeys<MetricOptions>;

/**
 * The number of actions.
 *
 * @example
 * ```ts
 * await optimizePlans(candidates, new GoalSpec({ conditions, objectives: [{ key: "length", direction: "minimize", metric: planLengthMetric() }] }));
 * ```
 */
export function planLengthMetric(options: MetricOptions = {}): PlanQualityMetric {
  checkOptionKeys(options, METRIC_OPTIONS_KEYS, "planLengthMetric()");
  return resourceTotalMetric("steps", { name: "plan_length", ...options });
}

/** The plan's total planning cost (each action's cost in the state it is paid in). */
export function totalCostMetric(options: MetricOptions = {}): PlanQualityMetric {
  checkOptionKeys(options, METRIC_OPTIONS_KEYS, "totalCostMetric()");
  return resourceTotalMetric("cost", { name: "total_cost", ...options });
}

/** The plan's makespan in ms: the critical path of its dependencies under the actions' `durationMs`. */
export function makespanMetric(options: MetricOptions = {}): PlanQualityMetric {
  checkOptionKeys(options, METRIC_OPTIONS_KEYS, "makespanMetric()");
  return resourceTotalMetric("makespanMs", { name: "makespan_ms", ...options });
}

/** Options of {@link riskMetric}. */
export interface RiskMetricOptions extends MetricOptions {
  /** Samples per step for models without a `distribution`. @defaultValue 256 */
  readonly samples?: number;
  /** Seed of the sampling (the metric is deterministic). @defaultValue 0 */
  readonly seed?: number;
}

function agrees(updates: Readonly<Partial<WorldState>>, intended: Readonly<Record<string, Fact>>): boolean {
  for (const [key, value] of Object.entries(intended)) {
    const got = Object.hasOwn(updates, key) ? updates[key] : undefined;
    if (got !== value) return false;
  }
  return true;
}

const RISK_METRIC_OPTIONS_KEYS = { samples: true, seed: true, weight: true, name: true } as const satisfies OptionKeys<RiskMetricOptions>;

/**
 * The chance that the plan does not go as planned under a transition model:
 * `1 − Π P(step i has its declared effects | the expected state before it)`.
 * Exact for models that list their outcomes (`distribution`), estimated by
 * seeded sampling otherwise. 0 for a deterministic world.
 *
 * @example
 * ```ts
 * const safest = await optimizePlans(candidates, new GoalSpec({ conditions, objectives: [{ key: "risk", direction: "minimize", metric: riskMetric(slippery) }] }));
 * ```
 */
export function riskMetric(model: TransitionModel, options: RiskMetricOptions = {}): PlanQualityMetric {
  checkOptionKeys(options, RISK_METRIC_OPTIONS_KEYS, "riskMetric()");
  if (typeof model?.sample !== "function" || typeof model.expected !== "function") {
    throw new LangGoapError("INVALID_OPTION", `riskMetric: expected a TransitionModel, got ${describeValue(model)}`);
  }
  const name = options.name ?? "risk";
  const weight = checkWeight(`metric "${name}"`, options.weight);
  const samples = options.samples ?? 256;
  if (!Number.isInteger(samples) || samples < 1) {
    throw new LangGoapError("INVALID_OPTION", `riskMetric: samples must be an integer >= 1, got ${describeValue(samples)}`);
  }
  const seed = options.seed ?? 0;
  const stepSuccess = (state: Readonly<WorldState>, action: ActionSpec, step: number): number => {
    const intended = action.getEffects(state);
    if (typeof model.distribution === "function") {
      let p = 0;
      for (const outcome of model.distribution(state, action)) if (agrees(outcome.updates, intended)) p += outcome.probability;
      return Math.min(1, Math.max(0, p));
    }
    const rng = createRng((seed + step * 0x9e3779b1) | 0);
    let hits = 0;
    for (let i = 0; i < samples; i++) if (agrees(model.sample(state, action, rng), intended)) hits++;
    return hits / samples;
  };
  return Object.freeze({
    name,
    weight,
    evaluate: (plan: PlanTrajectory) => {
      let success = 1;
      plan.actions.forEach((action, i) => {
        success *= stepSuccess(stateBefore(plan, i), action, i);
      });
      return 1 - success;
    },
  });
}

/** A number computed from a state (for the trajectory metrics). */
export type StateExpression = (state: Readonly<WorldState>) => number;

function expressionMetric(
  kind: string,
  name: string,
  expression: StateExpression,
  options: MetricOptions,
  fold: (values: number[]) => number,
): PlanQualityMetric {
  if (typeof name !== "string" || name === "")
    throw new LangGoapError("INVALID_OPTION", `${kind}: name must be a non-empty string, got ${describeValue(name)}`);
  if (typeof expression !== "function")
    throw new LangGoapError("INVALID_OPTION", `${kind} "${name}": expression must be a function of the state`);
  const weight = checkWeight(`metric "${name}"`, options.weight);
  return Object.freeze({
    name,
    weight,
    evaluate: (plan: PlanTrajectory) => {
      const values = plan.expectedStates.map((state) => {
        const v = expression(state);
        if (typeof v !== "number" || !Number.isFinite(v)) {
          throw new LangGoapError("INVALID_GOAL", `metric "${name}": expression returned ${describeValue(v)}; expected a finite number`);
        }
        return v;
      });
      return values.length === 0 ? 0 : fold(values);
    },
  });
}

/**
 * An expression of the plan's final expected state (0 for an empty plan).
 *
 * @example
 * ```ts
 * finalStateMetric("leftover_gold", (s) => -Number(s.gold)); // keep as much gold as possible
 * ```
 */
export function finalStateMetric(name: string, expression: StateExpression, options: MetricOptions = {}): PlanQualityMetric {
  return expressionMetric("finalStateMetric", name, expression, options, (values) => values[values.length - 1] as number);
}

/** An expression summed over every expected state (e.g. the time spent near a ghost). */
export function trajectorySumMetric(name: string, expression: StateExpression, options: MetricOptions = {}): PlanQualityMetric {
  return expressionMetric("trajectorySumMetric", name, expression, options, (values) => values.reduce((a, b) => a + b, 0));
}

/** The largest value of an expression over the expected states (e.g. the worst danger on the way). */
export function trajectoryMaxMetric(name: string, expression: StateExpression, options: MetricOptions = {}): PlanQualityMetric {
  return expressionMetric("trajectoryMaxMetric", name, expression, options, (values) => maxOf(values));
}
