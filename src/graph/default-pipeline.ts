import type { ActionSpec, GoalSpec, WorldState } from "../core/index.js";
import { BasePlanningStrategy, type PlanningStrategy, type StrategyContext, type StrategyResult } from "../planner/index.js";

/**
 * @internal The graph's strategy for goals with constraints, objectives,
 * metrics or soft goals when no `pipelineStrategy` is given: a
 * `TwoPhasePipelineStrategy`, loaded with the optimize layer (its MILP
 * refinement and solvers) on the first such goal. A graph app whose goals
 * are plain conditions never downloads that layer when its bundler splits
 * dynamic imports into chunks (Vite/Rolldown; not esbuild: see
 * bench/bundle-size.ts).
 */
export class DefaultPipelineStrategy extends BasePlanningStrategy {
  readonly name = "two-phase-pipeline";
  #loading: Promise<PlanningStrategy & Required<Pick<PlanningStrategy, "planDetailed">>> | undefined;

  async planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<StrategyResult> {
    this.#loading ??= import("../optimize/strategies.js").then(
      ({ TwoPhasePipelineStrategy }) => new TwoPhasePipelineStrategy(),
      (error: unknown) => {
        // A chunk that failed to load (a network blip) is tried again on the next goal.
        this.#loading = undefined;
        throw error;
      },
    );
    return (await this.#loading).planDetailed(start, goal, actions, context);
  }
}
