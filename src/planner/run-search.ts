/**
 * One search of a planning call, from an action list to an outcome: takes a
 * compiled problem from the cache, lets the default heuristic policy choose
 * the phases, sets each phase up (heuristic, relevance masks, engine) and
 * steps it in slices. The search loop itself is `search-loop.ts`, over the
 * state representation of `search-bits.ts` or `search-float.ts`; this file
 * only wires them.
 * @internal
 */

import type { ActionSpec } from "../core/action.js";
import type { WorldState } from "../core/facts.js";
import type { SearchGoal } from "../core/search-goal.js";
import { callTracer } from "../core/tracer.js";
import { bySpecificity } from "./action-order.js";
import type { ResolvedBudget } from "./budget.js";
import type { CompiledProblem } from "./compiled-problem.js";
import { acquireCompiled, type CompiledEntry, releaseCompiled, relevantBitsOf, relevantFloatOf } from "./compiled-problem-cache.js";
import { escalatedPhase, firstPhase } from "./default-heuristic-policy.js";
import type { HeuristicName } from "./heuristics/registry.js";
import { heuristicIn, heuristicNamed } from "./heuristics/registry.js";
import { RELAX_PAUSED } from "./heuristics/relaxed-model.js";
import { type Pace, PlanningStopped } from "./pace.js";
import type { PlanOptions, PruningName } from "./plan-options.js";
import { packStart, startBitsSearch } from "./search-bits.js";
import { startFloatSearch } from "./search-float.js";
import { finishedRun, type SearchOutcome, type SearchRun, type SearchSetup } from "./search-setup.js";
import { stubbornSetsSteps } from "./stubborn-sets.js";
import { successorGeneratorSteps } from "./successor-generator.js";

// Checkpoints here read `pace.due()` before `yield* pace.pause()` rather than `yield* pace.check()`: a small
// per-frame search passes them every call, and each `check()` would allocate a generator.

/**
 * Searches from `start` to `goal` over `actionList`. A stop by the signal or
 * the time budget while setting up becomes an outcome carrying the counts of
 * the phases already finished.
 */
export function* searchActions(
  start: Readonly<WorldState>,
  goal: SearchGoal,
  actionList: readonly ActionSpec[],
  options: PlanOptions,
  heuristicName: HeuristicName,
  budget: ResolvedBudget,
  deadline: number,
  pace: Pace,
): Generator<void, SearchOutcome, void> {
  if (options.signal?.aborted) return { status: "aborted", actions: null, nodesExpanded: 0, nodesGenerated: 0 };
  // Counts of a finished first phase, for a stop while the second one is set up.
  let expanded = 0;
  let generated = 0;
  let compiled: CompiledEntry | undefined;
  try {
    compiled = yield* acquireCompiled(start, goal, yield* bySpecificity(actionList, pace), pace);
    if (pace.due()) yield* pace.pause();
    const first = firstPhase(compiled, options, heuristicName, budget);
    let outcome = yield* searchWith(compiled, goal, options, first.heuristic, first.budget, deadline, pace);
    expanded = outcome.nodesExpanded;
    generated = outcome.nodesGenerated;
    let heuristic = first.heuristic;
    if (first.escalates && outcome.status === "budget_exhausted" && outcome.limit === "expansions") {
      if (pace.due()) yield* pace.pause();
      const next = escalatedPhase(compiled, heuristicName, budget, expanded);
      const second = yield* searchWith(compiled, goal, options, next.heuristic, next.budget, deadline, pace);
      outcome = {
        ...second,
        nodesExpanded: second.nodesExpanded + expanded,
        nodesGenerated: second.nodesGenerated + generated,
        searchMs: (second.searchMs ?? 0) + (outcome.searchMs ?? 0),
      };
      heuristic = next.heuristic;
    }
    return heuristic === heuristicName ? outcome : { ...outcome, heuristic };
  } catch (error) {
    if (!(error instanceof PlanningStopped)) throw error;
    return {
      status: error.status,
      actions: null,
      nodesExpanded: expanded,
      nodesGenerated: generated,
      ...(error.status === "budget_exhausted" ? { limit: "time" as const } : {}),
    };
  } finally {
    if (compiled) releaseCompiled(compiled);
  }
}

/**
 * Sets a search up (in slices: building a heuristic or an index costs time in proportion to the domain) and runs it.
 * The outcome's `searchMs` is the time inside the loop's steps only, as Fast Downward's "Search time" counts (the
 * initial evaluation in, the task's and the heuristic's construction out): set-up is proportional to the domain,
 * the loop to the search, and the two are reported apart.
 */
function* searchWith(
  compiled: CompiledEntry,
  goal: SearchGoal,
  options: PlanOptions,
  heuristicName: HeuristicName,
  budget: ResolvedBudget,
  deadline: number,
  pace: Pace,
): Generator<void, SearchOutcome, void> {
  const run = yield* startSearch(compiled, goal, options, heuristicName, budget, deadline, pace);
  if (pace.due()) yield* pace.pause();
  let began = performance.now();
  let outcome = run.step(pace.sliceEnd);
  let searchMs = performance.now() - began;
  while (outcome === null) {
    yield* pace.pause();
    began = performance.now();
    outcome = run.step(pace.sliceEnd);
    searchMs += performance.now() - began;
  }
  return { ...outcome, searchMs };
}

function* startSearch(
  compiled: CompiledEntry,
  goal: SearchGoal,
  options: PlanOptions,
  heuristicName: HeuristicName,
  budget: ResolvedBudget,
  deadline: number,
  pace: Pace,
): Generator<void, SearchRun, void> {
  const { p, model } = compiled;
  const tracer = options.recordExpansions ? options.tracer : undefined;

  if (pace.due()) yield* pace.pause();
  // Built once per compiled problem and reused by its later searches (each search starts with `beginSearch`):
  // a new object per search cost small per-frame plans ~3 µs each.
  const h = compiled.heuristics.kept(`heuristic:${heuristicName}`, () => heuristicIn(heuristicName, compiled.heuristics));
  // Reachability pre-check: relaxed reachability proves most unreachable goals at once. A heuristic that proves dead
  // ends does it at the root's evaluation, from the same relaxation.
  if (!h.provesDeadEnds) {
    // In slices: on a wide domain one relaxation takes tens of ms.
    model.relaxStart(p.start, 0, 0, true);
    let goalsLeft = model.relaxUntil(pace.sliceEnd);
    while (goalsLeft === RELAX_PAUSED) {
      if (pace.due()) yield* pace.pause();
      goalsLeft = model.relaxUntil(pace.sliceEnd);
    }
    if (goalsLeft > 0) {
      callTracer(tracer, "onSearchDeadEnd", "not_reachable", { goal: goal.conditions });
      return finishedRun({ status: "no_plan", actions: null, nodesExpanded: 0, nodesGenerated: 0 });
    }
  }
  if (pace.due()) yield* pace.pause();
  const relevanceOn = options.relevance !== false && options.recordExpansions !== true;
  const relevantBits = relevanceOn ? (relevantBitsOf(compiled) ?? undefined) : undefined;
  const relevantFloat = relevanceOn ? (relevantFloatOf(compiled) ?? undefined) : undefined;
  if (pace.due()) yield* pace.pause();
  const packed = compiled.layout ? packStart(p, compiled.layout) : null;
  const successors = compiled.layout && packed ? yield* successorGeneratorSteps(compiled.layout, relevantBits?.action, packed, pace) : null;
  const stubborn =
    compiled.layout && packed && pruningFor(p, heuristicName, options.pruning ?? "auto") === "stubborn-sets"
      ? yield* stubbornSetsSteps(
          p,
          compiled.layout,
          relevantBits?.action,
          relevantBits?.effClear ?? compiled.layout.effWordClear,
          relevantBits?.effSet ?? compiled.layout.effWordSet,
          pace,
        )
      : null;
  const setup: SearchSetup = {
    p,
    h,
    goal,
    weight: options.weight ?? 1,
    maxExpansions: budget.maxExpansions,
    maxNodes: budget.maxNodes,
    defaultNodes: budget.defaultNodes,
    deadline,
    signal: options.signal,
    tracer,
    record: options.recordExpansions === true,
    // Recorded expansions show whole states, so a recording search sees every fact.
    relevantBits,
    relevantFloat,
    successors: successors ?? undefined,
    workspace: compiled.workspace,
    stubborn,
  };
  return compiled.layout && packed ? startBitsSearch(setup, compiled.layout, packed) : startFloatSearch(setup);
}

/** Domains with at least this many actions are pruned by default (see `PlanOptions.pruning`), as they search with LM-cut from the start. */
export const AUTO_PRUNING_ACTIONS = 32;

/**
 * The pruning a search runs: `auto` resolved by the domain's size and the heuristic. Pruning serves optimal search:
 * with an admissible heuristic. Blind search and goal counting evaluate a state in less time than its stubborn set
 * takes (chain-M blind: 0.16 ms a search without, 0.48 with), and `hadd`/`hff`, which do not keep A* optimal, were
 * led astray by it as often as helped (N48-M108 seed 3: hff 529 expansions without, 5,094 with), so `auto` prunes
 * only searches with `hmax`, `lmcut` or `opcount`.
 */
function pruningFor(p: CompiledProblem, heuristic: HeuristicName, pruning: PruningName): Exclude<PruningName, "auto"> {
  if (pruning !== "auto") return pruning;
  if (heuristic === "zero" || !heuristicNamed(heuristic).admissible) return "none";
  return p.actions.length >= AUTO_PRUNING_ACTIONS ? "stubborn-sets" : "none";
}
