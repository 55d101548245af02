import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { type GoalSpec, settleWithin, timeoutError } from "../core/index.js";
import { computeGoalHash } from "./history/goal-hash.js";
import type { ExecutionHistory, ExecutionRecord } from "./history/types.js";
import { errorMessage } from "./logger.js";
import { type RunIdentity, runIdentity } from "./run-identity.js";
import type { NodeRuntime } from "./runtime.js";
import { type ActionResult, type GoapState, type GoapStatus, HISTORY_WINDOW, runRecordCount } from "./state.js";
import { storeHistory } from "./store-history.js";

/** @internal The history a node writes to: the one given, else the run's store's (`false`: none). */
export function historyOf(
  option: ExecutionHistory | false | undefined,
  config: LangGraphRunnableConfig | undefined,
): ExecutionHistory | undefined {
  if (option === false) return undefined;
  return option ?? (config?.store ? storeHistory(config.store) : undefined);
}

/**
 * @internal Stores the blocks of {@link HISTORY_WINDOW} records a step
 * completed (`added` appended to `state`'s window), or with `final` the
 * run's last block, so the history store holds every record of a run whose
 * state keeps only a window. Every block written is still in
 * `state.executionHistory` plus `added`: the window always starts at the
 * oldest unfinished block. A failing store is logged, never fatal.
 */
export async function storeStepBlocks(
  history: ExecutionHistory | undefined,
  state: Pick<GoapState, "executionHistory" | "historyBefore" | "runId" | "wallClockStartedAt">,
  added: readonly ActionResult[],
  final: boolean,
  config: LangGraphRunnableConfig | undefined,
  runtime: NodeRuntime,
  runId: string | null | undefined = state.runId,
): Promise<void> {
  if (!history?.recordSteps || !runId) return;
  const before = runRecordCount(state);
  const after = before + added.length;
  const windowStart = state.historyBefore?.count ?? 0;
  const firstBlock = Math.floor(before / HISTORY_WINDOW);
  const endBlock = final ? Math.floor(after / HISTORY_WINDOW) + 1 : Math.floor(after / HISTORY_WINDOW);
  if (endBlock <= firstBlock) return;
  const records = added.length > 0 ? state.executionHistory.concat(added) : state.executionHistory;
  const { threadId } = runIdentity(config, runId);
  const ms = runtime.limits.timeoutMs;
  for (let b = firstBlock; b < endBlock; b++) {
    const first = b * HISTORY_WINDOW;
    const last = final && b === endBlock - 1;
    try {
      await settleWithin(
        history.recordSteps({
          runId,
          ...(threadId ? { threadId } : {}),
          first,
          records: records.slice(first - windowStart, Math.min(after, first + HISTORY_WINDOW) - windowStart),
          final: last,
          runStartedAt: state.wallClockStartedAt ?? runtime.now(),
        }),
        { ms, onTimeout: () => timeoutError("execution history recordSteps()", ms) },
      );
    } catch (error) {
      runtime.logger.warn(`execution history could not store the run's records from ${first}: ${errorMessage(error)}`, { runId });
      return;
    }
  }
}

function outcomeOf(status: GoapStatus, terminationIsError: boolean): ExecutionRecord["outcome"] {
  if (status === "goal_achieved") return "success";
  if (status === "partially_achieved") return "partial";
  if (status === "terminated") return terminationIsError ? "failed" : "partial";
  return "failed";
}

/** @internal The record of a run that just ended (its id is the run's id, so stores keep one record a run). */
export function buildExecutionRecord(
  state: GoapState,
  goal: GoalSpec,
  status: GoapStatus,
  runtime: NodeRuntime,
  terminationIsError = true,
  identity: RunIdentity = {},
): ExecutionRecord {
  // Records that left the window are summed up in historyBefore.
  const before = state.historyBefore;
  let actualCost = before?.actualCost ?? 0;
  for (const r of state.executionHistory) {
    const action = r.success ? runtime.actionsByName.get(r.actionName) : undefined;
    if (!action) continue;
    try {
      actualCost += action.getCost(r.stateBefore);
    } catch {
      // A cost function that fails on a recorded state does not block the record.
    }
  }
  return {
    // One record per run: a run that ends again after a crash rewrites it instead of adding another.
    ...(state.runId ? { id: state.runId } : {}),
    goalHash: computeGoalHash(goal),
    goalConditions: goal.conditions,
    planActions: [...(state.plan?.actions ?? [])],
    expectedCost: state.plan?.totalCost ?? 0,
    actualCost,
    outcome: outcomeOf(status, terminationIsError),
    status,
    replanCount: state.replanCount,
    timestamp: new Date(runtime.now()).toISOString(),
    failedActions: [...new Set([...(before?.failed ?? []), ...state.executionHistory.filter((r) => !r.success).map((r) => r.actionName)])],
    metadata: {
      executedActions: state.executionHistory.filter((r) => r.success).map((r) => r.actionName),
      // A run longer than its history window lists the actions of the window; these many records came before.
      ...(before && before.count > 0 ? { recordsBefore: before.count } : {}),
    },
    ...(identity.threadId ? { threadId: identity.threadId } : {}),
    ...(identity.runId ? { runId: identity.runId } : {}),
  };
}

/** @internal Writes a record; a failing store is logged and never breaks the run. */
export async function recordExecution(history: ExecutionHistory | undefined, record: ExecutionRecord, runtime: NodeRuntime): Promise<void> {
  if (!history) return;
  try {
    const ms = runtime.limits.timeoutMs;
    // A store that never answers must not hold the run's end hostage.
    await settleWithin(history.record(record), { ms, onTimeout: () => timeoutError("execution history record()", ms) });
  } catch (error) {
    runtime.logger.warn(`execution history could not record the run: ${errorMessage(error)}`, { goalHash: record.goalHash });
  }
}
