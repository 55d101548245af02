import type { PlanningTracer } from "../core/tracer.js";
import type { HeuristicName } from "./heuristics/registry.js";

/** Options of `plan` / `planDetailed`. */
export interface PlanOptions {
  /**
   * Left out, the search is cost-optimal and picks by domain: on a boolean
   * domain of 32 actions or more, or with a goal of 3 conditions or more,
   * `lmcut` from the start; on a smaller boolean domain `hmax` (cheapest per
   * state, as per-frame planning wants),
   * starting again with `lmcut` once the search passes `ESCALATE_AFTER`
   * (300) expansions; on a numeric domain whose facts change by `inc`/`dec`
   * `opcount` (hmax and an operator-counting linear program over numeric net
   * change, the larger); `hmax` otherwise, and when hmax at the start
   * promises a plan of 500 steps or more (a long plan needs that many
   * expansions anyway, and LM-cut would cost a cut per step). `plan.metadata.heuristic` says which found the
   * plan. Naming a heuristic uses it alone.
   */
  readonly heuristic?: HeuristicName;
  /** Weighted A*: f = g + weight·h (>= 1; above 1 trades optimality for speed). @defaultValue 1 */
  readonly weight?: number;
  /** Stop after this many expansions (status `budget_exhausted`); `Infinity` for no limit. @defaultValue Infinity */
  readonly maxExpansions?: number;
  /**
   * Stop when the search holds this many states (status `budget_exhausted`):
   * the memory bound. `Infinity` for no limit.
   * @defaultValue 1,000,000, lowered for wide states so search arrays stay within 256 MB ({@link DEFAULT_MAX_NODES})
   */
  readonly maxNodes?: number;
  /**
   * Stop after this much time, counted from the call (status
   * `budget_exhausted`); holds to a fraction of a millisecond plus the cost
   * of one node. `Infinity` for no limit.
   * @defaultValue 10000 ({@link DEFAULT_TIME_BUDGET_MS})
   */
  readonly timeBudgetMs?: number;
  /** Stop when aborted (status `aborted`); asynchronous planning notices it within one slice (5 ms). */
  readonly signal?: AbortSignal;
  /** Action names not to use; when no plan exists without them, they are allowed again. */
  readonly blacklisted?: Iterable<string>;
  /** Retry with all actions when the blacklist leaves no plan. @defaultValue true */
  readonly blacklistFallback?: boolean;
  /** Receives search hooks when `recordExpansions` is on. */
  readonly tracer?: PlanningTracer;
  /** Record every expansion (for tracing and search-tree export). @defaultValue false */
  readonly recordExpansions?: boolean;
  /** Run the relevance and redundancy passes on found plans. @defaultValue true */
  readonly prune?: boolean;
  /**
   * Relevance analysis before search (boolean domains): actions that write
   * nothing the goal or a relevant precondition reads are left out, and the
   * facts nothing reads keep their start values, so states that differ only
   * in them are one state. Plans, costs and statuses are those of the full
   * search; only the number of states searched falls. Off while
   * `recordExpansions` is on (records show whole states).
   * @defaultValue true
   * @example
   * ```ts
   * planDetailed(start, goal, actions, { heuristic: "zero", relevance: false }); // every fact and action
   * ```
   */
  readonly relevance?: boolean;
  /**
   * Partial-order pruning of the search: strong stubborn sets (Wehrle &
   * Helmert, 2014), on boolean domains whose action costs are numbers.
   * Where several orders of independent actions lead to one state, fewer of
   * them are expanded. Plans stay optimal (the pruned space holds an
   * optimal plan from every state), so the cost found is the same; the plan
   * may be another of that cost, found with fewer expansions. The pruning
   * switches itself off after 1,000 expansions that pruned less than a fifth
   * of the successors (as Fast Downward's does). `"auto"`: on for boolean
   * domains of 32 actions or more (IPC-sized tasks) searched optimally with
   * `hmax`, `lmcut` or `opcount` (the default's choices); off on smaller
   * ones (game agents' tens of actions), for blind search (`zero`), where
   * computing the sets costs more than it saves, and for `hadd`, `hff` and
   * `goal-count`. `"stubborn-sets"`: on; `"none"`: off. Numeric domains and
   * cost functions are never pruned.
   * @defaultValue "auto"
   * @example
   * ```ts
   * planDetailed(start, goal, actions, { pruning: "none" }); // every applicable action is expanded
   * ```
   */
  readonly pruning?: PruningName;
}

/** The partial-order pruning methods of {@link PlanOptions.pruning}. */
export const PRUNING_NAMES = ["auto", "none", "stubborn-sets"] as const;
export type PruningName = (typeof PRUNING_NAMES)[number];
