/**
 * Which heuristic a search uses when the caller names none, and when it
 * switches: the automatic default policy with its four tuned constants. Every
 * heuristic it picks is admissible, so default plans stay cost-optimal; the
 * policy only trades time per state against states expanded.
 * @internal
 */

import type { ResolvedBudget } from "./budget.js";
import type { CompiledEntry } from "./compiled-problem-cache.js";
import { operatorCountingOf } from "./heuristics/opcount.js";
import type { HeuristicName } from "./heuristics/registry.js";
import type { PlanOptions } from "./plan-options.js";

/**
 * Expansions after which the default search of a boolean domain switches
 * from hmax to LM-cut (chosen from `npm run bench -- scale`: 100, 300,
 * 1,000 and 2,000 solved the series in 1.17, 1.26, 1.96 and 2.72 s; 300
 * keeps per-frame searches of a few hundred states on the cheaper hmax),
 * unless the start's hmax estimate promises a long plan (LONG_PLAN_STEPS:
 * hmax goes on).
 */
export const ESCALATE_AFTER = 300;

/**
 * Domains with at least this many actions search with LM-cut from the start
 * by default (`npm run bench -- planner`: on chain-S, 24 actions, hmax plans
 * in 0.059 ms and LM-cut in 0.088 ms; on chain-M, 32 actions, LM-cut is
 * faster, 0.13 against 0.20 ms, and the gap widens with size). Smaller
 * domains, like game agents' tens of actions, start with hmax.
 */
const LMCUT_FIRST_ACTIONS = 32;

/**
 * A smaller domain whose goal has at least this many conditions searches
 * with LM-cut from the start too: hmax takes the most expensive goal
 * condition alone, LM-cut adds up the separate ones, and with several
 * goals hmax's first ESCALATE_AFTER states are spent on orderings of them
 * (IPC movie, 27 actions, 7 goal conditions: hmax 1 at the start against
 * LM-cut's 7, the optimal cost; maintenance p01, 30 actions and 10
 * conditions: 300 hmax expansions then 4 with LM-cut, against 4 with LM-cut
 * alone). Game agents' goals of one or two conditions keep hmax.
 */
const LMCUT_FIRST_GOAL_CONDITIONS = 3;

/** A start whose hmax estimate is at least this long (in unit costs) is a long plan: hmax goes on past ESCALATE_AFTER. */
const LONG_PLAN_STEPS = 500;

/** One phase of a search: the heuristic it runs with and its budget. */
export interface SearchPhase {
  readonly heuristic: HeuristicName;
  readonly budget: ResolvedBudget;
  /** True when a stop of this phase at its expansion limit hands the rest of the budget to {@link escalatedPhase}. */
  readonly escalates: boolean;
}

/**
 * The first (often the only) phase of a search of `compiled`: the caller's
 * heuristic as given, or the default policy's choice when
 * `options.heuristic` is unset. Plain functions, not a generator wrapped
 * around the search: every layer of `yield*` costs each small per-frame
 * search time (1,000 village agents replanning: a policy generator and a
 * phase closure around the search made a round ~20 % slower).
 */
export function firstPhase(
  compiled: CompiledEntry,
  options: PlanOptions,
  heuristicName: HeuristicName,
  budget: ResolvedBudget,
): SearchPhase {
  if (options.heuristic !== undefined) return { heuristic: heuristicName, budget, escalates: false };
  // A numeric domain whose facts change by `inc`/`dec`: hmax and the operator-counting bound, the larger.
  if (compiled.layout === null) {
    const heuristic = operatorCountingOf(compiled.heuristics).hasRows ? "opcount" : heuristicName;
    return { heuristic, budget, escalates: false };
  }
  // The default on a boolean domain (both heuristics are admissible): LM-cut from the start on a domain of
  // LMCUT_FIRST_ACTIONS actions or more, where it pays from the first states, however large, or with a goal of
  // LMCUT_FIRST_GOAL_CONDITIONS conditions or more (hmax's evaluations
  // grow with the actions too, and it expands far more states: IPC nomystery p02 13,342 against about 60, parking
  // p03 unsolved in 30 s against 3,391 for Fast Downward's LM-cut; a chain of 1,100 actions spends 3.1 s on 300
  // hmax expansions where LM-cut solves it in 60, 0.27 s). On a smaller domain hmax (cheapest per state, as
  // per-frame planning wants) while the search goes well, LM-cut once hmax has expanded ESCALATE_AFTER states. A
  // long plan keeps hmax: it needs an expansion per step anyway.
  const count = compiled.actions.length;
  if (count >= LMCUT_FIRST_ACTIONS || compiled.p.goalTestEnd - compiled.p.goalTestStart >= LMCUT_FIRST_GOAL_CONDITIONS) {
    return { heuristic: longPlanAhead(compiled) ? heuristicName : "lmcut", budget, escalates: false };
  }
  if (budget.maxExpansions <= ESCALATE_AFTER) return { heuristic: heuristicName, budget, escalates: false };
  return { heuristic: heuristicName, budget: { ...budget, maxExpansions: ESCALATE_AFTER }, escalates: true };
}

/**
 * The phase after an escalating first phase stopped at ESCALATE_AFTER
 * expansions: LM-cut with the rest of the budget, or hmax again on a long
 * plan (its ESCALATE_AFTER expansions repeated once; deciding before the
 * first phase would cost every small per-frame search an extra relaxation).
 */
export function escalatedPhase(
  compiled: CompiledEntry,
  heuristicName: HeuristicName,
  budget: ResolvedBudget,
  expandedSoFar: number,
): SearchPhase {
  const heuristic = longPlanAhead(compiled) ? heuristicName : "lmcut";
  return { heuristic, budget: { ...budget, maxExpansions: budget.maxExpansions - expandedSoFar }, escalates: false };
}

/**
 * True when the start's hmax estimate says the plan has at least
 * LONG_PLAN_STEPS steps of unit cost: then hundreds of expansions are what
 * a good search needs, and LM-cut would cost a cut per step.
 */
function longPlanAhead(compiled: CompiledEntry): boolean {
  const h0 = compiled.model.goalHmax(compiled.p.start, 0);
  return h0 !== Number.POSITIVE_INFINITY && h0 >= LONG_PLAN_STEPS;
}
