import type { ActionSpec } from "../core/action.js";
import type { WorldState } from "../core/facts.js";
import type { GoalSpec } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { BasePlanningStrategy, contextPlanOptions } from "../planner/strategies/base.js";
import type { StrategyContext, StrategyResult } from "../planner/types.js";
import { type PipelineOptions, pipelinePlanDetailed } from "./pipeline.js";

/**
 * `TwoPhasePipelineStrategy`, alone in its file: the graph's default
 * pipeline loads it through `import()`, and a bundler keeps every export of
 * such a module (`CSPRefinementStrategy` is in `csp-refinement-strategy.ts`).
 */

/** Options of {@link TwoPhasePipelineStrategy}: those of `pipelinePlan` except the per-call context. */
export type TwoPhasePipelineOptions = Omit<PipelineOptions, "blacklisted" | "blacklistFallback" | "signal" | "tracer" | "recordExpansions">;

const TWO_PHASE_PIPELINE_OPTIONS_KEYS = {
  maxAlternatives: true,
  solver: true,
  timeLimitMs: true,
  capacities: true,
  objectiveMode: true,
  heuristic: true,
  maxSearches: true,
} as const satisfies OptionKeys<TwoPhasePipelineOptions>;

/**
 * The pipeline (A* → k-best alternatives → MILP selection → schedule) as
 * a `PlanningStrategy`. The graph's planner routes goals with
 * constraints, objectives or metrics through it.
 *
 * @example
 * ```ts
 * const strategy = new TwoPhasePipelineStrategy({ maxAlternatives: 5, capacities: { agents: 2 } });
 * const plan = await strategy.plan(state, goal, actions);
 * plan?.metadata.csp?.schedule;
 * ```
 */
export class TwoPhasePipelineStrategy extends BasePlanningStrategy {
  readonly name = "two-phase-pipeline";
  constructor(readonly options: TwoPhasePipelineOptions = {}) {
    super();
    checkOptionKeys(options, TWO_PHASE_PIPELINE_OPTIONS_KEYS, "new TwoPhasePipelineStrategy()");
  }

  /** The plan, or why there is none: `no_plan`, `budget_exhausted` or `aborted` (see `pipelinePlanDetailed`). */
  planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<StrategyResult> {
    return pipelinePlanDetailed(start, goal, actions, { ...this.options, ...contextPlanOptions(context) });
  }
}
