import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { GoapState } from "./state.js";

/** One run of a thread, as its last checkpoint holds it. */
export interface ThreadRun {
  /** The run's id (null for a run that never reached the planner). */
  readonly runId: string | null;
  readonly status: GoapState["status"];
  readonly goal: GoapState["goal"];
  readonly worldState: GoapState["worldState"];
  readonly plan: GoapState["plan"];
  readonly replanCount: number;
  /** This run's executed actions, in order. */
  readonly executionHistory: GoapState["executionHistory"];
  /** The checkpoint the run ended (or now waits) at: pass it as `configurable.checkpoint_id` to read or fork from there. */
  readonly checkpointId: string | undefined;
}

/** The part of a compiled graph read here. */
interface HistorySource {
  getStateHistory(config: LangGraphRunnableConfig): AsyncIterableIterator<{
    values: unknown;
    next: readonly string[];
    config: LangGraphRunnableConfig;
  }>;
}

/**
 * @internal Every run of a thread, oldest first: the checkpoints where a
 * run ended (nothing left to run), plus the newest one when the thread's
 * last run has not ended. Reads the thread's checkpoint list once.
 */
export async function readThreadRuns(app: HistorySource, config: LangGraphRunnableConfig): Promise<ThreadRun[]> {
  const runs: ThreadRun[] = [];
  let newest = true;
  for await (const snapshot of app.getStateHistory({ configurable: config.configurable })) {
    const values = snapshot.values as Partial<GoapState> | undefined;
    const ended = snapshot.next.length === 0;
    const take = (ended || newest) && values !== undefined && values.goal !== undefined && values.goal !== null;
    newest = false;
    if (!take) continue;
    runs.push({
      runId: values.runId ?? null,
      status: values.status ?? "executing",
      goal: values.goal ?? null,
      worldState: values.worldState ?? {},
      plan: values.plan ?? null,
      replanCount: values.replanCount ?? 0,
      executionHistory: values.executionHistory ?? [],
      checkpointId: snapshot.config.configurable?.checkpoint_id as string | undefined,
    });
  }
  return runs.reverse();
}
