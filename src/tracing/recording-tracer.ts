import { EventTracer } from "./event-tracer.js";
import type { TraceEvent } from "./trace-event.js";

/**
 * Keeps every event in order, as JSON: for tests, debugging and replay.
 *
 * @example
 * ```ts
 * const recorder = new RecordingTracer();
 * await graph.invoke(goal, state);
 * recorder.names; // ["plan_start", "strategy_chosen", "plan_complete", "action_start", ...]
 * ```
 */
export class RecordingTracer extends EventTracer {
  readonly events: TraceEvent[] = [];

  /** Event names in order. */
  get names(): string[] {
    return this.events.map((e) => e.name);
  }

  /** Forgets the events recorded so far. */
  clear(): void {
    this.events.length = 0;
  }

  protected emit(event: TraceEvent): void {
    this.events.push(event);
  }
}
