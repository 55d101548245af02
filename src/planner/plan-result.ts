/**
 * Turns a search's outcome into what a planning call returns: the `Plan`
 * (replayed, checked, and pruned of removable steps unless the search was
 * provably minimal), or the status with its budget figures, abort reason and
 * a lazily computed explanation of "no plan".
 * @internal
 */

import { abortReasonText } from "../core/abort-reason.js";
import type { ActionSpec } from "../core/action.js";
import type { WorldState } from "../core/facts.js";
import type { GoalSpec } from "../core/goal.js";
import { budgetExhaustion, type ResolvedBudget } from "./budget.js";
import { explainNoPlan } from "./explain.js";
import type { HeuristicName } from "./heuristics/registry.js";
import { heuristicNamed } from "./heuristics/registry.js";
import type { PlanningStopped } from "./pace.js";
import { Plan } from "./plan.js";
import type { PlanOptions } from "./plan-options.js";
import { assertValidSteps, pruneSteps } from "./replay.js";
import type { SearchOutcome } from "./search-setup.js";
import type { NoPlanExplanation, PlanDetailedResult, SearchStats } from "./types.js";

/** The result of a planning call stopped by its signal or time budget before any search began. */
export function stoppedBeforeSearch(
  stop: PlanningStopped,
  options: PlanOptions,
  budget: ResolvedBudget,
  began: number,
): PlanDetailedResult {
  const elapsedMs = performance.now() - began;
  return {
    plan: null,
    status: stop.status,
    stats: { nodesExpanded: 0, nodesGenerated: 0, planningTimeMs: elapsedMs },
    usedBlacklistFallback: false,
    ...(stop.status === "budget_exhausted"
      ? { budget: budgetExhaustion("time", budget, { nodesExpanded: 0, nodesStored: 0, elapsedMs }) }
      : { abortReason: abortReasonText(options.signal) }),
  };
}

/**
 * Adds `explanation` as a property computed on first read: explaining "no
 * plan" compiles the problem again, which per-frame planners that never
 * read it should not pay for.
 */
export function withLazyExplanation<T extends object>(result: T, explain: () => NoPlanExplanation): T {
  Object.defineProperty(result, "explanation", {
    enumerable: true,
    configurable: true,
    get(): NoPlanExplanation {
      const value = explain();
      Object.defineProperty(result, "explanation", { value, enumerable: true, configurable: true, writable: false });
      return value;
    },
  });
  return result;
}

/** The result of a search that found no plan: its status, the budget's figures, the abort reason or an explanation. */
export function notFoundResult(
  outcome: SearchOutcome,
  stats: SearchStats,
  elapsed: number,
  budget: ResolvedBudget,
  options: PlanOptions,
  explain: { start: Readonly<WorldState>; goal: GoalSpec; actions: readonly ActionSpec[] },
): PlanDetailedResult {
  const result: PlanDetailedResult = {
    plan: null,
    status: outcome.status,
    stats,
    usedBlacklistFallback: false,
    ...(outcome.status === "budget_exhausted"
      ? {
          budget: budgetExhaustion(
            outcome.limit ?? "time",
            { maxNodes: outcome.maxNodes ?? budget.maxNodes, maxExpansions: budget.maxExpansions, timeBudgetMs: budget.timeBudgetMs },
            { nodesExpanded: outcome.nodesExpanded, nodesStored: outcome.nodesStored ?? 0, elapsedMs: elapsed },
          ),
        }
      : {}),
    ...(outcome.status === "aborted" ? { abortReason: abortReasonText(options.signal) } : {}),
    ...(outcome.expansions ? { expansions: outcome.expansions } : {}),
  };
  if (outcome.status !== "no_plan") return result;
  const snapshot = { ...explain.start };
  return withLazyExplanation(result, () => explainNoPlan(snapshot, explain.goal, explain.actions));
}

/** The `Plan` of a search that found one: its steps replayed and checked, then pruned unless provably minimal. */
export function foundPlan(
  start: Readonly<WorldState>,
  goal: GoalSpec,
  outcome: SearchOutcome,
  actions: ActionSpec[],
  options: PlanOptions,
  heuristic: HeuristicName,
  usedBlacklistFallback: boolean,
  began: number,
): Plan {
  const found = assertValidSteps(start, actions, goal);
  const used = outcome.heuristic ?? heuristic;
  let kept = actions;
  let replay = found;
  let pruned = 0;
  // An optimal search (admissible heuristic, weight 1) over positive-cost
  // steps cannot return a removable step: dropping one would give a cheaper
  // valid plan. Pruning is then skipped, which matters for per-frame planning.
  const provablyMinimal =
    heuristicNamed(used).admissible && (options.weight ?? 1) === 1 && found.stepCosts.length > 0 && found.stepCosts.every((c) => c > 0);
  if (options.prune !== false && kept.length > 0 && !provablyMinimal) {
    ({ actions: kept, replay, pruned } = pruneSteps(start, kept, goal, found.totalCost));
  }
  return new Plan({
    actions: kept,
    stateChanges: replay.changes,
    startState: { ...start },
    totalCost: replay.totalCost,
    metadata: {
      nodesExpanded: outcome.nodesExpanded,
      nodesGenerated: outcome.nodesGenerated,
      planningTimeMs: performance.now() - began,
      actionsPruned: pruned,
      heuristic: used,
      strategy: "astar",
      usedBlacklistFallback,
    },
  });
}
