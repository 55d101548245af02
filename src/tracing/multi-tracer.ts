import { type ActionSpec, type PlanningTracer, runInTracerScope, type TraceRun, tracerForRun } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { HookTracer } from "./hook-tracer.js";
import { invokeHook, type TracerErrorHandler } from "./safe-call.js";
import type { TraceHook, TraceHookArgs } from "./trace-event.js";

/** Options of {@link MultiTracer}. */
export interface MultiTracerOptions {
  /** Told when one of the tracers throws or rejects. @defaultValue none */
  readonly onError?: TracerErrorHandler;
}

const MULTI_TRACER_OPTIONS_KEYS = { onError: true } as const satisfies OptionKeys<MultiTracerOptions>;

/**
 * Sends every event to several tracers, in order. Each is called safely: a
 * broken tracer neither breaks the run nor stops the others. When some hooks
 * are async, the returned promise settles once all of them have.
 *
 * @example
 * ```ts
 * const tracer = new MultiTracer([new LoggingTracer(), new OpenTelemetryTracer()]);
 * ```
 */
export class MultiTracer extends HookTracer {
  readonly tracers: readonly PlanningTracer[];
  readonly #onError: TracerErrorHandler | undefined;

  constructor(tracers: readonly (PlanningTracer | undefined)[], options: MultiTracerOptions = {}) {
    super();
    checkOptionKeys(options, MULTI_TRACER_OPTIONS_KEYS, "new MultiTracer()");
    this.tracers = Object.freeze(tracers.filter((t): t is PlanningTracer => t !== undefined && t !== null));
    this.#onError = options.onError;
  }

  /** Reflections kept by any of the tracers, concatenated in tracer order. */
  get reflections(): unknown[] {
    const out: unknown[] = [];
    for (const tracer of this.tracers) {
      try {
        const found = (tracer as { reflections?: unknown }).reflections;
        if (Array.isArray(found)) out.push(...found);
      } catch {
        // A tracer whose getter throws has nothing to offer.
      }
    }
    return out;
  }

  /** Every tracer's view of one run. */
  forRun(run: TraceRun): PlanningTracer {
    const scoped = this.tracers.map((tracer) => tracerForRun(tracer, run) ?? tracer);
    if (scoped.every((tracer, i) => tracer === this.tracers[i])) return this;
    return new MultiTracer(scoped, this.#onError ? { onError: this.#onError } : {});
  }

  /** Runs `execute` inside every tracer's action scope, nested in tracer order; the outcome is `execute`'s own. */
  runAction<T>(action: ActionSpec, execute: () => Promise<T>): Promise<T> {
    const nested = this.tracers.reduceRight<() => Promise<T>>((inner, tracer) => () => runInTracerScope(tracer, action, inner), execute);
    return nested();
  }

  protected handle<K extends TraceHook>(hook: K, args: TraceHookArgs<K>): Promise<void> | undefined {
    const pending: Promise<void>[] = [];
    for (const tracer of this.tracers) {
      const done = invokeHook(tracer, hook, args, this.#onError);
      if (done) pending.push(done);
    }
    return pending.length > 0 ? Promise.all(pending).then(() => undefined) : undefined;
  }
}
