import { type ActionSpec, type PlanningTracer, runInTracerScope, settleWithin, timeoutError } from "../core/index.js";
import type { TraceHook, TraceHookArgs } from "./trace-event.js";

/**
 * Told when a hook throws, rejects or does not settle in time (a
 * `LangGoapError` with code `TIMEOUT`); the error is swallowed either way.
 * `"runAction"` names the tracer's action scope.
 */
export type TracerErrorHandler = (error: unknown, hook: TraceHook | "runAction") => void;

function report(onError: TracerErrorHandler | undefined, error: unknown, hook: TraceHook | "runAction"): void {
  try {
    onError?.(error, hook);
  } catch {
    // A broken error reporter is ignored too: observability never breaks a run.
  }
}

/**
 * Calls one hook of `tracer` if it has it. A synchronous throw and a rejected
 * promise are both caught and reported to `onError`; the returned promise
 * (present only for async hooks) never rejects, and settles within
 * `timeoutMs` (a hook still pending then is reported as a timeout and no
 * longer waited for).
 *
 * @internal
 */
export function invokeHook<K extends TraceHook>(
  tracer: PlanningTracer | undefined,
  hook: K,
  args: TraceHookArgs<K>,
  onError?: TracerErrorHandler,
  timeoutMs = Number.POSITIVE_INFINITY,
): Promise<void> | undefined {
  let fn: unknown;
  try {
    fn = tracer?.[hook];
  } catch (error) {
    report(onError, error, hook);
    return undefined;
  }
  if (typeof fn !== "function") return undefined;
  try {
    const out: unknown = fn.apply(tracer, args);
    if (out && typeof (out as PromiseLike<unknown>).then === "function") {
      return settleWithin(out as PromiseLike<unknown>, {
        ms: timeoutMs,
        onTimeout: () => timeoutError(`tracer hook ${hook}`, timeoutMs, { hook }),
      }).then(
        () => undefined,
        (error: unknown) => report(onError, error, hook),
      );
    }
  } catch (error) {
    report(onError, error, hook);
  }
  return undefined;
}

/**
 * Runs `execute` in `tracer`'s action scope (`runAction`), never waiting on
 * the scope longer than `timeoutMs` beyond `execute` itself: a scope that
 * has not started `execute` within the limit, or not finished within the
 * limit after `execute` settled, is reported to `onError` as a timeout and
 * left behind. `execute` runs exactly once either way and its outcome is
 * the result.
 *
 * @internal
 */
export async function runScopeWithin<T>(
  tracer: PlanningTracer,
  action: ActionSpec,
  execute: () => Promise<T>,
  timeoutMs: number,
  onError?: TracerErrorHandler,
): Promise<T> {
  let started: Promise<T> | undefined;
  const once = (): Promise<T> => {
    started ??= execute();
    return started;
  };
  if (!(timeoutMs < Number.POSITIVE_INFINITY)) return runInTracerScope(tracer, action, once);
  const scoped = runInTracerScope(tracer, action, once);
  const late = Symbol("late");
  const limit = () => settleWithin(scoped, { ms: timeoutMs, onTimeout: () => late });
  try {
    return await limit();
  } catch (error) {
    if (error !== late) throw error;
  }
  // The scope is still busy: either execute is running (wait for it, then give the scope its grace once more) or the scope never started it.
  if (started) {
    await started.then(
      () => undefined,
      () => undefined,
    );
    try {
      return await limit();
    } catch (error) {
      if (error !== late) throw error;
    }
  }
  report(onError, timeoutError("tracer scope runAction", timeoutMs, { action: action.name }), "runAction");
  return once();
}
