/**
 * @internal Turns a worker's answer back into the result an in-thread
 * `planDetailedAsync` call gives: the plan rebuilt with the caller's own
 * specs and start state, the "no plan" explanation computed when first read
 * (on the caller's thread, like in-thread planning), the abort reason taken
 * from the caller's signal.
 */
import { abortReasonText } from "../core/abort-reason.js";
import { type ActionSpec, type GoalSpec, LangGoapError, type WorldState } from "../core/index.js";
import { explainNoPlan, Plan, type PlanDetailedResult } from "../planner/index.js";
import { withLazyExplanation } from "../planner/plan-result.js";
import type { DomainPayload } from "./domain-payload.js";
import type { WireResult } from "./wire.js";

/** Result of {@link PlannerPool.planDetailed}: a `PlanDetailedResult` that says where it was planned. */
export interface PooledPlanResult extends PlanDetailedResult {
  /** `worker` normally; `in-thread` for a problem the pool's `unserializable: "in-thread"` option kept on the caller's thread. */
  readonly ranIn: "worker" | "in-thread";
}

/** A problem aborted before a worker started it: what in-thread planning says for a signal aborted before the search. */
export function abortedBeforeStart(signal: AbortSignal | undefined, began: number): PooledPlanResult {
  return {
    plan: null,
    status: "aborted",
    stats: { nodesExpanded: 0, nodesGenerated: 0, planningTimeMs: performance.now() - began },
    usedBlacklistFallback: false,
    abortReason: abortReasonText(signal),
    ranIn: "worker",
  };
}

/** The caller-side result of one problem's answer; a coded error when the worker threw one. */
export function rebuildResult(
  answer: WireResult,
  start: Readonly<WorldState>,
  goal: GoalSpec,
  domain: DomainPayload,
  actions: readonly ActionSpec[],
  signal: AbortSignal | undefined,
): PooledPlanResult {
  if (answer.kind === "error") {
    throw answer.code === null
      ? new LangGoapError("WORKER_CRASHED", `PlannerPool: the worker failed while planning: ${answer.message}`)
      : new LangGoapError(answer.code, answer.message, answer.details);
  }
  if (answer.kind === "cancelled") return abortedBeforeStart(signal, performance.now());
  const base = {
    status: answer.status,
    stats: answer.stats,
    usedBlacklistFallback: answer.usedBlacklistFallback,
    ranIn: "worker" as const,
    ...(answer.budget ? { budget: answer.budget } : {}),
    ...(answer.status === "aborted" ? { abortReason: abortReasonText(signal) } : {}),
  };
  const wire = answer.plan;
  if (wire === null) {
    const result: PooledPlanResult = { plan: null, ...base };
    if (answer.status !== "no_plan") return result;
    const snapshot = { ...start };
    return withLazyExplanation(result, () => explainNoPlan(snapshot, goal, actions));
  }
  const plan = new Plan({
    actions: wire.actionNames.map((name) => domain.byName.get(name) as ActionSpec),
    stateChanges: wire.changes,
    startState: { ...start },
    totalCost: wire.totalCost,
    metadata: wire.metadata,
  });
  return { plan, ...base };
}
