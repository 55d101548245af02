import type { ActionSpec } from "../core/action.js";
import type { WorldState } from "../core/facts.js";
import type { GoalSpec } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Plan } from "../planner/plan.js";
import { AStarStrategy } from "../planner/strategies/astar-strategy.js";
import { BasePlanningStrategy } from "../planner/strategies/base.js";
import { planWithStatus } from "../planner/strategies/strategy-result.js";
import type { PlanningStrategy, StrategyContext, StrategyResult } from "../planner/types.js";
import { type RefineOptions, refinePlan } from "./refine.js";

/** Options of {@link CSPRefinementStrategy}. */
export interface CSPRefinementOptions extends RefineOptions {
  /** Finds the plan to refine. @defaultValue a new `AStarStrategy()` */
  readonly inner?: PlanningStrategy;
  /** A fixed plan to refine instead (the inner strategy is then not called). */
  readonly candidate?: Plan;
}

const C_S_P_REFINEMENT_OPTIONS_KEYS = {
  inner: true,
  candidate: true,
  solver: true,
  timeLimitMs: true,
  capacities: true,
  objectiveMode: true,
} as const satisfies OptionKeys<CSPRefinementOptions>;

/**
 * Refines the plan of another strategy (or a fixed candidate) without
 * searching for alternatives: validation against the goal's constraints, a
 * score, and a schedule when actions have durations.
 *
 * @example
 * ```ts
 * const strategy = new CSPRefinementStrategy({ inner: new AStarStrategy({ heuristic: "hff" }), capacities: { agents: 1 } });
 * ```
 */
export class CSPRefinementStrategy extends BasePlanningStrategy {
  readonly name = "csp-refinement";
  readonly #inner: PlanningStrategy;
  constructor(readonly options: CSPRefinementOptions = {}) {
    super();
    checkOptionKeys(options, C_S_P_REFINEMENT_OPTIONS_KEYS, "new CSPRefinementStrategy()");
    this.#inner = options.inner ?? new AStarStrategy();
  }

  /** The refined plan, or the inner strategy's reason for having none (a budget stop is not read as "no plan"). */
  async planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<StrategyResult> {
    const found: StrategyResult = this.options.candidate
      ? { plan: this.options.candidate, status: "found" }
      : await planWithStatus(this.#inner, start, goal, actions, context);
    if (found.plan === null) return found;
    const { inner: _inner, candidate: _candidate, ...refine } = this.options;
    const refined = await refinePlan(found.plan, goal, refine);
    return { plan: refined.with({ metadata: { strategy: this.name } }), status: "found", ...(found.stats ? { stats: found.stats } : {}) };
  }
}
