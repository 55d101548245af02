import { type ActionSpec, type PlanningTracer, runInTracerScope, type TraceRun, tracerForRun } from "../core/index.js";
import { HookTracer } from "./hook-tracer.js";
import { invokeHook, type TracerErrorHandler } from "./safe-call.js";
import type { TraceHook, TraceHookArgs } from "./trace-event.js";

/** Options of {@link SafeTracer}. */
export interface SafeTracerOptions {
  /** Told about each hook that throws or rejects. @defaultValue none (errors are swallowed silently) */
  readonly onError?: TracerErrorHandler;
}

/**
 * Wraps a tracer so that no hook can break planning or execution: a
 * synchronous throw, a rejected promise, even a throwing property getter
 * are caught (and reported to `onError`). Async hooks still return a
 * promise, which never rejects. Other properties (such as a reflexion
 * tracer's `reflections`) are read through.
 *
 * @example
 * ```ts
 * const tracer = SafeTracer.wrap(userTracer, { onError: (e, hook) => log.warn(hook, e) });
 * ```
 */
export class SafeTracer extends HookTracer {
  readonly inner: PlanningTracer;
  readonly #onError: TracerErrorHandler | undefined;

  constructor(inner: PlanningTracer, options: SafeTracerOptions = {}) {
    super();
    // Nested wrappers add nothing; keep one layer.
    this.inner = inner instanceof SafeTracer && options.onError === undefined ? inner.inner : inner;
    this.#onError = options.onError;
  }

  /** `tracer` made safe; a `SafeTracer` without new options is returned as is, `undefined` stays `undefined`. */
  static wrap(tracer: PlanningTracer, options?: SafeTracerOptions): SafeTracer;
  static wrap(tracer: PlanningTracer | undefined, options?: SafeTracerOptions): SafeTracer | undefined;
  static wrap(tracer: PlanningTracer | undefined, options: SafeTracerOptions = {}): SafeTracer | undefined {
    if (tracer === undefined) return undefined;
    if (tracer instanceof SafeTracer && options.onError === undefined) return tracer;
    return new SafeTracer(tracer, options);
  }

  /** The inner tracer's `reflections`, if it keeps any (read safely). */
  get reflections(): unknown {
    try {
      return (this.inner as { reflections?: unknown }).reflections;
    } catch {
      return undefined;
    }
  }

  /** The inner tracer's view of one run, made safe too. */
  forRun(run: TraceRun): PlanningTracer {
    const inner = tracerForRun(this.inner, run);
    return inner === this.inner || inner === undefined ? this : new SafeTracer(inner, this.#onError ? { onError: this.#onError } : {});
  }

  /** Runs `execute` in the inner tracer's action scope; the outcome is always `execute`'s own. */
  runAction<T>(action: ActionSpec, execute: () => Promise<T>): Promise<T> {
    return runInTracerScope(this.inner, action, execute);
  }

  protected handle<K extends TraceHook>(hook: K, args: TraceHookArgs<K>): Promise<void> | undefined {
    return invokeHook(this.inner, hook, args, this.#onError);
  }
}
