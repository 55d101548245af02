import type { CompiledGoapGraph, GoapGraph, GoapRunResult, GoapState } from "../../graph/index.js";
import type { ClaimedRun } from "./run-queue.js";

/**
 * @internal Executes a claimed run to its end (or pause) in three cases,
 * told apart by the thread's last checkpoint:
 * - it holds this run, ended: the run had ended when the process holding
 *   it stopped (before it could write so): its state is returned as it is;
 * - it holds this run, not ended: an earlier claim started it and
 *   stopped; `recover()` continues it, so no finished step runs again and
 *   the step that was running runs once more under the same idempotency
 *   key. The queue's lease says the earlier holder has stopped (its lease
 *   expired or it released the run), which is what `takeOver` asks for:
 *   a recovery it may have begun is taken over even on another host;
 * - anything else: the run never saved a checkpoint; it starts.
 */
export async function executeClaimedRun(
  // biome-ignore lint/suspicious/noExplicitAny: any world type.
  graph: GoapGraph<any>,
  app: CompiledGoapGraph,
  run: ClaimedRun,
  signal: AbortSignal,
): Promise<GoapRunResult> {
  const config = { configurable: { thread_id: run.threadId, run_id: run.runId }, signal };
  const snapshot = await app.getState({ configurable: { thread_id: run.threadId } });
  const values = snapshot.values as Partial<GoapState> | undefined;
  if (snapshot.createdAt !== undefined && values?.runId === run.runId) {
    if (snapshot.tasks.length === 0) return values as GoapRunResult;
    return graph.recover(config, { takeOver: run.attempts > 1 });
  }
  // The queue checked the goal as JSON conditions or goal data when it was enqueued; the graph checks it against its actions.
  return graph.invoke(run.goal as never, run.worldState ?? undefined, config);
}
