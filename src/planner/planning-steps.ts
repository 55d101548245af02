/**
 * The steps of one A* planning call, shared by the synchronous and the
 * asynchronous API: check the options, actions and start; answer the goals
 * that need no search; search (again with the blacklisted actions when the
 * first search proves there is no plan without them, unless
 * `blacklistFallback` is false, as strategies set it: in the graph the
 * planner node lifts a blacklist itself); build the result.
 * @internal
 */

import type { ActionSpec } from "../core/action.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import type { GoalLike } from "../core/goal.js";
import { stateValuesSteps } from "../core/json-value.js";
import { decidesOwnSatisfaction, searchGoalOf } from "../core/search-goal.js";
import { callTracer } from "../core/tracer.js";
import { validatedActions } from "./action-order.js";
import { resolveBudget } from "./budget.js";
import { Pace, PlanningStopped } from "./pace.js";
import { Plan } from "./plan.js";
import type { PlanOptions } from "./plan-options.js";
import { foundPlan, notFoundSteps, stoppedBeforeSearch } from "./plan-result.js";
import { searchActions } from "./run-search.js";
import type { SearchOutcome } from "./search-setup.js";
import type { NoPlanExplanation, PlanDetailedResult, SearchStats } from "./types.js";
import { validateOptions } from "./validate-options.js";

/**
 * @internal The steps of one planning call, from validating the actions to
 * the end of the search: yields whenever `sliceMs` have passed since the
 * last yield (`Infinity`: never, as `planDetailed` runs). Every phase
 * counts against the time budget and stops on the signal. Exposed for
 * tests that drive the steps one by one.
 */
export function* planningSteps(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: PlanOptions,
  sliceMs: number,
): Generator<void, PlanDetailedResult, void> {
  const began = performance.now();
  validateOptions(options);
  const budget = resolveBudget(options);
  const deadline = began + budget.timeBudgetMs;
  const pace = new Pace(sliceMs, deadline, options.signal);
  let all: readonly ActionSpec[];
  try {
    all = yield* validatedActions(actions, pace);
  } catch (error) {
    if (!(error instanceof PlanningStopped)) throw error;
    return stoppedBeforeSearch(error, options, budget, began);
  }
  if (typeof start !== "object" || start === null || Array.isArray(start)) {
    throw new LangGoapError("INVALID_STATE", `plan: start state must be an object, got ${describeValue(start)}`);
  }
  // In steps: a start state of 10,000 facts took 2–12 ms to check in one go.
  const checking = stateValuesSteps(start, "plan");
  while (!checking.next().done) if (pace.sliceOver()) yield* pace.pause();
  const goalSpec = searchGoalOf(goal);
  const heuristic = options.heuristic ?? "hmax";
  // Search hooks (expand, dead end, complete) are part of search recording: off unless asked for.
  const searchTracer = options.recordExpansions ? options.tracer : undefined;
  const stats = (expanded: number, generated: number, searched?: SearchOutcome): SearchStats => ({
    nodesExpanded: expanded,
    nodesGenerated: generated,
    planningTimeMs: performance.now() - began,
    ...(searched?.searchMs !== undefined && { searchTimeMs: searched.searchMs, heuristic: searched.heuristic ?? heuristic }),
  });

  // A goal that decides satisfaction itself (e.g. NirvanaGoal, never
  // satisfied) gives A* nothing to search toward: say so instead of guessing.
  if (decidesOwnSatisfaction(goalSpec)) {
    const explanation: NoPlanExplanation = {
      unreachableConditions: [],
      missingPreconditions: [],
      unusableActions: [],
      suggestion: `goal "${goalSpec.label}" decides its own satisfaction (isSatisfied is overridden), so A* cannot search toward it; plan it with UtilityStrategy or a custom strategy`,
    };
    return { plan: null, status: "no_plan", stats: stats(0, 0), explanation, usedBlacklistFallback: false };
  }

  if (goalSpec.isSatisfied(start)) {
    callTracer(searchTracer, "onSearchComplete", 0, 0, true);
    const plan = Plan.empty({ ...start }, { strategy: "astar", heuristic, planningTimeMs: performance.now() - began });
    return { plan, status: "found", stats: stats(0, 0), usedBlacklistFallback: false };
  }

  const blacklisted = new Set(options.blacklisted ?? []);
  let usedBlacklistFallback = false;
  const list = blacklisted.size ? all.filter((a) => !blacklisted.has(a.name)) : all;
  let outcome = yield* searchActions(start, goalSpec, list, options, heuristic, budget, deadline, pace);
  if (outcome.status === "no_plan" && blacklisted.size > 0 && options.blacklistFallback !== false) {
    const retry = yield* searchActions(start, goalSpec, all, options, heuristic, budget, deadline, pace);
    retry.nodesExpanded += outcome.nodesExpanded;
    retry.nodesGenerated += outcome.nodesGenerated;
    if (outcome.searchMs !== undefined) retry.searchMs = (retry.searchMs ?? 0) + outcome.searchMs;
    outcome = retry;
    usedBlacklistFallback = outcome.status === "found";
  }
  const elapsed = performance.now() - began;
  callTracer(searchTracer, "onSearchComplete", outcome.nodesExpanded, elapsed, outcome.status === "found");

  if (outcome.status !== "found" || !outcome.actions) {
    return yield* notFoundSteps(
      outcome,
      stats(outcome.nodesExpanded, outcome.nodesGenerated, outcome),
      elapsed,
      budget,
      options,
      { start, goal: goalSpec, actions: all },
      pace,
    );
  }
  const plan = foundPlan(start, goalSpec, outcome, outcome.actions, options, heuristic, usedBlacklistFallback, began);
  return {
    plan,
    status: "found",
    stats: stats(outcome.nodesExpanded, outcome.nodesGenerated, outcome),
    usedBlacklistFallback,
    ...(outcome.expansions ? { expansions: outcome.expansions } : {}),
  };
}
