import type { ActionSpec, GoalSpec, WorldState } from "../core/index.js";
import { planDetailedAsync } from "./astar.js";
import { checkBudget } from "./budget.js";
import type { HeuristicName, Plan, PlanDetailedResult, PlanningStrategy, StrategyContext } from "./types.js";

/** Options of {@link AStarStrategy}. */
export interface AStarStrategyOptions {
  /** @defaultValue the planner's choice by domain (see `PlanOptions.heuristic`) */
  readonly heuristic?: HeuristicName;
  /** Weighted A* factor (>= 1). @defaultValue 1 */
  readonly weight?: number;
  /** Time budget of each search; `Infinity` for none. @defaultValue 10000 (see `DEFAULT_TIME_BUDGET_MS`) */
  readonly timeBudgetMs?: number;
  /** Expansion budget of each search. @defaultValue Infinity */
  readonly maxExpansions?: number;
  /** States a search may hold (the memory bound). @defaultValue 1,000,000, fewer for wide states (see `DEFAULT_MAX_NODES`) */
  readonly maxNodes?: number;
}

/**
 * The A* planner as a {@link PlanningStrategy}: the graph's default. It
 * searches asynchronously ({@link planDetailedAsync}), so a long search
 * never blocks the event loop and stops when the run's signal aborts.
 *
 * @example
 * ```ts
 * const graph = new GoapGraph(actions, { strategy: new AStarStrategy({ heuristic: "hff", timeBudgetMs: 2000 }) });
 * ```
 */
export class AStarStrategy implements PlanningStrategy {
  readonly name = "astar";
  constructor(readonly options: AStarStrategyOptions = {}) {
    checkBudget(options, "AStarStrategy");
  }

  async plan(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<Plan | null> {
    return (await this.planDetailed(start, goal, actions, context)).plan;
  }

  /** The search's full result: status, counters, explanation or budget figures. */
  planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<PlanDetailedResult> {
    return planDetailedAsync(start, goal, actions, {
      ...this.options,
      ...(context.blacklisted ? { blacklisted: context.blacklisted } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.tracer ? { tracer: context.tracer } : {}),
      ...(context.recordExpansions ? { recordExpansions: true } : {}),
    });
  }
}
