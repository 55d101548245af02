import { END, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { type ActionSpec, type GoalSpec, isTimeoutError, MultiGoal, type ReplanStrategy } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { copyData } from "./copy-state.js";
import { activeGoal } from "./goal-planning.js";
import type { ExecutionHistory } from "./history/index.js";
import { buildExecutionRecord, historyOf, recordExecution, storeStepBlocks } from "./history-record.js";
import { errorMessage } from "./logger.js";
import { deviatesFromPlan } from "./plan-data.js";
import { runIdentity } from "./run-identity.js";
import { DEFAULT_GOAP_RECURSION_LIMIT, runLimitReached } from "./run-limit.js";
import { type GoapNodeOptions, NodeRuntime } from "./runtime.js";
import {
  type GoapState,
  type GoapStateUpdate,
  type GoapStatus,
  IMMEDIATE_BLACKLIST,
  NEVER_READMITTED,
  type ObserverTarget,
  PLANLESS_STATUSES,
  TERMINAL_STATUSES,
} from "./state.js";
import { emitEvent } from "./stream-events.js";
import type { EarlyTermination, TerminationPolicy } from "./termination.js";

export type { ObserverTarget } from "./state.js";

/**
 * The observer's conditional edge: the node it decided on (`nextNode`). A
 * state that carries no decision (edited before any observer ran) ends
 * when its status is terminal, plans when it has no plan, and otherwise
 * runs the next step, whose executor replans if the world has changed.
 *
 * @example
 * ```ts
 * builder.addConditionalEdges("observer", routeAfterObserver, ["planner", "executor", END]);
 * ```
 */
export function routeAfterObserver(state: Pick<GoapState, "nextNode" | "status" | "plan">): ObserverTarget {
  if (state.nextNode) return state.nextNode;
  if (TERMINAL_STATUSES.has(state.status)) return END;
  return state.plan ? "executor" : "planner";
}

/** Options of {@link GoapObserver}. */
export interface GoapObserverOptions extends GoapNodeOptions {
  /** Consulted first at every decision; the first that fires ends the run `terminated`. @defaultValue [] */
  readonly terminationPolicies?: readonly TerminationPolicy[];
  /** Receives an {@link ExecutionRecord} at every terminal state. @defaultValue the run's store (`config.store`), if any; `false` for none */
  readonly history?: ExecutionHistory | false;
  /** A run's superstep allowance beyond twice its plan's length (see {@link DEFAULT_GOAP_RECURSION_LIMIT}). @defaultValue 10,000 */
  readonly recursionLimit?: number;
}

/** Where the executor's conditional edge sends a run: the observer, or straight on to the next step. */
export type ExecutorTarget = "observer" | "executor";

const GOAP_OBSERVER_OPTIONS_KEYS = {
  terminationPolicies: true,
  history: true,
  recursionLimit: true,
  tracer: true,
  logger: true,
  goalRegistry: true,
  now: true,
  observerTimeoutMs: true,
  hookTimeoutMs: true,
  observerLimits: true,
} as const satisfies OptionKeys<GoapObserverOptions>;

/**
 * The `observer` node: decides after executed steps and writes the
 * decision to `nextNode`, which the node's conditional edge follows (so an
 * `updateState` made as the observer routes the same way). In order: termination policies; a missing goal; a
 * question the executor announced (`awaiting_human`: back to the executor, which asks it); an executor error; the goal (for a MultiGoal, the current subgoal: a
 * sequential one moves on to the next subgoal); no plan; a failed action
 * (counted, blacklisted past `maxRetries`, then replanned unless the policy
 * is `never`); `every_action` replanning; deviation from the plan's
 * expected state; the next step; an exhausted plan. Every replan is charged
 * to the goal's `maxReplans` budget. Terminal states notify the tracer and
 * write an execution record. A step after which there is nothing to decide
 * (see {@link GoapObserver.routeAfterExecutor}) goes straight on to the
 * next one, without an observer superstep.
 *
 * @example
 * ```ts
 * const observer = new GoapObserver(actions, { terminationPolicies: [new MaxActionsPolicy(20)] });
 * builder
 *   .addNode("observer", (state, config) => observer.run(state, config))
 *   .addConditionalEdges("observer", routeAfterObserver, ["planner", "executor", END]);
 * ```
 */
export class GoapObserver {
  protected readonly runtime: NodeRuntime;
  readonly #policies: readonly TerminationPolicy[];
  readonly #history: ExecutionHistory | false | undefined;
  readonly #allowance: number;

  constructor(actions: readonly ActionSpec[], options: GoapObserverOptions = {}) {
    checkOptionKeys(options, GOAP_OBSERVER_OPTIONS_KEYS, "new GoapObserver()");
    this.runtime = new NodeRuntime(actions, options);
    this.#policies = Object.freeze([...(options.terminationPolicies ?? [])]);
    this.#history = options.history;
    this.#allowance = options.recursionLimit ?? DEFAULT_GOAP_RECURSION_LIMIT;
  }

  /** Decides where the run goes after `state`. */
  async run(state: GoapState, config?: LangGraphRunnableConfig): Promise<GoapStateUpdate> {
    const termination = await this.#checkTermination(state, config?.signal);
    if (termination) {
      return this.#end(state, config, "terminated", `${termination.policyName}: ${termination.reason}`, {}, termination.error);
    }
    if (!state.goal) return this.#end(state, config, "error", "no goal specified");
    const outgrown = runLimitReached(state, this.#allowance);
    if (outgrown) return this.#end(state, config, "terminated", outgrown);
    // The executor announced a question for a human: it asks it now (the run pauses there).
    if (state.status === "awaiting_human") return this.#goto("executor", {});
    if (state.status === "error") return this.#end(state, config, "error", state.replanReason ?? "error");

    const goal = this.runtime.goals.restore(state.goal);
    const current = activeGoal(goal, state.currentSubgoalIndex);
    if (goal instanceof MultiGoal && state.currentSubgoalIndex >= goal.goals.length) return this.#achieved(state, config);
    if (current.isSatisfied(state.worldState)) {
      if (goal instanceof MultiGoal && goal.mode === "sequential" && state.currentSubgoalIndex < goal.goals.length - 1) {
        return this.#goto("planner", {
          currentSubgoalIndex: state.currentSubgoalIndex + 1,
          plan: null,
          currentStep: 0,
          replanReason: "subgoal_achieved",
          replanCount: 0,
          blacklistedActions: [],
          actionFailureCounts: {},
          readmittedActions: [],
        });
      }
      return this.#achieved(state, config);
    }
    if (PLANLESS_STATUSES.has(state.status)) return this.#end(state, config, state.status, state.replanReason);
    // The planner found that only exhausted actions lead on.
    if (state.status === "failed") return this.#end(state, config, "failed", state.replanReason);

    const strategy: ReplanStrategy = current.policy.replanStrategy;
    if (state.status === "action_failed") {
      if (strategy === "never") return this.#end(state, config, "failed", "action_failed");
      return this.#replan(state, config, current, "action_failed", this.#countFailures(state));
    }
    if (strategy === "every_action") return this.#replan(state, config, current, "every_action_replan");
    if (strategy === "on_deviation" && this.#deviates(state, current)) return this.#replan(state, config, current, "state_deviation");
    if (state.plan && state.currentStep < state.plan.actions.length) return this.#next(state);
    if (strategy === "never") return this.#end(state, config, "failed", "plan_exhausted");
    return this.#replan(state, config, current, "plan_exhausted");
  }

  /**
   * The executor's conditional edge: `"executor"` when this observer, run on
   * `state` (what an executor step left), would only send the run on to its
   * next step and write nothing, so the step's superstep goes straight on;
   * `"observer"` otherwise. Nothing to decide means: no termination policy
   * (policies are consulted after every step), the step succeeded (status
   * `executing`), the goal (or current subgoal) does not hold, replanning
   * is not due (`every_action`, or a deviation from the plan under
   * `on_deviation`), the plan has steps left, the run is within its
   * superstep allowance, and the observer's own edge would send a state
   * without its decision to the executor too (so `updateState` as the
   * observer routes the same way from either checkpoint).
   *
   * @example
   * ```ts
   * builder.addConditionalEdges("executor", (state) => observer.routeAfterExecutor(state), ["executor", "observer"]);
   * ```
   */
  routeAfterExecutor(state: GoapState): ExecutorTarget {
    return this.#movesOn(state) ? "executor" : "observer";
  }

  #movesOn(state: GoapState): boolean {
    if (this.#policies.length > 0 || state.status !== "executing" || !state.goal) return false;
    if (!state.plan || state.currentStep >= state.plan.actions.length || routeAfterObserver(state) !== "executor") return false;
    if (runLimitReached(state, this.#allowance)) return false;
    const goal = this.runtime.goals.restore(state.goal);
    if (goal instanceof MultiGoal && state.currentSubgoalIndex >= goal.goals.length) return false;
    const current = activeGoal(goal, state.currentSubgoalIndex);
    if (current.isSatisfied(state.worldState)) return false;
    const strategy = current.policy.replanStrategy;
    return strategy !== "every_action" && !(strategy === "on_deviation" && this.#deviates(state, current));
  }

  /** The first policy that fires; one that throws or does not answer within the hook time limit is skipped with a warning. */
  async #checkTermination(state: GoapState, signal: AbortSignal | undefined): Promise<EarlyTermination | null> {
    for (const policy of this.#policies) {
      try {
        const decision = await this.runtime.callHook(
          `termination policy "${policy.name}"`,
          (own) => policy.shouldTerminate(copyData(state), { signal: own }),
          signal,
        );
        if (decision) return decision;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        const what = isTimeoutError(error)
          ? `timed out and was skipped: ${error.message}`
          : `threw and was skipped: ${errorMessage(error)}`;
        this.runtime.logger.warn(`termination policy "${policy.name}" ${what}`, { policy: policy.name });
      }
    }
    return null;
  }

  /** Failure counts and blacklist after the latest executor step. */
  #countFailures(state: GoapState): GoapStateUpdate {
    const counts = { ...state.actionFailureCounts };
    const blacklist = [...state.blacklistedActions];
    const readmitted = [...state.readmittedActions];
    const latest = state.lastStepResultCount > 0 ? state.executionHistory.slice(-state.lastStepResultCount) : [];
    for (const result of latest) {
      if (result.success || result.failure === "aborted") continue;
      const action = this.runtime.actionsByName.get(result.actionName);
      if (!action) continue;
      const immediate = result.failure !== null && IMMEDIATE_BLACKLIST.has(result.failure);
      counts[action.name] = immediate ? action.maxRetries + 1 : (counts[action.name] ?? 0) + 1;
      if ((counts[action.name] as number) > action.maxRetries && !blacklist.includes(action.name)) blacklist.push(action.name);
      const unforgivable = result.failure !== null && NEVER_READMITTED.has(result.failure);
      if (unforgivable && !readmitted.includes(action.name)) readmitted.push(action.name);
    }
    return { actionFailureCounts: counts, blacklistedActions: blacklist, readmittedActions: readmitted };
  }

  /** True when the world differs, on planning keys, from what the plan expects before its next step. */
  #deviates(state: GoapState, goal: GoalSpec): boolean {
    return state.plan !== null && deviatesFromPlan(state.worldState, state.plan, state.currentStep, this.runtime.planningKeys(goal));
  }

  async #replan(
    state: GoapState,
    config: LangGraphRunnableConfig | undefined,
    goal: GoalSpec,
    reason: string,
    extra: GoapStateUpdate = {},
  ): Promise<GoapStateUpdate> {
    const max = goal.policy.maxReplans;
    if (max > 0 && state.replanCount >= max) return this.#end(state, config, "failed", `max_replans_exceeded (${max})`, extra);
    return this.#goto("planner", { replanReason: reason, ...extra });
  }

  /** The end of a run whose goal holds: `partially_achieved` when subgoals were skipped on the way, naming them. */
  #achieved(state: GoapState, config: LangGraphRunnableConfig | undefined): Promise<GoapStateUpdate> {
    const skipped = state.skippedSubgoals ?? [];
    if (skipped.length === 0) return this.#end(state, config, "goal_achieved", null);
    const names = skipped.map((s) => `${s.index} (${s.goal}): ${s.reason}`).join("; ");
    return this.#end(state, config, "partially_achieved", `skipped subgoal${skipped.length > 1 ? "s" : ""} ${names}`);
  }

  #goto(target: "planner" | "executor", update: GoapStateUpdate): GoapStateUpdate {
    return { ...update, nextNode: target };
  }

  /** On to the next step: nothing is written when the run was already headed there (most steps). */
  #next(state: GoapState): GoapStateUpdate {
    return state.nextNode === "executor" ? {} : { nextNode: "executor" };
  }

  async #end(
    state: GoapState,
    config: LangGraphRunnableConfig | undefined,
    status: GoapStatus,
    reason: string | null,
    extra: GoapStateUpdate = {},
    terminationIsError = true,
  ): Promise<GoapStateUpdate> {
    if (status === "goal_achieved") await this.runtime.trace("onGoalAchieved", state.worldState);
    // The planner already reported a missing plan when it happened.
    else if (!PLANLESS_STATUSES.has(status)) await this.runtime.trace("onPlanFailed", reason ?? status, 0);
    emitEvent(config, { kind: "finish", status, reason });
    const history = historyOf(this.#history, config);
    // The run's last records (the blocks before them were stored as they filled up).
    await storeStepBlocks(history, state, [], true, config, this.runtime);
    if (state.goal && history) {
      let goal: GoalSpec | null = null;
      try {
        goal = activeGoal(this.runtime.goals.restore(state.goal), state.currentSubgoalIndex);
      } catch (error) {
        this.runtime.logger.warn(`execution history skipped: the goal could not be restored: ${errorMessage(error)}`);
      }
      if (goal) {
        const identity = runIdentity(config, state.runId);
        const record = buildExecutionRecord(
          { ...state, ...(extra as Partial<GoapState>) },
          goal,
          status,
          this.runtime,
          terminationIsError,
          identity,
        );
        await recordExecution(history, record, this.runtime);
      }
    }
    return { status, replanReason: reason, ...extra, nextNode: END };
  }
}
