import type { ActionSpec, GoalSpec, WorldState } from "../core/index.js";
import { planDetailed } from "./astar.js";
import type { HeuristicName, Plan, PlanningStrategy, StrategyContext } from "./types.js";

/** Options of {@link AStarStrategy}. */
export interface AStarStrategyOptions {
  /** @defaultValue "hmax" */
  readonly heuristic?: HeuristicName;
  /** Weighted A* factor (>= 1). @defaultValue 1 */
  readonly weight?: number;
  readonly timeBudgetMs?: number;
  readonly maxExpansions?: number;
}

/**
 * The A* planner as a {@link PlanningStrategy}: the graph's default.
 *
 * @example
 * ```ts
 * const graph = new GoapGraph(actions, { strategy: new AStarStrategy({ heuristic: "hff" }) });
 * ```
 */
export class AStarStrategy implements PlanningStrategy {
  readonly name = "astar";
  constructor(readonly options: AStarStrategyOptions = {}) {}

  async plan(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<Plan | null> {
    return planDetailed(start, goal, actions, {
      ...this.options,
      ...(context.blacklisted ? { blacklisted: context.blacklisted } : {}),
      ...(context.signal ? { signal: context.signal } : {}),
      ...(context.tracer ? { tracer: context.tracer } : {}),
      ...(context.recordExpansions ? { recordExpansions: true } : {}),
    }).plan;
  }
}
