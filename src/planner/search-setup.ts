import type { ActionSpec, GoalSpec, PlanningTracer } from "../core/index.js";
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
