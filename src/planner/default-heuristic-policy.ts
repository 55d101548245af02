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
import type { Pace } from "./pace.js";
import type { SearchOutcome } from "./search-setup.js";
import type { HeuristicName, PlanOptions } from "./types.js";

/**
 * Expansions after which the default search of a boolean domain switches
 * from hmax to LM-cut (chosen from `npm run bench -- scale`: 100, 300,
 * 1,000 and 2,000 solved the series in 1.17, 1.26, 1.96 and 2.72 s; 300
 * keeps per-frame searches of a few hundred states on the cheaper hmax),
 * on domains of at most 1,000 actions and unless the start's hmax
 * estimate promises a long plan (LONG_PLAN_STEPS: hmax goes on).
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

/** A start whose hmax estimate is at least this long (in unit costs) is a long plan: hmax goes on past ESCALATE_AFTER. */
const LONG_PLAN_STEPS = 500;

/** Domains with more actions than this keep hmax: an LM-cut evaluation costs time in proportion to the actions, per cut. */
const ESCALATE_MAX_ACTIONS = 1_000;

/** Runs one search phase with the given heuristic and budget. */
export type RunPhase = (heuristic: HeuristicName, budget: ResolvedBudget) => Generator<void, SearchOutcome, void>;

/**
 * Searches `compiled` in one or two phases: with the caller's heuristic as
 * given, or by the default policy when `options.heuristic` is unset. The
 * outcome names the heuristic that found it when that is not `heuristicName`.
 */
export function* searchByDefaultPolicy(
  compiled: CompiledEntry,
  options: PlanOptions,
  heuristicName: HeuristicName,
  budget: ResolvedBudget,
  pace: Pace,
  run: RunPhase,
): Generator<void, SearchOutcome, void> {
  // The default on a boolean domain of at most ESCALATE_MAX_ACTIONS actions (both heuristics are admissible):
  // LM-cut from the start on a domain of LMCUT_FIRST_ACTIONS actions or more, where it pays from the first states;
  // on a smaller one hmax (cheapest per state, as per-frame planning wants) while the search goes well, LM-cut
  // once hmax has expanded ESCALATE_AFTER states. A long plan keeps hmax: it needs an expansion per step anyway.
  const auto = options.heuristic === undefined && compiled.layout !== null && compiled.actions.length <= ESCALATE_MAX_ACTIONS;
  // A numeric domain whose facts change by `inc`/`dec`: hmax and the operator-counting bound, the larger.
  if (options.heuristic === undefined && compiled.layout === null && operatorCountingOf(compiled.heuristics).hasRows) {
    const outcome = yield* run("opcount", budget);
    return { ...outcome, heuristic: "opcount" };
  }
  const large = auto && compiled.actions.length >= LMCUT_FIRST_ACTIONS;
  if (large) {
    yield* pace.check();
    const chosen: HeuristicName = longPlanAhead(compiled) ? heuristicName : "lmcut";
    const outcome = yield* run(chosen, budget);
    return chosen === heuristicName ? outcome : { ...outcome, heuristic: chosen };
  }
  const escalate = auto && budget.maxExpansions > ESCALATE_AFTER;
  const first = escalate ? { ...budget, maxExpansions: ESCALATE_AFTER } : budget;
  const outcome = yield* run(heuristicName, first);
  if (!escalate || outcome.status !== "budget_exhausted" || outcome.limit !== "expansions") return outcome;
  const rest = { ...budget, maxExpansions: budget.maxExpansions - outcome.nodesExpanded };
  // A long plan: hmax starts again (its ESCALATE_AFTER expansions repeated once); deciding before the first phase
  // would cost every small per-frame search an extra relaxation.
  yield* pace.check();
  const next = longPlanAhead(compiled) ? heuristicName : "lmcut";
  const second = yield* run(next, rest);
  return {
    ...second,
    nodesExpanded: second.nodesExpanded + outcome.nodesExpanded,
    nodesGenerated: second.nodesGenerated + outcome.nodesGenerated,
    ...(next === heuristicName ? {} : { heuristic: next }),
  };
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
