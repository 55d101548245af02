/**
 * The A* planning API: `plan`, `planDetailed` and their asynchronous twins.
 * Each drives the same `planningSteps` generator, in one go (synchronous) or
 * in slices with a turn for the event loop between them (asynchronous), so
 * both give the same plans, statuses and counters. The steps live in
 * `planning-steps.ts`; the search loop in the engines (`search-*.ts`).
 */

import type { ActionSpec } from "../core/action.js";
import { LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import type { GoalLike } from "../core/goal.js";
import { nextTurn } from "../core/turn-clock.js";
import type { Plan } from "./plan.js";
import type { PlanOptions } from "./plan-options.js";
import { planningSteps } from "./planning-steps.js";
import type { PlanDetailedResult } from "./types.js";

export { planningSteps } from "./planning-steps.js";

/** Longest stretch of asynchronous search between two yields to the event loop, in ms. */
export const YIELD_EVERY_MS = 5;

/**
 * Finds the cheapest plan, with details: status, counters, an explanation
 * when there is no plan (computed when first read), the budget's figures
 * when one ran out, and recorded expansions on request.
 *
 * Every search is bounded: by default it stops after
 * {@link DEFAULT_TIME_BUDGET_MS} (10 s) or {@link DEFAULT_MAX_NODES}
 * states held (fewer for wide states, to stay within 256 MB), whichever
 * comes first, with status `budget_exhausted` — never `no_plan`, which
 * means the search proved there is no plan. Synchronous: it blocks the
 * event loop while it searches; {@link planDetailedAsync} does not.
 *
 * @example
 * ```ts
 * const { plan, status, stats } = planDetailed({ wood: 0 }, { wood: { gte: 3 } }, [chop], { heuristic: "hmax" });
 * status;              // "found"
 * stats.nodesExpanded; // 3
 * planDetailed({ n: 0 }, { n: 3 }, [addTwo], { timeBudgetMs: 50 }).budget?.limit; // "time"
 * ```
 */
export function planDetailed(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: PlanOptions = {},
): PlanDetailedResult {
  const step = planningSteps(start, goal, actions, options, Number.POSITIVE_INFINITY).next();
  if (!step.done) throw new LangGoapError("INVALID_STATE", "internal error: a synchronous search paused");
  return step.value;
}

/**
 * {@link planDetailed} without blocking the event loop: the search runs in
 * slices of at most {@link YIELD_EVERY_MS} ms and yields between them, so
 * timers, I/O and other requests go on, and an `AbortSignal` (e.g.
 * `AbortSignal.timeout(500)`) stops it within one slice, with status
 * `aborted`. Plans, statuses and counters are those of `planDetailed`.
 * The graph's planner node plans this way.
 *
 * @example
 * ```ts
 * const result = await planDetailedAsync(start, goal, actions, { signal: AbortSignal.timeout(500) });
 * if (result.status === "aborted") console.log(result.abortReason);
 * ```
 */
export async function planDetailedAsync(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: PlanOptions = {},
): Promise<PlanDetailedResult> {
  const steps = planningSteps(start, goal, actions, options, YIELD_EVERY_MS);
  let step = steps.next();
  while (!step.done) {
    // Gives the event loop a turn: timers, I/O and abort signals run.
    await nextTurn();
    step = steps.next();
  }
  return step.value;
}

/**
 * Finds the cheapest plan from `start` to `goal`, or `null` when none exists
 * (or a budget ran out: use {@link planDetailed} to tell the two apart).
 * With the default admissible heuristic (`hmax`) the plan is cost-optimal.
 *
 * @example
 * ```ts
 * const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 2 } }, cost: 2 });
 * plan({ wood: 0 }, { wood: { gte: 3 } }, [chop])?.actionNames; // ["chop", "chop"]
 * ```
 */
export function plan(start: Readonly<WorldState>, goal: GoalLike, actions: readonly ActionSpec[], options: PlanOptions = {}): Plan | null {
  return planDetailed(start, goal, actions, options).plan;
}

/**
 * {@link plan} without blocking the event loop (see {@link planDetailedAsync}).
 *
 * @example
 * ```ts
 * const p = await planAsync({ wood: 0 }, { wood: { gte: 3 } }, [chop], { signal });
 * ```
 */
export async function planAsync(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: PlanOptions = {},
): Promise<Plan | null> {
  return (await planDetailedAsync(start, goal, actions, options)).plan;
}
