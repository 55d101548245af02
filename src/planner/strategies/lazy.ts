import type { ActionSpec } from "../../core/action.js";
import { describeValue, LangGoapError } from "../../core/errors.js";
import type { WorldState } from "../../core/facts.js";
import type { GoalSpec } from "../../core/goal.js";
import { SimpleScore } from "../../core/score.js";
import { Plan } from "../plan.js";
import type { PlanningStrategy, StrategyContext, StrategyResult } from "../types.js";
import { AStarStrategy } from "./astar-strategy.js";
import { BasePlanningStrategy } from "./base.js";
import { planWithStatus } from "./strategy-result.js";

/** Options of {@link LazyDecompositionStrategy}. */
export interface LazyDecompositionStrategyOptions {
  /** Actions committed to per planning round (an integer >= 1). @defaultValue 1 */
  readonly lookahead?: number;
  /** Plans the whole way to the goal. @defaultValue a default {@link AStarStrategy} */
  readonly inner?: PlanningStrategy;
}

/**
 * ADaPT-style lazy decomposition: plan the whole way, commit only to the
 * first `lookahead` actions, and plan again from what the world looks like
 * then. The graph runs the short plan, finds it exhausted and replans, so
 * later steps are decided with fresh observations. The returned plan does
 * not reach the goal unless the whole plan fits in the lookahead;
 * `metadata.fullPlanLength` tells how long the full plan was.
 *
 * @example
 * ```ts
 * const strategy = new LazyDecompositionStrategy({ lookahead: 2 });
 * (await strategy.plan(start, goal, actions))?.length; // at most 2
 * ```
 */
export class LazyDecompositionStrategy extends BasePlanningStrategy {
  readonly name = "lazy";
  readonly lookahead: number;
  readonly inner: PlanningStrategy;

  constructor(options: LazyDecompositionStrategyOptions = {}) {
    super();
    const lookahead = options.lookahead ?? 1;
    if (!Number.isInteger(lookahead) || lookahead < 1) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `LazyDecompositionStrategy.lookahead must be an integer >= 1, got ${describeValue(lookahead)}`,
      );
    }
    this.lookahead = lookahead;
    this.inner = options.inner ?? new AStarStrategy();
  }

  /** The first steps of the inner strategy's plan, or the inner strategy's reason for having none. */
  async planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<StrategyResult> {
    const inner = await planWithStatus(this.inner, start, goal, actions, context);
    const plan = inner.plan ? this.#lookahead(inner.plan, start) : null;
    return plan ? { plan, status: "found", ...(inner.stats ? { stats: inner.stats } : {}) } : inner;
  }

  #lookahead(full: Plan, start: Readonly<WorldState>): Plan {
    const metadata = { strategy: "lazy", innerStrategy: full.metadata.strategy, lookahead: this.lookahead, fullPlanLength: full.length };
    if (full.length <= this.lookahead) return full.with({ metadata: { ...metadata, partial: false } });
    const kept = full.actions.slice(0, this.lookahead);
    const states = full.expectedStates.slice(0, this.lookahead);
    let totalCost = 0;
    let before: Readonly<WorldState> = full.startState ?? start;
    kept.forEach((action, i) => {
      totalCost += action.getCost(before);
      before = states[i] as WorldState;
    });
    return new Plan({
      actions: kept,
      expectedStates: states,
      startState: { ...(full.startState ?? start) },
      totalCost,
      score: new SimpleScore(totalCost),
      metadata: { ...full.metadata, ...metadata, partial: true },
    });
  }
}
