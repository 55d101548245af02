import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { type ActionSpec, checkTimeout, createRng, type Rng, type WorldState } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { randomUuid } from "../core/uuid.js";
import { copyState } from "./copy-state.js";
import { type FactTypes, factTypesOfRun } from "./fact-values.js";
import { activeGoal } from "./goal-planning.js";
import { type ActionGuard, hasBlockingFailure, runGuards } from "./guards.js";
import type { ExecutionHistory } from "./history/index.js";
import { historyOf, storeStepBlocks } from "./history-record.js";
import { foldLeavingRecords } from "./history-window.js";
import { askHuman, standingAnswers } from "./human-approval.js";
import { sameJson } from "./json.js";
import { errorMessage } from "./logger.js";
import { deviatesFromPlan } from "./plan-data.js";
import { type ActionOutcome, type ExecutionTransitionModel, runAction, type Sleep, timerSleep } from "./run-action.js";
import { type GoapNodeOptions, NodeRuntime } from "./runtime.js";
import {
  type ActionFailureKind,
  type ActionResult,
  type AwaitingHuman,
  type GoapState,
  type GoapStateUpdate,
  PLANLESS_STATUSES,
  runRecordCount,
} from "./state.js";
import { invocationId, recoveryTicketFor, StepJournal, taskCheckpoint } from "./step-journal.js";
import { emitEvent } from "./stream-events.js";

/** Options of {@link GoapExecutor}. */
export interface GoapExecutorOptions extends GoapNodeOptions {
  /** Checks run before each action: `warn` failures are logged, `block` failures blacklist the action. @defaultValue [] */
  readonly guards?: readonly ActionGuard[];
  /** Samples outcomes of actions whose `execute` returns nothing. @defaultValue the declared effects */
  readonly transitionModel?: ExecutionTransitionModel;
  /** How QoS backoff waits. @defaultValue a `setTimeout` sleep */
  readonly sleep?: Sleep;
  /** Time limit of one attempt of an action whose QoS sets no `timeoutMs` (`Infinity` for none). @defaultValue {@link DEFAULT_ACTION_TIMEOUT_MS} */
  readonly actionTimeoutMs?: number;
  /**
   * Receives each block of 256 records as a run fills it (`recordSteps`),
   * so long runs can be read back whole. @defaultValue the run's store (`config.store`), if any; `false` for none
   */
  readonly history?: ExecutionHistory | false;
}

/** Time limit of one action attempt unless its QoS or the graph says otherwise: 5 minutes. */
export const DEFAULT_ACTION_TIMEOUT_MS = 300_000;

const GOAP_EXECUTOR_OPTIONS_KEYS = {
  guards: true,
  transitionModel: true,
  sleep: true,
  actionTimeoutMs: true,
  history: true,
  tracer: true,
  logger: true,
  goalRegistry: true,
  now: true,
  observerTimeoutMs: true,
  hookTimeoutMs: true,
  observerLimits: true,
} as const satisfies OptionKeys<GoapExecutorOptions>;

/**
 * The `executor` node: runs the plan's next step. A world changed since
 * the plan was made (an `updateState` between steps) runs nothing, and the
 * observer replans. Otherwise it checks guards and, for actions that
 * require it, asks a human through LangGraph's `interrupt()`; with a
 * checkpointer it then claims the step (so two invocations continuing the
 * thread from one checkpoint never both run it, and a step re-run after a
 * crash is told so through `stepAttempt`); then it executes with the
 * action's QoS retries and a stable `idempotencyKey`, applies the result
 * rule and the effect validator, and appends an {@link ActionResult}.
 * Actions are re-bound by name, so plans restored from checkpoints run.
 *
 * @example
 * ```ts
 * const executor = new GoapExecutor(actions, { guards: [budgetGuard] });
 * builder.addNode("executor", (state, config) => executor.run(state, config));
 * ```
 */
export class GoapExecutor {
  protected readonly runtime: NodeRuntime;
  readonly #guards: readonly ActionGuard[];
  readonly #transitionModel: ExecutionTransitionModel | undefined;
  readonly #sleep: Sleep;
  readonly #timeoutMs: number;
  readonly #history: ExecutionHistory | false | undefined;

  constructor(actions: readonly ActionSpec[], options: GoapExecutorOptions = {}) {
    checkOptionKeys(options, GOAP_EXECUTOR_OPTIONS_KEYS, "new GoapExecutor()");
    this.runtime = new NodeRuntime(actions, options);
    this.#guards = Object.freeze([...(options.guards ?? [])]);
    this.#transitionModel = options.transitionModel;
    this.#sleep = options.sleep ?? timerSleep;
    this.#timeoutMs =
      options.actionTimeoutMs === undefined ? DEFAULT_ACTION_TIMEOUT_MS : checkTimeout(options.actionTimeoutMs, "actionTimeoutMs");
    this.#history = options.history;
  }

  /** The live actions by name (plans are re-bound through this). */
  get actionsByName(): ReadonlyMap<string, ActionSpec> {
    return this.runtime.actionsByName;
  }

  /** Plan steps to run together from `start`: just `start` here; {@link ParallelGoapExecutor} widens it. */
  protected selectWave(_actions: readonly ActionSpec[], start: number): number[] {
    return [start];
  }

  /** Runs the next step (or wave) of the plan in `state`. */
  async run(state: GoapState, config?: LangGraphRunnableConfig): Promise<GoapStateUpdate> {
    const update = await this.#step(state, config);
    const added = update.executionHistory as ActionResult[] | undefined;
    // Blocks this step filled are stored before the window lets go of them (after a crash the step runs again and rewrites them).
    if (added)
      await storeStepBlocks(
        historyOf(this.#history, config),
        state,
        added,
        false,
        config,
        this.runtime,
        state.runId ?? (update.runId as string | undefined),
      );
    return update;
  }

  async #step(state: GoapState, config?: LangGraphRunnableConfig): Promise<GoapStateUpdate> {
    // Nothing to run: no plan was found, planning ended the run (an error, or only exhausted actions lead on), or the goal already holds.
    if (PLANLESS_STATUSES.has(state.status) || state.status === "error" || state.status === "failed" || state.plan?.actions.length === 0)
      return { lastStepResultCount: 0 };
    const step = state.currentStep;
    if (!state.plan || step < 0 || step >= state.plan.actions.length) return this.#nothingToRun(state);
    // The world changed since the plan was made (an updateState between steps): run nothing; the observer replans.
    if (this.#worldChanged(state)) return { lastStepResultCount: 0 };

    const plan = this.runtime.plan(state.plan);
    const wave = this.selectWave(plan.actions, step);
    const actions = wave.map((i) => plan.actions[i] as ActionSpec);
    // Every executor step appends to the history, so its length names the step within the run.
    const position = runRecordCount(state);
    // The planner names every run; a run planned elsewhere is named by this step's checkpoint (stable when it runs again).
    const runId = state.runId ?? taskCheckpoint(config)?.checkpointId ?? randomUuid();
    const claims = StepJournal.forTask(config, runId);
    const journal = claims?.journal;
    const stepRef = { position, checkpoint: claims?.checkpoint ?? "" };
    const ticket = journal ? recoveryTicketFor(config, runId, stepRef) : null;
    // A retry runs on the answer its first attempt got; a recovery finishes the step with the answers the stopped invocation acted on.
    const presets = { ...standingAnswers(actions, state), ...(ticket && journal ? await journal.answers(stepRef) : {}) };
    // A question is announced in state first (status awaiting_human, naming it) and asked on the next pass: an interrupted node writes nothing.
    const question = firstQuestion(actions, presets);
    if (question && !(state.status === "awaiting_human" && state.awaitingHuman?.action === question.action)) {
      return { status: "awaiting_human", awaitingHuman: question, lastStepResultCount: 0 };
    }
    const humanInput = { ...state.humanInput };
    const cleared = await this.#preflight(actions, state.worldState, humanInput, presets, config?.signal);
    const answers: Record<string, unknown> = {};
    for (const action of actions)
      if (action.requireHumanApproval !== false && action.name in humanInput) answers[action.name] = humanInput[action.name];
    const label = actions.map((a) => `"${a.name}"`).join(", ");
    const claim = journal
      ? await journal.claim(stepRef, answers, { ticket, invocation: invocationId(config) }, label)
      : { slot: 1, stepAttempt: 1, crashes: 0 };
    if (!cleared.ok) return this.#failed(state, [cleared.refusal], humanInput);
    const keys = actions.map((action, i) => idempotencyKey(runId, position + i, action, stepRef.checkpoint));
    if (claim.crashes >= 2) return this.#failed(state, await this.#crashed(actions, cleared.world, keys), humanInput);

    const rng = createRng(state.rngState);
    let outcomes: ActionOutcome[];
    try {
      outcomes = await this.#runWave(actions, cleared.world, rng, factTypesOfRun(this.runtime, state.goal), config, {
        keys,
        stepAttempt: claim.stepAttempt,
      });
    } catch (error) {
      // This invocation stops alive (an interrupt inside execute, a run error): the step may start again without a recovery.
      if (journal) await journal.release(stepRef, claim.slot).catch((e: unknown) => this.#releaseFailed(e));
      throw error;
    }
    const results = outcomes.map((o) => o.result);
    const failed = results.some((r) => !r.success);
    // Successful actions really happened, even in a failed wave: their changes are kept.
    let merged: WorldState = failed ? { ...state.worldState } : cleared.world;
    for (const outcome of outcomes) if (outcome.state) merged = applyDelta(merged, cleared.world, outcome.state);
    // Bookkeeping that stays put (most steps) is not written again: each write is stored and applied. The status is, as the `updates` stream shows it.
    return {
      worldState: merged,
      currentStep: failed ? step : (wave[wave.length - 1] as number) + 1,
      status: failed ? "action_failed" : "executing",
      executionHistory: results,
      rngState: rng.state(),
      ...(state.lastStepResultCount === results.length ? {} : { lastStepResultCount: results.length }),
      ...(sameAnswers(state.humanInput, humanInput) ? {} : { humanInput }),
      ...(state.runId ? {} : { runId }),
      ...(state.awaitingHuman ? { awaitingHuman: null } : {}),
      ...foldLeavingRecords(state, results, this.runtime.actionsByName),
    };
  }

  /** True when the world differs, on planning keys, from what the plan expects before this step (never under a `never` policy). */
  #worldChanged(state: GoapState): boolean {
    if (!state.goal || !state.plan) return false;
    const goal = activeGoal(this.runtime.goals.restore(state.goal), state.currentSubgoalIndex);
    if (goal.policy.replanStrategy === "never") return false;
    return deviatesFromPlan(state.worldState, state.plan, state.currentStep, this.runtime.planningKeys(goal));
  }

  /** Results for a step two stopped processes left unfinished: it is not started a third time. */
  async #crashed(actions: readonly ActionSpec[], world: WorldState, keys: readonly string[]): Promise<ActionResult[]> {
    return Promise.all(
      actions.map((action, i) =>
        this.#refuse(
          action,
          world,
          "crashed",
          `crashed: action "${action.name}" was running when its process stopped, twice (idempotency key ${keys[i]}); it is not started a third time`,
        ),
      ),
    );
  }

  #releaseFailed(error: unknown): void {
    this.runtime.logger.warn(
      `the step claim could not be released: ${errorMessage(error)}; continue the thread with graph.recover(config)`,
    );
  }

  /**
   * Guards for every action of the wave, then human approvals (each an
   * interrupt on the first pass, or a preset answer), all before anything
   * runs. Form answers are written into the world the wave starts from;
   * every answer is recorded in `humanInput`.
   */
  async #preflight(
    actions: readonly ActionSpec[],
    worldState: WorldState,
    humanInput: Record<string, unknown>,
    presets: Readonly<Record<string, unknown>>,
    signal: AbortSignal | undefined,
  ): Promise<{ ok: true; world: WorldState } | { ok: false; refusal: ActionResult }> {
    // The run's world is never changed in place (actions and hooks get copies): it is only copied when a form answer goes in.
    let world: WorldState = worldState;
    for (const action of actions) {
      const refusal = await this.#checkGuards(action, world, signal);
      if (refusal) return { ok: false, refusal };
    }
    for (const action of actions) {
      const decision = askHuman(action, world, action.name in presets ? { answer: presets[action.name] } : undefined);
      if (decision.input !== undefined) humanInput[action.name] = decision.input;
      if (!decision.approved) return { ok: false, refusal: await this.#refuse(action, world, decision.failure, decision.error) };
      if (typeof action.requireHumanApproval === "object") world = { ...world, [action.humanInputKey ?? action.name]: decision.input };
    }
    return { ok: true, world };
  }

  /**
   * Runs the wave's actions concurrently, each on `world` with its own
   * generator forked in plan order (so results do not depend on timing). The
   * first failure aborts the siblings' signal; so does cancelling the run.
   */
  async #runWave(
    actions: readonly ActionSpec[],
    world: WorldState,
    rng: Rng,
    factTypes: FactTypes,
    config: LangGraphRunnableConfig | undefined,
    step: { readonly keys: readonly string[]; readonly stepAttempt: number },
  ): Promise<ActionOutcome[]> {
    const rngs = actions.map(() => rng.fork());
    const waveAbort = new AbortController();
    const abort = () => waveAbort.abort();
    config?.signal?.addEventListener("abort", abort, { once: true });
    try {
      return await Promise.all(
        actions.map(async (action, i) => {
          const outcome = await runAction(action, world, {
            runtime: this.runtime,
            rng: rngs[i] as Rng,
            sleep: this.#sleep,
            transitionModel: this.#transitionModel,
            signal: waveAbort.signal,
            config,
            factTypes,
            timeoutMs: this.#timeoutMs,
            idempotencyKey: step.keys[i] as string,
            stepAttempt: step.stepAttempt,
          });
          if (!outcome.result.success) waveAbort.abort();
          const { success, error } = outcome.result;
          emitEvent(config, { kind: "action", actionName: action.name, success, error });
          return outcome;
        }),
      );
    } finally {
      config?.signal?.removeEventListener("abort", abort);
    }
  }

  async #checkGuards(action: ActionSpec, world: WorldState, signal: AbortSignal | undefined): Promise<ActionResult | null> {
    if (this.#guards.length === 0) return null;
    const verdicts = await runGuards(this.#guards, action, copyState(world), { timeoutMs: this.runtime.hookTimeoutMs, signal });
    for (const v of verdicts) {
      if (!v.passed && v.severity === "warn") {
        this.runtime.logger.warn(`guard "${v.guard}" warned about action "${action.name}": ${v.message}`, {
          action: action.name,
          guard: v.guard,
        });
      }
    }
    if (!hasBlockingFailure(verdicts)) return null;
    const messages = verdicts.filter((v) => !v.passed && v.severity === "block").map((v) => `${v.guard}: ${v.message}`);
    return this.#refuse(action, world, "guard_blocked", `guard_blocked: ${messages.join("; ")}`);
  }

  /** Records an action that was refused before it ran (tracer start and complete fire as a pair). */
  async #refuse(action: ActionSpec, world: WorldState, failure: ActionFailureKind, error: string): Promise<ActionResult> {
    await this.runtime.trace("onActionStart", action, world);
    const result: ActionResult = {
      actionName: action.name,
      success: false,
      stateBefore: { ...world },
      stateAfter: { ...world },
      error,
      failure,
      attempts: 0,
      durationMs: 0,
    };
    await this.runtime.trace("onActionComplete", result);
    return result;
  }

  #failed(state: GoapState, results: ActionResult[], humanInput: Record<string, unknown>): GoapStateUpdate {
    return {
      worldState: { ...state.worldState },
      status: "action_failed",
      executionHistory: results,
      lastStepResultCount: results.length,
      humanInput,
      ...(state.awaitingHuman ? { awaitingHuman: null } : {}),
      ...foldLeavingRecords(state, results, this.runtime.actionsByName),
    };
  }

  #nothingToRun(state: GoapState): GoapStateUpdate {
    const result: ActionResult = {
      actionName: "<none>",
      success: false,
      stateBefore: { ...state.worldState },
      stateAfter: { ...state.worldState },
      error: "No action to execute",
      failure: "no_action",
      attempts: 0,
      durationMs: 0,
    };
    return {
      status: "error",
      replanReason: "No action to execute",
      executionHistory: [result],
      lastStepResultCount: 1,
      ...foldLeavingRecords(state, [result], this.runtime.actionsByName),
    };
  }
}

/** The first action of a wave that will ask a human (none already answered by a stopped invocation). */
function firstQuestion(actions: readonly ActionSpec[], presets: Readonly<Record<string, unknown>>): AwaitingHuman | null {
  for (const action of actions) {
    const requirement = action.requireHumanApproval;
    if (requirement === false || action.name in presets) continue;
    return { action: action.name, kind: requirement === true ? "goap_action_approval" : "goap_action_form" };
  }
  return null;
}

/**
 * The key an action's execution keeps across retries, crashes and resumes:
 * the run, the step's position, the action, and the checkpoint the step runs
 * from (a fork of the run runs its steps under new keys).
 */
function idempotencyKey(runId: string, position: number, action: ActionSpec, checkpoint: string): string {
  return `${runId}:${position}:${action.name}${checkpoint ? `:${checkpoint}` : ""}`;
}

/** True when `after` (a copy of `before` answers may have been added to) holds exactly `before`'s answers. */
function sameAnswers(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(after);
  if (keys.length !== Object.keys(before).length) return false;
  for (const key of keys) if (!Object.hasOwn(before, key) || before[key] !== after[key]) return false;
  return true;
}

/** `target` plus every key `after` changed relative to `base` (added, changed or removed). */
function applyDelta(target: WorldState, base: WorldState, after: WorldState): WorldState {
  const out = { ...target };
  for (const key of Object.keys(after)) if (!sameJson(after[key], base[key])) out[key] = after[key];
  for (const key of Object.keys(base)) if (!(key in after)) delete out[key];
  return out;
}
