import { HookTracer } from "./hook-tracer.js";
import { type TraceEvent, type TraceHook, type TraceHookArgs, toTraceEvent } from "./trace-event.js";

/**
 * Base for tracers that treat every hook alike: each call becomes a
 * {@link TraceEvent} handed to {@link EventTracer.emit}. Subclasses decide
 * where events go (a log, a list, LangChain callbacks).
 *
 * @example
 * ```ts
 * class PrintTracer extends EventTracer {
 *   protected emit(event: TraceEvent) { console.log(event.name, event.data); }
 * }
 * ```
 */
export abstract class EventTracer extends HookTracer {
  /** Receives each event; may return a promise (the graph awaits it, guarded). */
  protected abstract emit(event: TraceEvent): unknown;

  protected handle<K extends TraceHook>(hook: K, args: TraceHookArgs<K>): unknown {
    return this.emit(toTraceEvent(hook, args));
  }
}
