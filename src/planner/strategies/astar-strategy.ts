import type { ActionSpec } from "../../core/action.js";
import { describeValue, LangGoapError } from "../../core/errors.js";
import type { WorldState } from "../../core/facts.js";
import type { GoalSpec } from "../../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { planDetailedAsync } from "../astar.js";
import { checkBudget } from "../budget.js";
import type { HeuristicName } from "../heuristics/registry.js";
import { PRUNING_NAMES, type PruningName } from "../plan-options.js";
import type { PlanDetailedResult, StrategyContext } from "../types.js";
import { BasePlanningStrategy, contextPlanOptions } from "./base.js";

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
  /** Partial-order pruning (see `PlanOptions.pruning`). @defaultValue "auto" */
  readonly pruning?: PruningName;
}

const A_STAR_STRATEGY_OPTIONS_KEYS = {
  heuristic: true,
  weight: true,
  timeBudgetMs: true,
  maxExpansions: true,
  maxNodes: true,
  pruning: true,
} as const satisfies OptionKeys<AStarStrategyOptions>;

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
export class AStarStrategy extends BasePlanningStrategy {
  readonly name = "astar";
  constructor(readonly options: AStarStrategyOptions = {}) {
    super();
    checkOptionKeys(options, A_STAR_STRATEGY_OPTIONS_KEYS, "new AStarStrategy()");
    checkBudget(options, "AStarStrategy");
    if (options.pruning !== undefined && !(PRUNING_NAMES as readonly unknown[]).includes(options.pruning)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `AStarStrategy: pruning must be one of ${PRUNING_NAMES.join(", ")}, got ${describeValue(options.pruning)}`,
        { field: "pruning", value: options.pruning },
      );
    }
  }

  /** The search's full result: status, counters, explanation or budget figures. Blacklisted actions are left out (see {@link contextPlanOptions}). */
  planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<PlanDetailedResult> {
    return planDetailedAsync(start, goal, actions, { ...this.options, ...contextPlanOptions(context) });
  }
}
