import type { ActionSpec } from "../../core/action.js";
import { describeValue, LangGoapError } from "../../core/errors.js";
import type { WorldState } from "../../core/facts.js";
import type { GoalSpec } from "../../core/goal.js";
import { planDetailedAsync } from "../astar.js";
import type { HeuristicName } from "../heuristics/registry.js";
import type { Plan } from "../plan.js";
import type { PlanDetailedResult, StrategyContext, StrategyResult } from "../types.js";
import { BasePlanningStrategy, contextPlanOptions } from "./base.js";

/** Options of {@link AnytimePlanningStrategy}. */
export interface AnytimePlanningStrategyOptions {
  /** Total time for all rounds. @defaultValue 1000 */
  readonly timeBudgetMs?: number;
  /**
   * Weights of the successive weighted-A* rounds, strictly decreasing and
   * >= 1. Ending at 1 with an admissible heuristic makes the last round optimal.
   * @defaultValue [5, 3, 2, 1.5, 1]
   */
  readonly weights?: readonly number[];
  /** @defaultValue "hmax" (cheap states for the weighted rounds) */
  readonly heuristic?: HeuristicName;
  /** Expansion cap of each round (a deterministic budget, unlike time). */
  readonly maxExpansionsPerRound?: number;
  /** Called with each plan cheaper than every plan before it. */
  readonly onImprovement?: (plan: Plan, weight: number) => void;
}

const DEFAULT_WEIGHTS: readonly number[] = [5, 3, 2, 1.5, 1];

/**
 * Anytime planning: weighted A* rounds with decreasing weight inside one
 * time budget. The first, greedy round finds a plan fast; later rounds
 * look for cheaper ones while time remains, and the cheapest plan found is
 * returned. A round that proves there is no plan ends the search with
 * `null`; running out of time keeps the best plan so far.
 *
 * @example
 * ```ts
 * const strategy = new AnytimePlanningStrategy({ timeBudgetMs: 50 });
 * const p = await strategy.plan(start, goal, actions);
 * p?.metadata.weight; // the weight of the round that found it
 * ```
 */
export class AnytimePlanningStrategy extends BasePlanningStrategy {
  readonly name = "anytime";
  readonly timeBudgetMs: number;
  readonly weights: readonly number[];
  readonly #options: AnytimePlanningStrategyOptions;

  constructor(options: AnytimePlanningStrategyOptions = {}) {
    super();
    const budget = options.timeBudgetMs ?? 1000;
    if (!(typeof budget === "number" && budget > 0)) {
      throw new LangGoapError("INVALID_OPTION", `AnytimePlanningStrategy.timeBudgetMs must be a number > 0, got ${describeValue(budget)}`);
    }
    const weights = options.weights ?? DEFAULT_WEIGHTS;
    const decreasing = weights.every((w, i) => Number.isFinite(w) && w >= 1 && (i === 0 || w < (weights[i - 1] as number)));
    if (weights.length === 0 || !decreasing) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `AnytimePlanningStrategy.weights must be a non-empty, strictly decreasing list of numbers >= 1, got ${describeValue(weights)}`,
      );
    }
    this.timeBudgetMs = budget;
    this.weights = Object.freeze([...weights]);
    this.#options = options;
  }

  /**
   * The cheapest plan of the rounds, with why the search ended when there
   * is none: `no_plan` when a round proved it, `budget_exhausted` when time
   * ran out first, `aborted` when the signal stopped it. Rounds search
   * asynchronously, so the event loop keeps running.
   */
  async planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<StrategyResult> {
    const began = performance.now();
    const deadline = began + this.timeBudgetMs;
    let best: Plan | null = null;
    let bestWeight = Number.NaN;
    let rounds = 0;
    let improvements = 0;
    let nodesExpanded = 0;
    let nodesGenerated = 0;
    let last: PlanDetailedResult | null = null;
    for (const weight of this.weights) {
      const remaining = deadline - performance.now();
      if (remaining <= 0 || context.signal?.aborted) break;
      const result = await planDetailedAsync(start, goal, actions, {
        // hmax, not the planner's choice by domain: a weighted round wants many cheap states fast (on the scale
        // bench's N48 seed 2, 50 ms find a plan of cost 40 with hmax and none with LM-cut).
        heuristic: this.#options.heuristic ?? "hmax",
        weight,
        timeBudgetMs: remaining,
        ...(this.#options.maxExpansionsPerRound !== undefined ? { maxExpansions: this.#options.maxExpansionsPerRound } : {}),
        ...contextPlanOptions(context),
      });
      last = result;
      rounds++;
      nodesExpanded += result.stats.nodesExpanded;
      nodesGenerated += result.stats.nodesGenerated;
      if (result.status === "no_plan") return result;
      if (result.plan === null) {
        if (result.status === "aborted") break;
        continue;
      }
      if (best === null || result.plan.totalCost < best.totalCost) {
        best = result.plan;
        bestWeight = weight;
        improvements++;
        try {
          this.#options.onImprovement?.(result.plan, weight);
        } catch {
          // An observer's failure must not cost the plan.
        }
      }
      if (best.isEmpty) break;
    }
    const stats = { nodesExpanded, nodesGenerated, planningTimeMs: performance.now() - began };
    if (best === null) {
      if (context.signal?.aborted || last?.status === "aborted") {
        return { plan: null, status: "aborted", stats, abortReason: last?.abortReason ?? "aborted" };
      }
      return { plan: null, status: "budget_exhausted", stats, ...(last?.budget ? { budget: last.budget } : {}) };
    }
    const plan = best.with({
      metadata: { strategy: "anytime", weight: bestWeight, rounds, improvements, ...stats },
    });
    return { plan, status: "found", stats };
  }
}
