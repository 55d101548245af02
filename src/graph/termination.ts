import { describeValue, factOf, type HookContext, LangGoapError } from "../core/index.js";
import { type GoapState, runRecordCount } from "./state.js";

/**
 * Why a run should stop now. `error: false` marks a graceful stop (the run
 * ends `terminated` either way; history records it as `partial` rather
 * than `failed`).
 */
export interface EarlyTermination {
  readonly policyName: string;
  readonly reason: string;
  readonly error: boolean;
}

/**
 * Consulted by the observer before every routing decision; the first policy
 * that answers ends the run with status `terminated` and replan reason
 * `<policyName>: <reason>`. Sync or async: an async policy has the graph's
 * `hookTimeoutMs` to answer (its `context.signal` aborts then). A policy
 * that throws or does not answer in time is logged and skipped.
 *
 * @example
 * ```ts
 * const noNight: TerminationPolicy = {
 *   name: "NoNightPolicy",
 *   shouldTerminate: (s) => (s.worldState.is_night ? { policyName: "NoNightPolicy", reason: "it got dark", error: false } : null),
 * };
 * ```
 */
export interface TerminationPolicy {
  readonly name: string;
  shouldTerminate(
    state: Readonly<GoapState>,
    context?: HookContext,
  ): EarlyTermination | null | undefined | Promise<EarlyTermination | null | undefined>;
  /**
   * Optional, synchronous: how many more actions this policy lets the run
   * execute from `state` (undefined: no step limit). The planner passes the
   * smallest answer to its strategy as `stepsRemaining`, so a strategy that
   * weighs time (MCTS's `horizon`) plans for the steps really left. An
   * answer that is not a number >= 0, or a throw, is ignored.
   */
  stepsRemaining?(state: Readonly<GoapState>): number | undefined;
}

function positive(policy: string, field: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new LangGoapError("INVALID_OPTION", `${policy}: ${field} must be a finite number > 0, got ${describeValue(value)}`, {
      policy,
      field,
    });
  }
  return value;
}

function numericFact(state: Readonly<GoapState>, key: string): number {
  const value = factOf(state.worldState, key);
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}

/**
 * Stops after `maxActions` executed actions (successful or not).
 *
 * @example
 * ```ts
 * new MaxActionsPolicy(20);
 * ```
 */
export class MaxActionsPolicy implements TerminationPolicy {
  readonly maxActions: number;
  constructor(
    maxActions: number,
    readonly name = "MaxActionsPolicy",
  ) {
    this.maxActions = positive(name, "maxActions", maxActions);
  }

  shouldTerminate(state: Readonly<GoapState>): EarlyTermination | null {
    return runRecordCount(state) >= this.maxActions
      ? { policyName: this.name, reason: `Max actions of ${this.maxActions} reached`, error: true }
      : null;
  }

  /** The actions left before the limit: `maxActions` minus the run's executed actions. */
  stepsRemaining(state: Readonly<GoapState>): number {
    return Math.max(0, this.maxActions - runRecordCount(state));
  }
}

/**
 * The fewest actions any policy lets the run still execute (see
 * {@link TerminationPolicy.stepsRemaining}), or undefined when none limits
 * them. A policy that throws or answers nonsense is ignored here: the
 * observer still asks it whether to stop.
 * @internal
 */
export function stepsRemaining(policies: readonly TerminationPolicy[], state: Readonly<GoapState>): number | undefined {
  let fewest = Number.POSITIVE_INFINITY;
  for (const policy of policies) {
    let left: unknown;
    try {
      left = typeof policy.stepsRemaining === "function" ? policy.stepsRemaining(state) : undefined;
    } catch {
      continue;
    }
    if (typeof left === "number" && left >= 0 && left < fewest) fewest = Math.floor(left);
  }
  return Number.isFinite(fewest) ? fewest : undefined;
}

/**
 * Stops once the run has lasted `maxMs` milliseconds since its first
 * planning round (`wallClockStartedAt`, epoch ms, survives checkpoints).
 *
 * @example
 * ```ts
 * new MaxWallClockPolicy(60_000); // one minute
 * ```
 */
export class MaxWallClockPolicy implements TerminationPolicy {
  readonly name: string;
  readonly maxMs: number;
  readonly #now: () => number;

  constructor(
    maxMs: number,
    options: {
      /** @defaultValue "MaxWallClockPolicy" */ readonly name?: string;
      /** Clock in epoch ms. @defaultValue Date.now */ readonly now?: () => number;
    } = {},
  ) {
    this.name = options.name ?? "MaxWallClockPolicy";
    this.maxMs = positive(this.name, "maxMs", maxMs);
    this.#now = options.now ?? Date.now;
  }

  shouldTerminate(state: Readonly<GoapState>): EarlyTermination | null {
    if (state.wallClockStartedAt === null || state.wallClockStartedAt === undefined) return null;
    const elapsed = this.#now() - state.wallClockStartedAt;
    return elapsed >= this.maxMs
      ? {
          policyName: this.name,
          reason: `Wall-clock budget of ${(this.maxMs / 1000).toFixed(3)}s exceeded (elapsed=${(elapsed / 1000).toFixed(3)}s)`,
          error: true,
        }
      : null;
  }
}

/** A budget on a numeric world-state fact that callbacks accumulate (cost, tokens, LLM calls). */
abstract class FactBudgetPolicy implements TerminationPolicy {
  readonly limit: number;
  constructor(
    limit: number,
    readonly name: string,
    private readonly key: string,
  ) {
    this.limit = positive(name, "limit", limit);
  }

  protected abstract describe(spent: number): string;

  shouldTerminate(state: Readonly<GoapState>): EarlyTermination | null {
    const spent = numericFact(state, this.key);
    return spent >= this.limit ? { policyName: this.name, reason: this.describe(spent), error: true } : null;
  }
}

/**
 * Stops when `worldState.total_cost_usd` reaches `usd`.
 *
 * @example
 * ```ts
 * new MaxCostPolicy(2); // two dollars
 * ```
 */
export class MaxCostPolicy extends FactBudgetPolicy {
  constructor(usd: number, name = "MaxCostPolicy") {
    super(usd, name, "total_cost_usd");
  }
  protected describe(spent: number): string {
    return `Cost budget of $${this.limit.toFixed(4)} exceeded (spent=$${spent.toFixed(4)})`;
  }
}

/**
 * Stops when `worldState.total_tokens` reaches `tokens`.
 *
 * @example
 * ```ts
 * new MaxTokensPolicy(50_000);
 * ```
 */
export class MaxTokensPolicy extends FactBudgetPolicy {
  constructor(tokens: number, name = "MaxTokensPolicy") {
    super(tokens, name, "total_tokens");
  }
  protected describe(spent: number): string {
    return `Token budget of ${this.limit} exceeded (used=${spent})`;
  }
}

/**
 * Stops when `worldState.llm_call_count` reaches `maxCalls`.
 *
 * @example
 * ```ts
 * new MaxLLMCallsPolicy(30);
 * ```
 */
export class MaxLLMCallsPolicy extends FactBudgetPolicy {
  constructor(maxCalls: number, name = "MaxLLMCallsPolicy") {
    super(maxCalls, name, "llm_call_count");
  }
  protected describe(spent: number): string {
    return `LLM call budget of ${this.limit} exceeded (calls=${spent})`;
  }
}

/**
 * Ends a run gracefully (`error: false`) when planning found no plan.
 *
 * @example
 * ```ts
 * new GoapGraph(actions, { terminationPolicies: [new OnStuckPolicy()] });
 * ```
 */
export class OnStuckPolicy implements TerminationPolicy {
  constructor(readonly name = "OnStuckPolicy") {}

  shouldTerminate(state: Readonly<GoapState>): EarlyTermination | null {
    return state.status === "no_plan" ? { policyName: this.name, reason: "Agent process stuck — no plan available", error: false } : null;
  }
}

function checkPolicies(owner: string, policies: readonly TerminationPolicy[]): readonly TerminationPolicy[] {
  if (policies.length === 0) throw new LangGoapError("INVALID_OPTION", `${owner}: give at least one policy`);
  policies.forEach((p, i) => {
    if (typeof p?.shouldTerminate !== "function") {
      throw new LangGoapError("INVALID_OPTION", `${owner}: policies[${i}] has no shouldTerminate(state) method`);
    }
  });
  return Object.freeze([...policies]);
}

/**
 * Fires with the first child policy that fires, in declaration order.
 *
 * @example
 * ```ts
 * new FirstOfPolicy(new MaxCostPolicy(1), new MaxActionsPolicy(50));
 * ```
 */
export class FirstOfPolicy implements TerminationPolicy {
  readonly name: string;
  readonly policies: readonly TerminationPolicy[];
  constructor(...policies: TerminationPolicy[]) {
    this.policies = checkPolicies("FirstOfPolicy", policies);
    this.name = `FirstOf(${this.policies.map((p) => p.name).join(", ")})`;
  }

  async shouldTerminate(state: Readonly<GoapState>, context?: HookContext): Promise<EarlyTermination | null> {
    for (const policy of this.policies) {
      const decision = await policy.shouldTerminate(state, context);
      if (decision) return decision;
    }
    return null;
  }
}

/**
 * Fires only when every child fires; the reasons are joined with `; ` and
 * the stop is an error when any child's is.
 *
 * @example
 * ```ts
 * new AllOfPolicy(new MaxActionsPolicy(10), new MaxCostPolicy(0.5));
 * ```
 */
export class AllOfPolicy implements TerminationPolicy {
  readonly name: string;
  readonly policies: readonly TerminationPolicy[];
  constructor(...policies: TerminationPolicy[]) {
    this.policies = checkPolicies("AllOfPolicy", policies);
    this.name = `AllOf(${this.policies.map((p) => p.name).join(", ")})`;
  }

  async shouldTerminate(state: Readonly<GoapState>, context?: HookContext): Promise<EarlyTermination | null> {
    const decisions: EarlyTermination[] = [];
    for (const policy of this.policies) {
      const decision = await policy.shouldTerminate(state, context);
      if (!decision) return null;
      decisions.push(decision);
    }
    return { policyName: this.name, reason: decisions.map((d) => d.reason).join("; "), error: decisions.some((d) => d.error) };
  }
}
