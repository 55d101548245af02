import type { ActionSpec } from "../../core/action.js";
import { LangGoapError } from "../../core/errors.js";
import type { WorldState } from "../../core/facts.js";
import type { GoalSpec } from "../../core/goal.js";
import type { PlanningStrategy, StrategyContext, StrategyResult } from "../types.js";

/**
 * Plans with `strategy` and says why the search ended: its own
 * `planDetailed` when it has one; otherwise its `plan`, reading `null` as
 * `no_plan` (or `aborted` when the context's signal has fired). Wrapping
 * strategies use it so a budget stop of the strategy they wrap is not
 * reported as "no plan".
 *
 * @example
 * ```ts
 * const { plan, status } = await planWithStatus(new AStarStrategy({ maxNodes: 1000 }), start, goal, actions);
 * ```
 */
export async function planWithStatus(
  strategy: PlanningStrategy,
  start: Readonly<WorldState>,
  goal: GoalSpec,
  actions: readonly ActionSpec[],
  context: StrategyContext = {},
): Promise<StrategyResult> {
  if (typeof strategy.planDetailed === "function") {
    const result: unknown = await strategy.planDetailed(start, goal, actions, context);
    if (typeof result !== "object" || result === null || !("plan" in result) || !("status" in result)) {
      throw new LangGoapError("INVALID_STATE", `strategy "${strategy.name}".planDetailed returned something other than { plan, status }`, {
        strategy: strategy.name,
      });
    }
    return result as StrategyResult;
  }
  const plan = await strategy.plan(start, goal, actions, context);
  return { plan, status: plan ? "found" : context.signal?.aborted ? "aborted" : "no_plan" };
}
