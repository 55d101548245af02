import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch/web";
import { ensureConfig, type RunnableConfig } from "@langchain/core/runnables";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { ensureAsyncContext } from "./async-context.js";
import { EventTracer } from "./event-tracer.js";
import type { TracerErrorHandler } from "./safe-call.js";
import type { TraceEvent } from "./trace-event.js";

ensureAsyncContext();

/** Options of {@link LangChainEventTracer}. */
export interface LangChainEventTracerOptions {
  /** Prefix of the custom event names. @defaultValue "langgoap." */
  readonly prefix?: string;
  /** Run config to dispatch under; by default the enclosing run (a graph node) is found through async context. */
  readonly config?: RunnableConfig;
  /** Told when dispatching fails (a callback handler threw). @defaultValue none */
  readonly onError?: TracerErrorHandler;
}

const LANG_CHAIN_EVENT_TRACER_OPTIONS_KEYS = {
  prefix: true,
  config: true,
  onError: true,
} as const satisfies OptionKeys<LangChainEventTracerOptions>;

/**
 * Bridges planning events into LangChain callbacks: each event is sent with
 * `dispatchCustomEvent` as `langgoap.<event>` (e.g. `langgoap.plan_complete`)
 * with the JSON payload of {@link toTraceEvent}, so LangSmith, `streamEvents`
 * (`on_custom_event`) and any callback handler's `handleCustomEvent` see them
 * inside the node run that produced them. Outside a run, events are dropped.
 *
 * @example
 * ```ts
 * const graph = new GoapGraph(actions, { tracer: new LangChainEventTracer() });
 * for await (const e of graph.compile().streamEvents(input, { version: "v2" })) {
 *   if (e.event === "on_custom_event") console.log(e.name, e.data);
 * }
 * ```
 */
export class LangChainEventTracer extends EventTracer {
  readonly prefix: string;
  readonly #config: RunnableConfig | undefined;
  readonly #onError: TracerErrorHandler | undefined;

  constructor(options: LangChainEventTracerOptions = {}) {
    super();
    checkOptionKeys(options, LANG_CHAIN_EVENT_TRACER_OPTIONS_KEYS, "new LangChainEventTracer()");
    this.prefix = options.prefix ?? "langgoap.";
    this.#config = options.config;
    this.#onError = options.onError;
  }

  protected async emit(event: TraceEvent): Promise<void> {
    try {
      // What `@langchain/core/callbacks/dispatch` does in Node (the enclosing run's config from async context), from its web entry.
      await dispatchCustomEvent(`${this.prefix}${event.name}`, event.data, ensureConfig(this.#config));
    } catch (error) {
      try {
        this.#onError?.(error, event.hook);
      } catch {
        // Reporting must not throw either.
      }
    }
  }
}
