import type { ActionSpec } from "../core/index.js";
import {
  type ActionFailureKind,
  type ActionResult,
  EMPTY_HISTORY_SUMMARY,
  FINAL_FAILURES,
  type GoapState,
  type GoapStateUpdate,
  type HistorySummary,
  recordsLeavingWindow,
} from "./state.js";

/**
 * @internal The `historyBefore` update of a step that appends `results` to
 * the window: the records leaving it folded into the summary (nothing when
 * none leave, which is every step but one in {@link HISTORY_WINDOW}).
 */
export function foldLeavingRecords(
  state: Pick<GoapState, "executionHistory" | "historyBefore">,
  results: readonly ActionResult[],
  actions: ReadonlyMap<string, ActionSpec>,
): GoapStateUpdate {
  const leaving = recordsLeavingWindow(state.executionHistory.length + results.length);
  if (leaving === 0) return {};
  const before = state.historyBefore ?? EMPTY_HISTORY_SUMMARY;
  const succeeded = new Set(before.succeeded);
  const failed = new Set(before.failed);
  const excluded = new Map<string, ActionFailureKind>(before.excluded.map((e) => [e.action, e.failure]));
  let actualCost = before.actualCost;
  const window = state.executionHistory;
  for (let i = 0; i < leaving; i++) {
    const r = (i < window.length ? window[i] : results[i - window.length]) as ActionResult;
    if (!r.success) {
      failed.add(r.actionName);
      if (r.failure !== null && FINAL_FAILURES.has(r.failure) && !excluded.has(r.actionName)) excluded.set(r.actionName, r.failure);
      continue;
    }
    succeeded.add(r.actionName);
    try {
      actualCost += actions.get(r.actionName)?.getCost(r.stateBefore) ?? 0;
    } catch {
      // A cost function that fails on a recorded state does not block the summary (as in the run's record).
    }
  }
  const summary: HistorySummary = {
    count: before.count + leaving,
    succeeded: [...succeeded],
    failed: [...failed],
    excluded: [...excluded].map(([action, failure]) => ({ action, failure })),
    actualCost,
  };
  return { historyBefore: summary };
}
