import { type ActionSpec, callTracer, type GoalSpec, type PlanningTracer } from "../core/index.js";
import type { CompiledProblem } from "./compile.js";
import type { Heuristic } from "./heuristics.js";
import type { SearchRecord, SearchStatus } from "./types.js";

/** Everything a search engine needs, prepared once by `planDetailed`. */
export interface SearchSetup {
  readonly p: CompiledProblem;
  readonly h: Heuristic;
  readonly goal: GoalSpec;
  readonly weight: number;
  readonly maxExpansions: number;
  /** `performance.now()` value after which the search stops. */
  readonly deadline: number;
  readonly signal: AbortSignal | undefined;
  readonly tracer: PlanningTracer | undefined;
  readonly record: boolean;
}

/** What an engine reports back. */
export interface SearchOutcome {
  status: SearchStatus;
  actions: ActionSpec[] | null;
  nodesExpanded: number;
  nodesGenerated: number;
  expansions?: SearchRecord[];
}

/** Budget and abort checks run every this many expansions. */
export const CHECK_EVERY = 256;

/** Walks parent links from the goal node back to the root. */
export function pathOf(p: CompiledProblem, goalNode: number, parent: Int32Array, via: Int32Array): ActionSpec[] {
  const path: ActionSpec[] = [];
  for (let n = goalNode; via[n] !== -1; n = parent[n] as number) path.push(p.actions[via[n] as number]!.spec);
  return path.reverse();
}

/**
 * The budget verdict before expanding one more node: `budget_exhausted`,
 * `aborted`, or `null` to go on. Time and abort are checked every
 * {@link CHECK_EVERY} expansions to keep the hot loop cheap.
 */
export function budgetStop(setup: SearchSetup, expanded: number): SearchStatus | null {
  if (expanded >= setup.maxExpansions) return "budget_exhausted";
  if ((expanded & (CHECK_EVERY - 1)) === 0 && expanded > 0) {
    if (setup.signal?.aborted) return "aborted";
    if (performance.now() > setup.deadline) return "budget_exhausted";
  }
  return null;
}

/** Builds an engine's outcome, reporting dead ends to the tracer. */
export function finishSearch(
  setup: SearchSetup,
  status: SearchStatus,
  counts: { expanded: number; generated: number; expansions: SearchRecord[] | undefined },
  path: () => ActionSpec[],
): SearchOutcome {
  const base = {
    nodesExpanded: counts.expanded,
    nodesGenerated: counts.generated,
    ...(counts.expansions ? { expansions: counts.expansions } : {}),
  };
  if (status !== "found") {
    callTracer(setup.tracer, "onSearchDeadEnd", status === "no_plan" ? "exhausted" : status, { nodesExpanded: counts.expanded });
    return { status, actions: null, ...base };
  }
  return { status, actions: path(), ...base };
}
