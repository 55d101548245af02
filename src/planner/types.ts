import type { ActionSpec } from "../core/action.js";
import type { WorldState } from "../core/facts.js";
import type { GoalSpec } from "../core/goal.js";
import type { PlanningTracer } from "../core/tracer.js";
import type { BudgetExhaustion } from "./budget.js";
import type { Plan } from "./plan.js";

/** Why no plan exists, in terms a person can act on. JSON-serializable. */
export interface NoPlanExplanation {
  /** Goal conditions no action can produce (formatted, e.g. `wood >= 3`). */
  readonly unreachableConditions: readonly string[];
  /** Preconditions that are neither true at the start nor produced by any action. */
  readonly missingPreconditions: readonly string[];
  /** Actions that could never run (their preconditions are unreachable), by name. */
  readonly unusableActions: readonly string[];
  readonly suggestion: string;
  /**
   * Set when the search did not prove anything but was cut short:
   * `budget_exhausted` (see `budget`) or `aborted`. Absent for a proven
   * "no plan".
   */
  readonly status?: "budget_exhausted" | "aborted";
  /** The figures of the budget that ran out, when `status` is `budget_exhausted`. */
  readonly budget?: BudgetExhaustion;
}

/** How a search ended. */
export type SearchStatus = "found" | "no_plan" | "budget_exhausted" | "aborted";

/** Counters of one search. */
export interface SearchStats {
  readonly nodesExpanded: number;
  readonly nodesGenerated: number;
  /** The whole call: checking the input, compiling the problem, setting up the heuristic, searching. */
  readonly planningTimeMs: number;
  /**
   * Of `planningTimeMs`, the search loop alone (expanding and evaluating states, every phase, without pauses), as
   * Fast Downward's "Search time" counts. Absent when no search ran (a goal already met, a stop before the search).
   */
  readonly searchTimeMs?: number;
  /** The heuristic that searched last (the default policy's choice, or the one asked for); absent when none did. */
  readonly heuristic?: string;
}

/** One expanded node, recorded with `recordExpansions: true`. */
export interface SearchRecord {
  readonly nodeId: number;
  readonly parentId: number | null;
  readonly actionName: string | null;
  readonly g: number;
  readonly h: number;
  readonly state: WorldState;
}

/** Result of {@link planDetailed}. */
export interface PlanDetailedResult {
  readonly plan: Plan | null;
  readonly status: SearchStatus;
  readonly stats: SearchStats;
  /** Present when `status` is `no_plan` (computed when first read, so callers that never read it do not pay for it). */
  readonly explanation?: NoPlanExplanation;
  /** Present when `status` is `budget_exhausted`: which budget ran out, with the figures. */
  readonly budget?: BudgetExhaustion;
  /** Present when `status` is `aborted`: the signal's reason. */
  readonly abortReason?: string;
  readonly usedBlacklistFallback: boolean;
  /** Present with `recordExpansions: true`. */
  readonly expansions?: readonly SearchRecord[];
}

/** What a strategy receives besides start, goal and actions. */
export interface StrategyContext {
  /**
   * Actions this call must not use. A strategy leaves them out and does not
   * fall back to them: the caller that keeps the blacklist decides when to
   * lift it (the graph's planner asks again without it after a proven
   * `no_plan`).
   */
  readonly blacklisted?: Iterable<string>;
  /** The plan being replaced, for repair strategies. */
  readonly priorPlan?: Plan | null;
  /** Steps of `priorPlan` already executed. */
  readonly currentStep?: number;
  /**
   * Actions the run may still execute before a step limit ends it, when it
   * has one: a graph fills it from its termination policies (a
   * `MaxActionsPolicy` of 100 after 30 actions: 70). A strategy that weighs
   * time (MCTS's `horizon`) counts only what can happen within it; others
   * ignore it.
   */
  readonly stepsRemaining?: number;
  readonly signal?: AbortSignal;
  readonly tracer?: PlanningTracer;
  readonly recordExpansions?: boolean;
}

/** What {@link PlanningStrategy.planDetailed} reports: the plan and why the search ended. */
export interface StrategyResult {
  readonly plan: Plan | null;
  /** `no_plan` only when the strategy proved there is none; `budget_exhausted` and `aborted` say the search was cut short. */
  readonly status: SearchStatus;
  readonly stats?: SearchStats;
  /** Present when `status` is `no_plan` and the strategy explains it. */
  readonly explanation?: NoPlanExplanation;
  /** Present when `status` is `budget_exhausted`. */
  readonly budget?: BudgetExhaustion;
  /** Present when `status` is `aborted`. */
  readonly abortReason?: string;
}

/**
 * A way of finding plans. The graph's planner node calls one of these; A*,
 * MCTS, the optimization pipeline and routers all implement it.
 */
export interface PlanningStrategy {
  /** Name reported to tracers and in plan metadata. */
  readonly name: string;
  /**
   * True when the strategy reports `onStrategyChosen` to the tracer itself
   * (a router names the strategy it picked); the graph then does not
   * announce this strategy's own name as well. @defaultValue false
   */
  readonly announcesChoice?: boolean;
  plan(start: Readonly<WorldState>, goal: GoalSpec, actions: readonly ActionSpec[], context?: StrategyContext): Promise<Plan | null>;
  /**
   * Optional: {@link PlanningStrategy.plan} with the search's status, so a
   * caller can tell a search stopped by its budget or a signal from one
   * that proved there is no plan. The graph uses it when present and
   * otherwise reads `null` from `plan()` as `no_plan`.
   */
  planDetailed?(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context?: StrategyContext,
  ): Promise<StrategyResult>;
}
