import type { LangGraphRunnableConfig } from "@langchain/langgraph";

/** Which thread and run a node is working for. */
export interface RunIdentity {
  /** The checkpointer thread (`configurable.thread_id`), when the run has one. */
  readonly threadId?: string;
  /** The platform's `run_id` (LangGraph API server), else the id the run drew when it started. */
  readonly runId?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/**
 * @internal The thread and run a node's config (and the run's state) name.
 * The LangGraph API server passes `run_id` in `configurable` and metadata;
 * a run started by {@link GoapGraph.createInput} carries its own in state.
 */
export function runIdentity(config: LangGraphRunnableConfig | undefined, stateRunId?: string | null): RunIdentity {
  const configurable = (config?.configurable ?? {}) as Record<string, unknown>;
  const metadata = (config?.metadata ?? {}) as Record<string, unknown>;
  const threadId = text(configurable.thread_id) ?? text(metadata.thread_id);
  const runId = text(configurable.run_id) ?? text(metadata.run_id) ?? text(stateRunId ?? undefined);
  return { ...(threadId ? { threadId } : {}), ...(runId ? { runId } : {}) };
}
