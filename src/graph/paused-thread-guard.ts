import { Command, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { LangGoapError } from "../core/index.js";
import { type GoapState, TERMINAL_STATUSES } from "./state.js";

/** The part of a compiled graph the guard wraps: where every `invoke`, `stream` and `streamEvents` starts. */
interface GuardedGraph {
  checkpointer?: unknown;
  config?: LangGraphRunnableConfig;
  getState(config: LangGraphRunnableConfig): Promise<{ values: unknown; tasks: readonly { interrupts?: readonly unknown[] }[] }>;
  _streamIterator(input: unknown, options?: Partial<LangGraphRunnableConfig>): AsyncGenerator<unknown>;
  withConfig(config: Partial<LangGraphRunnableConfig>): unknown;
}

const GUARDED = Symbol.for("langgoap.pausedThreadGuard");

/**
 * A new input (neither `null` nor a `Command`) on a thread whose run is
 * paused and has not ended is refused before LangGraph writes anything:
 * LangGraph itself would drop the paused question and start over on the
 * paused run's leftovers. The thread stays as it was, resumable.
 */
async function refuseIfPaused(graph: GuardedGraph, input: unknown, options: Partial<LangGraphRunnableConfig> | undefined): Promise<void> {
  if (input === null || input === undefined || input instanceof Command) return;
  const configurable = { ...graph.config?.configurable, ...options?.configurable };
  const threadId = configurable.thread_id;
  // A graph run as a subgraph reads its thread through its parent: only a top-level run is checked.
  if (!graph.checkpointer || typeof threadId !== "string" || configurable.checkpoint_ns) return;
  const snapshot = await graph.getState({ configurable });
  if (snapshot.tasks.length === 0) return;
  const values = (snapshot.values ?? {}) as Partial<GoapState>;
  if (values.status !== undefined && TERMINAL_STATUSES.has(values.status)) return;
  const waiting = values.awaitingHuman;
  const paused = snapshot.tasks.some((t) => (t.interrupts?.length ?? 0) > 0);
  if (!paused && values.status !== "awaiting_human") return;
  const what = waiting ? `action "${waiting.action}" waits for a human (${waiting.kind})` : "its run waits at an interrupt";
  throw new LangGoapError(
    "THREAD_PAUSED",
    `thread "${threadId}" is paused: ${what}; answer it with graph.resume(answer, config) (or Command({ resume })), ` +
      "or start the new run on another thread",
    { threadId, ...(waiting ? { action: waiting.action, kind: waiting.kind } : {}) },
  );
}

/**
 * @internal Makes a compiled GOAP graph refuse, with a `THREAD_PAUSED`
 * error, a new input sent to a thread paused for a human (kept on the
 * graphs `withConfig` derives from it).
 */
export function guardPausedThreads<T>(compiled: T): T {
  const graph = compiled as unknown as GuardedGraph & { [GUARDED]?: true };
  if (graph[GUARDED]) return compiled;
  const iterate = graph._streamIterator;
  const withConfig = graph.withConfig;
  Object.defineProperties(graph, {
    [GUARDED]: { value: true },
    _streamIterator: {
      value: async function* (this: GuardedGraph, input: unknown, options?: Partial<LangGraphRunnableConfig>) {
        await refuseIfPaused(this, input, options);
        yield* iterate.call(this, input, options);
      },
      writable: true,
      configurable: true,
    },
    withConfig: {
      value(this: GuardedGraph, config: Partial<LangGraphRunnableConfig>) {
        return guardPausedThreads(withConfig.call(this, config));
      },
      writable: true,
      configurable: true,
    },
  });
  return compiled;
}
