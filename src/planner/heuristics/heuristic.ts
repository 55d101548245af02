/**
 * What a heuristic is to the search, and how one is registered: each file
 * of this folder declares one heuristic with {@link defineHeuristic} (its
 * name, whether it is admissible, whether the search evaluates it lazily,
 * and how to build it for a problem), and `registry.ts` lists them.
 * Nothing else in the planner knows a heuristic by its name.
 * @internal
 */
import type { CompiledProblem } from "../compiled-problem.js";
import type { RelaxedModel } from "./relaxed-model.js";

/** {@link Heuristic.resumeEvaluation}: the evaluation is not done yet. */
export const EVALUATION_PAUSED = -1;

/** Evaluates a heuristic on rows of a compiled problem. */
export interface Heuristic {
  readonly name: string;
  /**
   * True when the search queues a child under a bound derived from its
   * parent and evaluates it only when it reaches the front; false when the
   * value is free (blind search), and children are queued with it.
   */
  readonly lazy: boolean;
  /** See {@link HeuristicPlugin.provesDeadEnds}. */
  readonly provesDeadEnds: boolean;
  /**
   * Estimated cost to the goal from the row at `offset`; Infinity = dead
   * end; NaN = the search's deadline (see `beginSearch`) passed during the
   * evaluation, and the search must end: a value never depends on time.
   */
  evaluate(row: Float64Array, offset: number): number;
  /**
   * Starts evaluating the row at `offset` without running the evaluation:
   * {@link resumeEvaluation} runs it, in parts if it must (an asynchronous
   * search evaluates its root so: on a wide domain one relaxation takes tens
   * of ms). Until it is done the row must not change and the heuristic
   * evaluates nothing else. Heuristics without it evaluate in one go.
   */
  startEvaluation?(row: Float64Array, offset: number): void;
  /**
   * Runs the evaluation {@link startEvaluation} started until it is done
   * (returns what `evaluate` returns for that row, however it was divided)
   * or `performance.now()` passes `sliceEnd` (returns {@link EVALUATION_PAUSED}).
   */
  resumeEvaluation?(sliceEnd: number): number;
  /**
   * A lower bound on the cost to the goal after action `action` from the
   * state evaluated last (0 when it knows none better): lets a lazy search
   * key a child without evaluating it.
   */
  childEstimate?(action: number): number;
  /**
   * Starts a search that ends by `deadline` (a `performance.now()` time): a
   * heuristic that remembers per-node data (LM-cut's landmarks) forgets the
   * last search's, and an evaluation still running at the deadline returns
   * NaN (the search then ends) instead of a partial value.
   */
  beginSearch?(deadline: number): void;
  /**
   * The value of search node `node`, reached from node `parent` (-1 for
   * the root) by action `action`, for heuristics that reuse what they found
   * at the parent; `evaluate` for the others.
   */
  evaluateNode?(row: Float64Array, offset: number, node: number, parent: number, action: number): number;
}

/** What a heuristic is built from. */
export interface HeuristicContext {
  readonly p: CompiledProblem;
  readonly model: RelaxedModel;
  /**
   * The value `build` makes, built once per compiled problem under `key`
   * and reused by its later searches (LM-cut's graph, the operator-counting
   * program: building them costs more than a small search).
   */
  kept<T>(key: string, build: () => T): T;
}

/** A registered heuristic. */
export interface HeuristicPlugin<N extends string = string> {
  readonly name: N;
  /** One line for help texts. */
  readonly summary: string;
  /** Never overestimates the cost to the goal: A* with weight 1 then returns cost-optimal plans. */
  readonly admissible: boolean;
  /** See {@link Heuristic.lazy}. */
  readonly lazy: boolean;
  /**
   * Infinity whenever the goal is unreachable under the delete relaxation:
   * the root's evaluation then proves a dead start, and the search makes no
   * separate reachability pass first (one relaxation fewer per search).
   */
  readonly provesDeadEnds: boolean;
  /** The heuristic for a problem, ready for a search from `context.p.start`. */
  create(context: HeuristicContext): Omit<Heuristic, "name" | "lazy" | "provesDeadEnds">;
}

/** Declares a heuristic (the name's literal type becomes part of `HeuristicName`). */
export function defineHeuristic<const N extends string>(plugin: HeuristicPlugin<N>): HeuristicPlugin<N> {
  return Object.freeze(plugin);
}
