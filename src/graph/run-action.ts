import { isGraphBubbleUp, type LangGraphRunnableConfig } from "@langchain/langgraph";
import {
  type ActionSpec,
  callWithin,
  FIRE_ONCE,
  findNonJsonValue,
  isTimeoutError,
  type NonJsonValue,
  type Rng,
  type WorldState,
} from "../core/index.js";
import { copyState } from "./copy-state.js";
import { describeBadFactValue, type FactTypes, findBadFactValue } from "./fact-values.js";
import { isMissingCheckpointer, missingCheckpointerError } from "./human-approval.js";
import { errorMessage } from "./logger.js";
import type { NodeRuntime } from "./runtime.js";
import type { ActionFailureKind, ActionResult } from "./state.js";

declare module "../core/action.js" {
  /**
   * Inside a graph an action runs under its executor node's config, so
   * `ActionContext.config` is LangGraph's config (core declares only the
   * `RunnableConfig` part, to stay free of LangGraph).
   */
  interface ActionRunConfig extends LangGraphRunnableConfig {}
}

/**
 * What execution samples outcomes from when `execute` returns nothing: any
 * object with `sample` (and `expected`), such as the planner's
 * `TransitionModel`s. Both return updates merged over the state.
 */
export interface ExecutionTransitionModel {
  expected(state: Readonly<WorldState>, action: ActionSpec): Readonly<Partial<WorldState>>;
  sample(state: Readonly<WorldState>, action: ActionSpec, rng: Rng): Readonly<Partial<WorldState>> | Promise<Readonly<Partial<WorldState>>>;
}

/** Waits `ms` milliseconds (resolving early when `signal` aborts). Injectable so tests never wait. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** The real clock: `setTimeout`, cut short by an abort. */
export const timerSleep: Sleep = (ms, signal) =>
  new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

/** @internal How to run one action. */
export interface RunActionContext {
  readonly runtime: NodeRuntime;
  readonly rng: Rng;
  readonly sleep: Sleep;
  readonly transitionModel: ExecutionTransitionModel | undefined;
  readonly signal: AbortSignal | undefined;
  readonly config: LangGraphRunnableConfig | undefined;
  /** Which facts are numbers, so values they cannot hold are caught. */
  readonly factTypes: FactTypes;
  /** Time limit of one attempt when the action's QoS sets none. */
  readonly timeoutMs: number;
  /** Stable across retries, crashes and resumes (see `ActionContext.idempotencyKey`). */
  readonly idempotencyKey: string;
  /** 1, or more when an earlier start of this step did not finish. */
  readonly stepAttempt: number;
}

/** @internal The result of one action and, on success, the state it produced. */
export interface ActionOutcome {
  readonly result: ActionResult;
  readonly state: WorldState | null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * One attempt of `execute` on its own deep copy of the state (whatever it
 * does to it never reaches the run's state), bounded by `timeoutMs`: when
 * time runs out the attempt's signal aborts and the attempt fails as a
 * timeout.
 */
async function attemptWithin(
  action: ActionSpec,
  attempt: number,
  timeoutMs: number,
  wave: AbortSignal | undefined,
  execute: NonNullable<ActionSpec["execute"]>,
  before: Readonly<WorldState>,
  ctx: RunActionContext,
): Promise<unknown> {
  return callWithin(
    (own) => {
      // Only time cuts an attempt short: an aborted wave asks siblings to stop (through the signal), and work they finish anyway is kept.
      const signal = wave ? AbortSignal.any([wave, own]) : own;
      const context = {
        attempt,
        rng: ctx.rng,
        signal,
        config: ctx.config,
        idempotencyKey: ctx.idempotencyKey,
        stepAttempt: ctx.stepAttempt,
      };
      return execute(copyState(before), context);
    },
    { ms: timeoutMs, what: `action "${action.name}" (attempt ${attempt})`, details: { action: action.name, attempt } },
  );
}

/** `action "x": execute returned a value that is not JSON at "inv.items[3].x": 10n (a BigInt) is not JSON`. */
function notJsonMessage(action: ActionSpec, who: string, bad: NonJsonValue): string {
  return `action "${action.name}": ${who} returned a value that is not JSON at "${bad.path}": ${bad.reason}`;
}

/**
 * @internal Runs `action` on `before`: `execute` with the action's QoS
 * retries (exponential backoff with seeded jitter), then the result rule
 * (a returned object is authoritative; otherwise the transition model's
 * sample; otherwise the declared effects), then the effect validator (a
 * rejection rolls back: `state` is null). Tracer start/retry/complete
 * events fire here. A LangGraph interrupt raised inside `execute`
 * propagates untouched; one raised without a checkpointer is an
 * `INVALID_OPTION` error at once.
 */
export async function runAction(action: ActionSpec, before: Readonly<WorldState>, ctx: RunActionContext): Promise<ActionOutcome> {
  const { runtime, rng, signal } = ctx;
  const began = performance.now();
  const finish = async (
    success: boolean,
    attempts: number,
    after: WorldState,
    failure: ActionFailureKind | null,
    error: string | null,
  ): Promise<ActionOutcome> => {
    const result: ActionResult = {
      actionName: action.name,
      success,
      // A deep copy: history shows the state as it was, whatever happens to the run's objects later.
      stateBefore: copyState(before),
      stateAfter: after,
      error,
      failure,
      attempts,
      durationMs: performance.now() - began,
    };
    await runtime.trace("onActionComplete", result);
    return { result, state: success ? after : null };
  };

  await runtime.trace("onActionStart", action, before);
  const qos = action.qos ?? FIRE_ONCE;
  const timeoutMs = qos.timeoutMs ?? ctx.timeoutMs;
  let attempt = 0;
  let raw: unknown;
  for (;;) {
    attempt++;
    if (signal?.aborted) return finish(false, attempt - 1, copyState(before), "aborted", "aborted: another action in its wave failed");
    try {
      const execute = action.execute;
      // The tracer's action scope (e.g. the action span active), so calls made by execute nest under the action.
      raw = execute
        ? await runtime.runAction(action, async () => attemptWithin(action, attempt, timeoutMs, signal, execute, before, ctx))
        : undefined;
      break;
    } catch (error) {
      if (isGraphBubbleUp(error)) throw error;
      // An interrupt() with nothing to pause with is a configuration mistake, not a failure to retry.
      if (isMissingCheckpointer(error)) throw missingCheckpointerError(action, "calls interrupt() inside execute", error);
      if (!signal?.aborted && qos.shouldRetry(error, attempt)) {
        const backoffMs = qos.computeBackoffMs(attempt, rng);
        await runtime.trace("onActionRetry", action, attempt, error, backoffMs);
        await ctx.sleep(backoffMs, signal);
        continue;
      }
      const kind = signal?.aborted ? "aborted" : isTimeoutError(error) ? "timeout" : "error";
      return finish(false, attempt, copyState(before), kind, errorMessage(error));
    }
  }

  let after: WorldState;
  // What user code handed back, checked to be JSON once the plainer checks of its facts pass (they name the fact and the value).
  let produced: { by: string; value: unknown } | undefined;
  try {
    if (isPlainObject(raw)) {
      produced = { by: "execute", value: raw };
      after = { ...before, ...raw };
    } else if (raw !== undefined && raw !== null) {
      const kind = Array.isArray(raw) ? "an array" : typeof raw;
      return finish(
        false,
        attempt,
        copyState(before),
        "invalid_output",
        `action "${action.name}": execute returned ${kind}; expected an object of world-state updates or nothing`,
      );
    } else if (ctx.transitionModel) {
      const model = ctx.transitionModel;
      const sampled = await runtime.callHook(`transition model sample for action "${action.name}"`, () =>
        model.sample(copyState(before), action, rng),
      );
      produced = { by: "the transition model", value: sampled };
      after = { ...before, ...(isPlainObject(sampled) ? sampled : {}) };
    } else {
      // An effect function is user code too: it gets a copy.
      after = action.apply(typeof action.effects === "function" ? copyState(before) : before);
    }
  } catch (error) {
    return finish(false, attempt, copyState(before), isTimeoutError(error) ? "timeout" : "error", errorMessage(error));
  }

  const bad = findBadFactValue(after, before, ctx.factTypes);
  if (bad) return finish(false, attempt, copyState(before), "invalid_value", describeBadFactValue(`action "${action.name}"`, bad));
  const notJson = produced ? findNonJsonValue(produced.value) : null;
  if (notJson && produced) return finish(false, attempt, copyState(before), "invalid_value", notJsonMessage(action, produced.by, notJson));

  if (action.effectValidator) {
    let valid: boolean;
    let why = "Effect validation failed";
    try {
      valid = await runtime.callHook(`effect validator of action "${action.name}"`, (own) =>
        action.validateEffects(copyState(before), copyState(after), { signal: own }),
      );
    } catch (error) {
      valid = false;
      why = isTimeoutError(error)
        ? `Effect validation failed: ${error.message}`
        : `Effect validation failed: validator threw: ${errorMessage(error)}`;
    }
    if (!valid) return finish(false, attempt, after, "validation_failed", why);
  }
  return finish(true, attempt, after, null, null);
}
