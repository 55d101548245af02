import type { PlanningTracer } from "../core/index.js";
import type { TraceHook, TraceHookArgs } from "./trace-event.js";

/** Told when a hook throws or rejects (the error is swallowed either way). */
export type TracerErrorHandler = (error: unknown, hook: TraceHook) => void;

function report(onError: TracerErrorHandler | undefined, error: unknown, hook: TraceHook): void {
  try {
    onError?.(error, hook);
  } catch {
    // A broken error reporter is ignored too: observability never breaks a run.
  }
}

/**
 * Calls one hook of `tracer` if it has it. A synchronous throw and a rejected
 * promise are both caught and reported to `onError`; the returned promise
 * (present only for async hooks) never rejects.
 *
 * @internal
 */
export function invokeHook<K extends TraceHook>(
  tracer: PlanningTracer | undefined,
  hook: K,
  args: TraceHookArgs<K>,
  onError?: TracerErrorHandler,
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
      return Promise.resolve(out).then(
        () => undefined,
        (error: unknown) => report(onError, error, hook),
      );
    }
  } catch (error) {
    report(onError, error, hook);
  }
  return undefined;
}
