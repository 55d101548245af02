/**
 * What every built-in strategy shares: `plan()` is the plan of
 * `planDetailed()`, and the per-call context becomes the A* options in one
 * place ({@link contextPlanOptions}).
 */

import type { ActionSpec } from "../../core/action.js";
import type { WorldState } from "../../core/facts.js";
import type { GoalSpec } from "../../core/goal.js";
import type { Plan } from "../plan.js";
import type { PlanOptions } from "../plan-options.js";
import type { PlanningStrategy, StrategyContext, StrategyResult } from "../types.js";

/**
 * A {@link PlanningStrategy} written as `planDetailed` alone: `plan()`
 * returns its plan. Extend it for a custom strategy so the graph can tell a
 * search cut short by its budget from one that proved there is no plan.
 *
 * @example
 * ```ts
 * class GreedyStrategy extends BasePlanningStrategy {
 *   readonly name = "greedy";
 *   planDetailed(start, goal, actions, context = {}) {
 *     return planDetailedAsync(start, goal, actions, { weight: 5, ...contextPlanOptions(context) });
 *   }
 * }
 * await new GreedyStrategy().plan(start, goal, actions); // the plan of planDetailed, or null
 * ```
 */
export abstract class BasePlanningStrategy implements PlanningStrategy {
  abstract readonly name: string;

  /** The plan and why the search ended; `no_plan` only when the strategy proved there is none. */
  abstract planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context?: StrategyContext,
  ): Promise<StrategyResult>;

  /** The plan of {@link BasePlanningStrategy.planDetailed}, or `null` when there is none (its status says why). */
  async plan(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<Plan | null> {
    return (await this.planDetailed(start, goal, actions, context)).plan;
  }
}

/** The options {@link contextPlanOptions} derives from a strategy's context. */
export type ContextPlanOptions = Pick<PlanOptions, "blacklisted" | "blacklistFallback" | "signal" | "tracer" | "recordExpansions">;

/**
 * A strategy's per-call context as A* options. Blacklisted actions are left
 * out without fallback: the caller that keeps the blacklist (the graph's
 * planner) decides when to lift it, so a proven "no plan" costs one search
 * here and one more only if the caller asks again without the blacklist.
 *
 * @example
 * ```ts
 * planDetailedAsync(start, goal, actions, { heuristic: "hff", ...contextPlanOptions(context) });
 * ```
 */
export function contextPlanOptions(context: StrategyContext): ContextPlanOptions {
  return {
    ...(context.blacklisted ? { blacklisted: context.blacklisted, blacklistFallback: false } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
    ...(context.tracer ? { tracer: context.tracer } : {}),
    ...(context.recordExpansions ? { recordExpansions: true } : {}),
  };
}
