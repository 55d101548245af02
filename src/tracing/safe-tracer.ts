import {
  type ActionSpec,
  checkTimeout,
  DEFAULT_OBSERVER_TIMEOUT_MS,
  type PlanningTracer,
  type TraceRun,
  tracerForRun,
} from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { HookTracer } from "./hook-tracer.js";
import { invokeHook, runScopeWithin, type TracerErrorHandler } from "./safe-call.js";
import type { TraceHook, TraceHookArgs } from "./trace-event.js";

/** Options of {@link SafeTracer}. */
export interface SafeTracerOptions {
  /** Told about each hook that throws, rejects or times out. @defaultValue none (errors are swallowed silently) */
  readonly onError?: TracerErrorHandler;
  /**
   * How long an async hook (and the action scope, beyond the action
   * itself) may take, in ms (`Infinity` for no limit). A hook still pending
   * then is reported to `onError` as a `TIMEOUT` and no longer waited for.
   * @defaultValue 5000 (`DEFAULT_OBSERVER_TIMEOUT_MS`)
   */
  readonly timeoutMs?: number;
}

const SAFE_TRACER_OPTIONS_KEYS = { onError: true, timeoutMs: true } as const satisfies OptionKeys<SafeTracerOptions>;

/**
 * Wraps a tracer so that no hook can break or hang planning or execution: a
 * synchronous throw, a rejected promise, even a throwing property getter
 * are caught (and reported to `onError`). Async hooks still return a
 * promise, which never rejects and settles within `timeoutMs`. Other
 * properties (such as a reflexion tracer's `reflections`) are read through.
 *
 * @example
 * ```ts
 * const tracer = SafeTracer.wrap(userTracer, { onError: (e, hook) => log.warn(hook, e) });
 * ```
 */
export class SafeTracer extends HookTracer {
  readonly inner: PlanningTracer;
  readonly #onError: TracerErrorHandler | undefined;
  /** Time limit of an async hook in ms. */
  readonly timeoutMs: number;

  constructor(inner: PlanningTracer, options: SafeTracerOptions = {}) {
    super();
    checkOptionKeys(options, SAFE_TRACER_OPTIONS_KEYS, "new SafeTracer()");
    // Nested wrappers add nothing; keep one layer.
    this.inner = inner instanceof SafeTracer && options.onError === undefined ? inner.inner : inner;
    this.#onError = options.onError;
    this.timeoutMs =
      options.timeoutMs === undefined ? DEFAULT_OBSERVER_TIMEOUT_MS : checkTimeout(options.timeoutMs, "SafeTracer timeoutMs");
  }

  /** `tracer` made safe; a `SafeTracer` without new options is returned as is, `undefined` stays `undefined`. */
  static wrap(tracer: PlanningTracer, options?: SafeTracerOptions): SafeTracer;
  static wrap(tracer: PlanningTracer | undefined, options?: SafeTracerOptions): SafeTracer | undefined;
  static wrap(tracer: PlanningTracer | undefined, options: SafeTracerOptions = {}): SafeTracer | undefined {
    if (tracer === undefined) return undefined;
    if (tracer instanceof SafeTracer && options.onError === undefined && options.timeoutMs === undefined) return tracer;
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
    return inner === this.inner || inner === undefined
      ? this
      : new SafeTracer(inner, { timeoutMs: this.timeoutMs, ...(this.#onError ? { onError: this.#onError } : {}) });
  }

  /** Runs `execute` in the inner tracer's action scope, waiting on the scope at most `timeoutMs` beyond `execute`; the outcome is always `execute`'s own. */
  runAction<T>(action: ActionSpec, execute: () => Promise<T>): Promise<T> {
    return runScopeWithin(this.inner, action, execute, this.timeoutMs, this.#onError);
  }

  protected handle<K extends TraceHook>(hook: K, args: TraceHookArgs<K>): Promise<void> | undefined {
    return invokeHook(this.inner, hook, args, this.#onError, this.timeoutMs);
  }
}
