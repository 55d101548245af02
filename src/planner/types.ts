import type { ActionSpec, GoalSpec, PlanningTracer, Score, WorldState } from "../core/index.js";
import { LangGoapError, SimpleScore } from "../core/index.js";
import type { BudgetExhaustion } from "./budget.js";
import type { HeuristicName } from "./heuristics/registry.js";

/**
 * Heuristics of the A* planner, as registered in `heuristics/registry.ts`.
 * `hmax`, `lmcut` (landmark cuts: sums disjoint landmarks, far fewer
 * states on large problems, dearer per state), `opcount` and `zero` are
 * admissible; `hadd`, `hff` and `goal-count` trade optimality for speed.
 */
export type { HeuristicName };

/** Outcome of a constraint-refinement pass. */
export type CSPStatus = "optimal" | "feasible" | "infeasible" | "timeout" | "error" | "skipped";

/** A resource summed over a plan and how it fares against its constraint. */
export interface ResourceUsage {
  readonly key: string;
  readonly total: number;
  readonly min?: number;
  readonly max?: number;
  readonly satisfied: boolean;
  readonly level: "hard" | "soft" | "info";
}

/** One action's interval in a schedule. */
export interface ScheduleEntry {
  readonly index: number;
  readonly actionName: string;
  readonly startMs: number;
  readonly durationMs: number;
  readonly endMs: number;
}

/** What constraint refinement attached to a plan. */
export interface CSPMetadata {
  readonly status: CSPStatus;
  readonly resourceUsage: readonly ResourceUsage[];
  readonly schedule?: readonly ScheduleEntry[];
  readonly makespanMs?: number;
  /** The optimizer's objective value for the chosen plan. */
  readonly objectiveValue?: number;
  /** Per-objective totals. */
  readonly objectiveValues?: Readonly<Record<string, number>>;
  /** Solver back-end used (`highs`, `javascript-lp-solver`, or `none` for pure checks). */
  readonly solver: string;
  readonly solveTimeMs: number;
  readonly plansEvaluated?: number;
  /** Why the plan is infeasible, when it is. */
  readonly explanation?: unknown;
}

/** Facts about how a plan was found. */
export interface PlanMetadata {
  readonly nodesExpanded: number;
  readonly nodesGenerated: number;
  readonly planningTimeMs: number;
  /** Actions dropped by the relevance and redundancy passes. */
  readonly actionsPruned: number;
  readonly heuristic?: HeuristicName | string;
  readonly strategy: string;
  /** True when the plan needed a blacklisted action (the blacklist was ignored). */
  readonly usedBlacklistFallback?: boolean;
  /** Actions applicable at the start (utility strategies). */
  readonly applicableCount?: number;
  readonly csp?: CSPMetadata;
  readonly [extra: string]: unknown;
}

/** Options of the {@link Plan} constructor. Give `expectedStates`, or `startState` with `stateChanges`. */
export interface PlanInit {
  readonly actions: readonly ActionSpec[];
  /** The state after each action (same length as `actions`). */
  readonly expectedStates?: readonly WorldState[];
  /**
   * What each action writes (its keys with their new values), same length as
   * `actions`. With `startState`, the expected states are built from these
   * on first read, so making a long plan costs time linear in its length.
   */
  readonly stateChanges?: readonly Readonly<WorldState>[];
  readonly startState?: WorldState;
  readonly totalCost: number;
  readonly score?: Score;
  readonly metadata?: Partial<PlanMetadata>;
}

const EMPTY_METADATA: PlanMetadata = Object.freeze({
  nodesExpanded: 0,
  nodesGenerated: 0,
  planningTimeMs: 0,
  actionsPruned: 0,
  strategy: "none",
});

/**
 * A sequence of actions with the states the planner expects after each one.
 *
 * @example
 * ```ts
 * const p = plan({ wood: 0 }, { wood: { gte: 4 } }, [chop]);
 * p?.actionNames; // ["chop", "chop"]
 * p?.totalCost;   // 4
 * ```
 */
export class Plan {
  readonly actions: readonly ActionSpec[];
  readonly startState: WorldState | undefined;
  readonly totalCost: number;
  readonly score: Score;
  readonly metadata: PlanMetadata;
  #states: readonly WorldState[] | null;
  readonly #changes: readonly Readonly<WorldState>[] | null;
  #final: WorldState | null = null;

  constructor(init: PlanInit) {
    this.actions = Object.freeze([...init.actions]);
    if (init.expectedStates !== undefined) {
      this.#states = Object.freeze([...init.expectedStates]);
      this.#changes = null;
    } else {
      const changes = init.stateChanges ?? [];
      if (changes.length !== this.actions.length) {
        throw new LangGoapError(
          "INVALID_STATE",
          `Plan: give expectedStates, or stateChanges with one entry per action (${this.actions.length}), got ${changes.length}`,
        );
      }
      this.#states = this.actions.length === 0 ? Object.freeze([]) : null;
      this.#changes = Object.freeze([...changes]);
    }
    this.startState = init.startState;
    this.totalCost = init.totalCost;
    this.score = init.score ?? new SimpleScore(init.totalCost);
    this.metadata = Object.freeze({ ...EMPTY_METADATA, ...init.metadata });
    Object.freeze(this);
  }

  /** The state after each action (built on first read when the plan was made from per-step changes). */
  get expectedStates(): readonly WorldState[] {
    if (this.#states === null) {
      const states: WorldState[] = [];
      let state: WorldState = { ...this.startState };
      for (const change of this.#changes ?? []) {
        state = { ...state, ...change };
        states.push(state);
      }
      this.#states = Object.freeze(states);
    }
    return this.#states;
  }

  /** An empty plan: the goal already holds. */
  static empty(startState?: WorldState, metadata: Partial<PlanMetadata> = {}): Plan {
    return new Plan({ actions: [], expectedStates: [], ...(startState ? { startState } : {}), totalCost: 0, metadata });
  }

  get actionNames(): string[] {
    return this.actions.map((a) => a.name);
  }

  get length(): number {
    return this.actions.length;
  }

  get isEmpty(): boolean {
    return this.actions.length === 0;
  }

  /** The expected state at the end (the start state for an empty plan). */
  get finalState(): WorldState {
    if (this.#states !== null) return this.#states[this.#states.length - 1] ?? this.startState ?? {};
    // From per-step changes: one pass over the changes, without building every state.
    if (this.#final === null) {
      const state: WorldState = { ...this.startState };
      for (const change of this.#changes ?? []) Object.assign(state, change);
      this.#final = state;
    }
    return this.#final;
  }

  /** The goal's value at the plan's final state minus the plan's cost. */
  netValue(goal: GoalSpec): number {
    return goal.resolveValue(this.finalState) - this.totalCost;
  }

  /** A copy with some fields replaced. */
  with(patch: Partial<PlanInit>): Plan {
    const states =
      this.#states !== null || patch.actions !== undefined
        ? { expectedStates: this.expectedStates }
        : { stateChanges: this.#changes ?? [] };
    return new Plan({
      actions: this.actions,
      ...(patch.expectedStates !== undefined || patch.stateChanges !== undefined ? {} : states),
      ...(this.startState ? { startState: this.startState } : {}),
      totalCost: this.totalCost,
      score: this.score,
      ...patch,
      metadata: { ...this.metadata, ...patch.metadata },
    });
  }

  toJSON(): Record<string, unknown> {
    return {
      actions: this.actionNames,
      totalCost: this.totalCost,
      score: String(this.score),
      expectedStates: this.expectedStates,
      metadata: this.metadata,
    };
  }

  toString(): string {
    return `Plan([${this.actionNames.join(", ")}], cost=${this.totalCost})`;
  }
}

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
  readonly planningTimeMs: number;
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

/** Options of `plan` / `planDetailed`. */
export interface PlanOptions {
  /**
   * Left out, the search is cost-optimal and picks by domain: on a boolean
   * domain of 32 to 1,000 actions `lmcut` from the start; on a smaller
   * boolean domain `hmax` (cheapest per state, as per-frame planning wants),
   * starting again with `lmcut` once the search passes `ESCALATE_AFTER`
   * (300) expansions; on a numeric domain whose facts change by `inc`/`dec`
   * `opcount` (hmax and an operator-counting linear program over numeric net
   * change, the larger); `hmax` otherwise, on domains of more than 1,000
   * actions, and when hmax at the start promises a plan of 500 steps or
   * more (a long plan needs that many expansions anyway, and LM-cut would
   * cost a cut per step). `plan.metadata.heuristic` says which found the
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
