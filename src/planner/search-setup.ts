/**
 * What every search shares, whatever its state representation: the setup
 * `planDetailed` prepares, the outcome an engine reports, runs in slices,
 * the node budget's byte count and the plan walked back from the goal.
 * @internal
 */
import type { ActionSpec } from "../core/action.js";
import type { SearchGoal } from "../core/search-goal.js";
import { callTracer, type PlanningTracer } from "../core/tracer.js";
import type { BudgetLimit } from "./budget.js";
import type { CompiledProblem } from "./compiled-problem.js";
import type { Heuristic } from "./heuristics/heuristic.js";
import type { HeuristicName } from "./heuristics/registry.js";
import type { SearchWorkspace } from "./search-store.js";
import type { StubbornSets } from "./stubborn-sets.js";
import type { SuccessorGenerator } from "./successor-generator.js";
import type { SearchRecord, SearchStatus } from "./types.js";

export { SearchWorkspace } from "./search-store.js";

/** Everything a search engine needs, prepared once by `planDetailed`. */
export interface SearchSetup {
  readonly p: CompiledProblem;
  readonly h: Heuristic;
  readonly goal: SearchGoal;
  readonly weight: number;
  readonly maxExpansions: number;
  /** Most states held; `defaultNodes` lets the engine lower it to fit the default memory allowance. */
  readonly maxNodes: number;
  readonly defaultNodes: boolean;
  /** `performance.now()` value after which the search stops. */
  readonly deadline: number;
  readonly signal: AbortSignal | undefined;
  readonly tracer: PlanningTracer | undefined;
  readonly record: boolean;
  /**
   * The boolean engine's view of relevance analysis (`relevanceOf` in relevance.ts):
   * actions to skip (0) and effect masks without the bits of irrelevant
   * facts. Absent when the analysis is off or prunes nothing.
   */
  readonly relevantBits?: { readonly action: Uint8Array; readonly effClear: Int32Array; readonly effSet: Int32Array } | undefined;
  /**
   * The boolean engine's successor generator over the actions `relevantBits` keeps
   * (successor-generator.ts); absent where testing every action is faster.
   */
  readonly successors?: SuccessorGenerator | undefined;
  /**
   * The float engine's view of relevance analysis: actions to skip (0) and
   * slots whose writes are dropped (0), so irrelevant facts keep their start
   * values. Absent when the analysis is off or prunes nothing.
   */
  readonly relevantFloat?: { readonly action: Uint8Array; readonly slot: Uint8Array } | undefined;
  /** Arrays kept from earlier searches of the same compiled problem. */
  readonly workspace: SearchWorkspace;
  /** The boolean engine's partial-order pruning (stubborn-sets.ts), where the search prunes and the sets apply. */
  readonly stubborn?: StubbornSets | null | undefined;
}

/** What an engine reports back. */
export interface SearchOutcome {
  status: SearchStatus;
  actions: ActionSpec[] | null;
  nodesExpanded: number;
  nodesGenerated: number;
  /** States held when the search ended. */
  nodesStored?: number;
  /** The budget that stopped a `budget_exhausted` search. */
  limit?: BudgetLimit;
  /** The node budget the engine applied (the default shrinks for wide states). */
  maxNodes?: number;
  expansions?: SearchRecord[];
  /** The heuristic that found the outcome, when the search switched to another than it started with. */
  heuristic?: HeuristicName;
  /** Milliseconds spent in the search loop itself (every phase's steps, without set-up and pauses). */
  searchMs?: number;
}

/**
 * A search in progress. `step(sliceEnd)` searches until it is done (and
 * returns the outcome) or until `performance.now()` passes `sliceEnd`
 * (and returns `null`: call again to go on). Synchronous planning calls it
 * once with `Infinity`; asynchronous planning yields to the event loop
 * between slices.
 */
export interface SearchRun {
  step(sliceEnd: number): SearchOutcome | null;
}

/** A run that is over before it starts (the root is a dead end, or the goal is unreachable). */
export function finishedRun(outcome: SearchOutcome): SearchRun {
  return { step: () => outcome };
}

/**
 * Bytes one stored node may cost an engine whose rows take `rowBytes`, as
 * the default node budget counts them: the row twice (arrays are copied
 * when they grow, so old and new rows coexist for a moment), parent, via
 * and hash (12), g and h (16), its share of the hash table (up to 32: a slot
 * holds a node and its hash) and
 * of the open list (36 per entry, about three entries per node).
 */
export function bytesPerNode(rowBytes: number): number {
  return 2 * rowBytes + 12 + 16 + 32 + 108;
}

/** Walks parent links from the goal node back to the root. */
export function pathOf(p: CompiledProblem, goalNode: number, parent: Int32Array, via: Int32Array): ActionSpec[] {
  const path: ActionSpec[] = [];
  for (let n = goalNode; via[n] !== -1; n = parent[n] as number) path.push(p.actions[via[n] as number]!.spec);
  return path.reverse();
}

/** Builds an engine's outcome, reporting dead ends to the tracer. */
export function finishSearch(
  setup: SearchSetup,
  status: SearchStatus,
  counts: {
    expanded: number;
    generated: number;
    stored: number;
    maxNodes: number;
    limit: BudgetLimit | undefined;
    expansions: SearchRecord[] | undefined;
  },
  path: () => ActionSpec[],
): SearchOutcome {
  const base: SearchOutcome = {
    status,
    actions: null,
    nodesExpanded: counts.expanded,
    nodesGenerated: counts.generated,
    nodesStored: counts.stored,
    maxNodes: counts.maxNodes,
    ...(status === "budget_exhausted" && counts.limit ? { limit: counts.limit } : {}),
    ...(counts.expansions ? { expansions: counts.expansions } : {}),
  };
  if (status !== "found") {
    callTracer(setup.tracer, "onSearchDeadEnd", status === "no_plan" ? "exhausted" : status, { nodesExpanded: counts.expanded });
    return base;
  }
  base.actions = path();
  return base;
}

/** The outcome of a search whose deadline passed while its root was being evaluated. */
export function timeUp(setup: SearchSetup, stored: number, maxNodes: number): SearchOutcome {
  return finishSearch(
    setup,
    "budget_exhausted",
    { expanded: 0, generated: 1, stored, maxNodes, limit: "time", expansions: setup.record ? [] : undefined },
    () => [],
  );
}
