import type { ActionSpec } from "../../core/action.js";
import type { WorldState } from "../../core/facts.js";
import { type GoalSpec, toGoalSpec } from "../../core/goal.js";
import { Plan } from "../plan.js";
import type { PlanningStrategy, SearchStatus, StrategyContext, StrategyResult } from "../types.js";
import { AStarStrategy } from "./astar-strategy.js";
import { BasePlanningStrategy } from "./base.js";
import { planWithStatus } from "./strategy-result.js";

/** What {@link repairPlan} did. */
export interface RepairResult {
  /** The repaired plan, or `null` when the kept prefix leads nowhere. */
  readonly plan: Plan | null;
  /** True when part of the prior plan was kept and the result reaches the goal. */
  readonly repairApplied: boolean;
  /** Remaining actions of the prior plan that still run, in order, from the current state. */
  readonly validPrefixLength: number;
  /** True when a new suffix was planned after the prefix. */
  readonly suffixReplanned: boolean;
  readonly suffixLength: number;
  /** How the suffix search ended when it found no plan: `no_plan`, `budget_exhausted` or `aborted`. */
  readonly suffixStatus?: SearchStatus;
  /** The inner strategy's result when it found no suffix (its budget figures or explanation). */
  readonly suffixResult?: StrategyResult;
}

/** Options of {@link repairPlan}. */
export interface RepairOptions extends StrategyContext {
  /** Plans the suffix. @defaultValue a default {@link AStarStrategy} */
  readonly inner?: PlanningStrategy;
}

/**
 * Repairs `priorPlan` after the world changed: keeps the longest prefix of
 * its remaining actions (from `currentStep`) that still runs from `state`
 * (preconditions hold, not blacklisted), then plans only the suffix from
 * where that prefix ends. Nothing is kept past the point where the goal
 * already holds.
 *
 * @example
 * ```ts
 * const { plan, validPrefixLength } = await repairPlan(prior, world, goal, actions, { currentStep: 1 });
 * ```
 */
export async function repairPlan(
  priorPlan: Plan,
  state: Readonly<WorldState>,
  goal: GoalSpec,
  actions: readonly ActionSpec[],
  options: RepairOptions = {},
): Promise<RepairResult> {
  const began = performance.now();
  if (goal.isSatisfied(state)) {
    return {
      plan: Plan.empty({ ...state }, { strategy: "repair" }),
      repairApplied: false,
      validPrefixLength: 0,
      suffixReplanned: false,
      suffixLength: 0,
    };
  }
  const blacklisted = new Set(options.blacklisted ?? []);
  const remaining = priorPlan.actions.slice(Math.max(0, options.currentStep ?? 0));
  const prefix: ActionSpec[] = [];
  const prefixStates: WorldState[] = [];
  let cursor: WorldState = { ...state };
  let prefixCost = 0;
  for (const action of remaining) {
    if (blacklisted.has(action.name) || !action.isApplicable(cursor)) break;
    prefixCost += action.getCost(cursor);
    cursor = action.apply(cursor);
    prefix.push(action);
    prefixStates.push(cursor);
    if (goal.isSatisfied(cursor)) break;
  }
  const repairMetadata = (suffixLength: number, suffixReplanned: boolean) => ({
    strategy: "repair",
    validPrefixLength: prefix.length,
    suffixLength,
    suffixReplanned,
  });
  if (prefix.length > 0 && goal.isSatisfied(cursor)) {
    const plan = new Plan({
      actions: prefix,
      expectedStates: prefixStates,
      startState: { ...state },
      totalCost: prefixCost,
      metadata: { ...repairMetadata(0, false), planningTimeMs: performance.now() - began },
    });
    return { plan, repairApplied: true, validPrefixLength: prefix.length, suffixReplanned: false, suffixLength: 0 };
  }
  const { inner = new AStarStrategy(), ...context } = options;
  const found = await planWithStatus(inner, cursor, goal, actions, { ...context, priorPlan: null, currentStep: 0 });
  const suffix = found.plan;
  if (suffix === null) {
    return {
      plan: null,
      repairApplied: false,
      validPrefixLength: prefix.length,
      suffixReplanned: true,
      suffixLength: 0,
      suffixStatus: found.status === "found" ? "no_plan" : found.status,
      suffixResult: found,
    };
  }
  const plan = new Plan({
    actions: [...prefix, ...suffix.actions],
    expectedStates: [...prefixStates, ...suffix.expectedStates],
    startState: { ...state },
    totalCost: prefixCost + suffix.totalCost,
    metadata: {
      ...suffix.metadata,
      ...repairMetadata(suffix.length, true),
      innerStrategy: suffix.metadata.strategy,
      planningTimeMs: performance.now() - began,
    },
  });
  return {
    plan,
    repairApplied: prefix.length > 0,
    validPrefixLength: prefix.length,
    suffixReplanned: true,
    suffixLength: suffix.length,
  };
}

/** Options of {@link RepairStrategy}. */
export interface RepairStrategyOptions {
  /** Plans suffixes, and whole plans when nothing can be kept. @defaultValue a default {@link AStarStrategy} */
  readonly inner?: PlanningStrategy;
}

/**
 * Replans by repair: when the graph hands it the plan being replaced
 * (`context.priorPlan`), it keeps the longest still-valid prefix of the
 * unexecuted actions and replans only the suffix, so an agent does not
 * change course more than it must. Without a prior plan, or when no prefix
 * survives, it plans from scratch with `inner`.
 *
 * @example
 * ```ts
 * const graph = new GoapGraph(actions, { strategy: new RepairStrategy() });
 * ```
 */
export class RepairStrategy extends BasePlanningStrategy {
  readonly name = "repair";
  readonly inner: PlanningStrategy;

  constructor(options: RepairStrategyOptions = {}) {
    super();
    this.inner = options.inner ?? new AStarStrategy();
  }

  /** The repaired (or new) plan, or why there is none: the inner search's status, e.g. `budget_exhausted`. */
  async planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<StrategyResult> {
    const goalSpec = toGoalSpec(goal);
    if (context.priorPlan) {
      const repaired = await repairPlan(context.priorPlan, start, goalSpec, actions, { ...context, inner: this.inner });
      if (repaired.plan !== null) return { plan: repaired.plan, status: "found" };
      // With no prefix kept, the "suffix" was already a plan from scratch.
      if (repaired.validPrefixLength === 0) return repaired.suffixResult ?? { plan: null, status: repaired.suffixStatus ?? "no_plan" };
      // A search cut short says so rather than trying again from scratch under the same budget.
      if (repaired.suffixStatus === "aborted" || repaired.suffixStatus === "budget_exhausted") {
        return repaired.suffixResult ?? { plan: null, status: repaired.suffixStatus };
      }
    }
    return planWithStatus(this.inner, start, goalSpec, actions, context);
  }
}
