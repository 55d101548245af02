import { type GoalSpec, settleWithin, timeoutError } from "../core/index.js";
import { computeGoalHash, type ExecutionHistory, type ExecutionRecord } from "./history/index.js";
import { errorMessage } from "./logger.js";
import type { RunIdentity } from "./run-identity.js";
import type { NodeRuntime } from "./runtime.js";
import type { GoapState, GoapStatus } from "./state.js";

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
