import type { ActionSpec } from "../core/action.js";
import { LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import type { GoalSpec } from "../core/goal.js";
import type { Score } from "../core/score.js";
import { SimpleScore } from "../core/score.js";
import type { HeuristicName } from "./heuristics/registry.js";

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
