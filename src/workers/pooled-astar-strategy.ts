import type { ActionSpec, GoalSpec, WorldState } from "../core/index.js";
import { checkBudget } from "../planner/budget.js";
import { type AStarStrategyOptions, BasePlanningStrategy, contextPlanOptions, type StrategyContext } from "../planner/index.js";
import type { PlannerPool } from "./planner-pool.js";
import type { PooledPlanResult } from "./pool-result.js";

/**
 * A* through a {@link PlannerPool}: a `PlanningStrategy`, so the graph's
 * planner node (`new GoapGraph(actions, { strategy })`), routers and
 * pipelines plan in a worker thread and the graph's event loop stays free
 * during wide searches. Plans, statuses and budgets are those of
 * `AStarStrategy`; the blacklist (left out without fallback, as
 * `AStarStrategy` does: the graph lifts it) and the run's abort signal go
 * with each problem. With `recordExpansions` on (search recording), or a domain the
 * pool cannot send, the pool's `unserializable` option decides: refuse
 * (`NOT_SERIALIZABLE`) or plan in-thread.
 *
 * @example
 * ```ts
 * import { PlannerPool, PooledAStarStrategy } from "langgoap/node";
 * const pool = new PlannerPool({ size: 2, unserializable: "in-thread" });
 * const graph = new GoapGraph(actions, { strategy: new PooledAStarStrategy(pool, { timeBudgetMs: 500 }) }).compile();
 * ```
 */
export class PooledAStarStrategy extends BasePlanningStrategy {
  readonly name = "astar";

  constructor(
    readonly pool: PlannerPool,
    readonly options: AStarStrategyOptions = {},
  ) {
    super();
    checkBudget(options, "PooledAStarStrategy");
  }

  /** The search's full result, planned by the pool. */
  planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<PooledPlanResult> {
    // The graph hands its tracer to every strategy; only search recording needs it inside the search.
    const { tracer, ...forwarded } = contextPlanOptions(context);
    return this.pool.planDetailed(start, goal, actions, {
      ...this.options,
      ...forwarded,
      ...(forwarded.recordExpansions ? { tracer } : {}),
    });
  }
}
