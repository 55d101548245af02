import type { ActionSpec } from "./action.js";
import type { WorldState } from "./facts.js";

/**
 * Observation hooks, all optional and sync or async. Tracers are wrapped so
 * a throwing hook never breaks planning or execution. Search hooks fire only
 * when `recordExpansions` is on, so tracing costs nothing when unused.
 *
 * Plans and goals are typed loosely here (`unknown`) because this interface
 * lives in `core`, below the planner; implementations receive a `Plan`, a
 * `GoalSpec`/`MultiGoal` and the executor's `ActionResult`.
 */
export interface PlanningTracer {
  onPlanStart?(goal: unknown, state: Readonly<WorldState>, strategyName: string): unknown;
  onPlanComplete?(plan: unknown, durationMs: number): unknown;
  onPlanFailed?(reason: string, durationMs: number): unknown;
  onActionStart?(action: ActionSpec, state: Readonly<WorldState>): unknown;
  onActionComplete?(result: unknown): unknown;
  onActionRetry?(action: ActionSpec, attempt: number, error: unknown, backoffMs: number): unknown;
  onStrategyChosen?(strategyName: string): unknown;
  onReplan?(reason: string, newPlan: unknown): unknown;
  onGoalAchieved?(finalState: Readonly<WorldState>): unknown;
  onSensorComplete?(sensorName: string, updates: Readonly<WorldState>): unknown;
  onSearchExpand?(event: SearchExpandEvent): unknown;
  onSearchDeadEnd?(reason: string, detail: Readonly<Record<string, unknown>>): unknown;
  onSearchComplete?(nodesExpanded: number, durationMs: number, found: boolean): unknown;
}

/** One node expansion during search. */
export interface SearchExpandEvent {
  readonly nodeId: number;
  readonly parentId: number | null;
  readonly actionName: string | null;
  readonly state: Readonly<WorldState>;
  readonly g: number;
  readonly h: number;
  readonly f: number;
}

/** Names of every tracer hook, in a stable order. */
export const TRACER_HOOKS = [
  "onPlanStart",
  "onPlanComplete",
  "onPlanFailed",
  "onActionStart",
  "onActionComplete",
  "onActionRetry",
  "onStrategyChosen",
  "onReplan",
  "onGoalAchieved",
  "onSensorComplete",
  "onSearchExpand",
  "onSearchDeadEnd",
  "onSearchComplete",
] as const satisfies readonly (keyof PlanningTracer)[];

/**
 * Calls one hook if the tracer has it, swallowing errors and rejected
 * promises: observability must never break a run. Returns the hook's promise
 * (already guarded) so async callers may await delivery.
 */
export function callTracer<K extends keyof PlanningTracer>(
  tracer: PlanningTracer | undefined,
  hook: K,
  ...args: Parameters<NonNullable<PlanningTracer[K]>>
): Promise<void> | undefined {
  const fn = tracer?.[hook] as ((...a: unknown[]) => unknown) | undefined;
  if (typeof fn !== "function") return undefined;
  try {
    const out = fn.apply(tracer, args);
    if (out && typeof (out as Promise<unknown>).then === "function") {
      return (out as Promise<unknown>).then(
        () => undefined,
        () => undefined,
      );
    }
  } catch {
    // A broken tracer is ignored by design.
  }
  return undefined;
}
