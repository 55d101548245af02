/**
 * @internal What crosses the thread boundary between a {@link PlannerPool}
 * and its workers: plain, structured-cloneable data only. Actions travel as
 * their planning data (name, preconditions, effects, cost, canRerun), once
 * per worker and domain; plans come back as action names and per-step
 * changes, and are rebuilt on the caller's side with the caller's own specs.
 */
import type { Conditions, Effects, LangGoapErrorCode, WorldState } from "../core/index.js";
import type { BudgetExhaustion, HeuristicName, PlanMetadata, SearchStats, SearchStatus } from "../planner/index.js";

/** One action as the planner sees it. */
export interface ActionData {
  readonly name: string;
  readonly preconditions: Conditions;
  readonly effects: Effects;
  readonly cost: number;
  readonly canRerun: boolean;
}

/** The plan options that change a search and can be copied (no signal, no tracer). */
export interface WireOptions {
  readonly heuristic?: HeuristicName;
  readonly weight?: number;
  readonly maxExpansions?: number;
  readonly maxNodes?: number;
  readonly timeBudgetMs?: number;
  readonly blacklisted?: readonly string[];
  readonly blacklistFallback?: boolean;
  readonly prune?: boolean;
  readonly relevance?: boolean;
}

export interface WireProblem {
  readonly start: WorldState;
  readonly goal: Conditions;
  readonly options: WireOptions;
}

/**
 * Per-problem cancel flags live in a shared `Int32Array`: the caller and the
 * worker move each slot with compare-and-swap, so an abort either wins
 * before the worker starts the problem (the caller answers at once) or
 * reaches the running search within one slice.
 */
export const FLAG = Object.freeze({ QUEUED: 0, CANCELLED: 1, RUNNING: 2, ABORT_REQUESTED: 3, DONE: 4 });

export interface WireTask {
  readonly domainKey: string;
  /** Null until the worker has said it does not hold the domain. */
  readonly domain: readonly ActionData[] | null;
  readonly problems: readonly WireProblem[];
  /** One slot per problem; null when no problem of the batch has a signal. */
  readonly flags: Int32Array | null;
}

export interface WirePlan {
  readonly actionNames: readonly string[];
  /** What each step changed (keys whose value differs from the state before it). */
  readonly changes: readonly WorldState[];
  readonly totalCost: number;
  readonly metadata: PlanMetadata;
}

export type WireResult =
  | {
      readonly kind: "ok";
      readonly status: SearchStatus;
      readonly stats: SearchStats;
      readonly usedBlacklistFallback: boolean;
      readonly plan: WirePlan | null;
      readonly budget?: BudgetExhaustion;
    }
  | { readonly kind: "cancelled" }
  | {
      readonly kind: "error";
      readonly code: LangGoapErrorCode | null;
      readonly message: string;
      readonly details: Record<string, unknown>;
    };

export type WireReply = { readonly kind: "need_domain" } | { readonly kind: "results"; readonly results: readonly WireResult[] };
