import { isGraphBubbleUp } from "@langchain/langgraph";
import { type ActionSpec, FIRE_ONCE, type Rng, type WorldState } from "../core/index.js";
import { isMissingCheckpointer, missingCheckpointerError } from "./human-approval.js";
import { errorMessage } from "./logger.js";
import type { NodeRuntime } from "./runtime.js";
import type { ActionFailureKind, ActionResult } from "./state.js";

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
  readonly config: unknown;
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
      stateBefore: { ...before },
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
  let attempt = 0;
  let raw: unknown;
  for (;;) {
    attempt++;
    if (signal?.aborted) return finish(false, attempt - 1, { ...before }, "aborted", "aborted: another action in its wave failed");
    try {
      const execute = action.execute;
      const context = {
        attempt,
        rng,
        ...(signal ? { signal } : {}),
        config: ctx.config,
        idempotencyKey: ctx.idempotencyKey,
        stepAttempt: ctx.stepAttempt,
      };
      // The tracer's action scope (e.g. the action span active), so calls made by execute nest under the action.
      raw = execute ? await runtime.runAction(action, async () => execute({ ...before }, context)) : undefined;
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
      return finish(false, attempt, { ...before }, signal?.aborted ? "aborted" : "error", errorMessage(error));
    }
  }

  let after: WorldState;
  try {
    if (isPlainObject(raw)) {
      after = { ...before, ...raw };
    } else if (raw !== undefined && raw !== null) {
      return finish(
        false,
        attempt,
        { ...before },
        "error",
        `action "${action.name}": execute returned ${typeof raw}; expected an object of world-state updates or nothing`,
      );
    } else if (ctx.transitionModel) {
      const sampled = await ctx.transitionModel.sample(before, action, rng);
      after = { ...before, ...(isPlainObject(sampled) ? sampled : {}) };
    } else {
      after = action.apply(before);
    }
  } catch (error) {
    return finish(false, attempt, { ...before }, "error", errorMessage(error));
  }

  if (action.effectValidator) {
    let valid: boolean;
    let why = "Effect validation failed";
    try {
      valid = await action.validateEffects(before, after);
    } catch (error) {
      valid = false;
      why = `Effect validation failed: validator threw: ${errorMessage(error)}`;
    }
    if (!valid) return finish(false, attempt, after, "validation_failed", why);
  }
  return finish(true, attempt, after, null, null);
}
