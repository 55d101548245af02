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
  /**
   * The tracer for one run. A graph asks for it before delivering a run's
   * events, so a tracer shared by concurrent runs (a served graph) can keep
   * each run's state apart; tracers without it receive every run's events.
   */
  forRun?(run: TraceRun): PlanningTracer | undefined;
  /**
   * Runs an action's `execute` inside the tracer's scope for that action
   * (e.g. with the action's span active, so spans created by the action
   * nest under it). It must call `execute` once and may not change its
   * outcome: the graph uses `execute`'s own result or error whatever the
   * wrapper returns or throws.
   */
  runAction?<T>(action: ActionSpec, execute: () => Promise<T>): Promise<T>;
}

/** Which run events belong to (see {@link PlanningTracer.forRun}). */
export interface TraceRun {
  /** The run's id: the platform's `run_id`, or the id a `GoapGraph` run drew. */
  readonly runId?: string;
  /** The checkpointer thread, when the run has one. */
  readonly threadId?: string;
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
  let fn: ((...a: unknown[]) => unknown) | undefined;
  try {
    // Inside the try: a hook may be a getter that throws.
    fn = tracer?.[hook] as ((...a: unknown[]) => unknown) | undefined;
  } catch {
    return undefined;
  }
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

/**
 * The tracer for one run: `tracer.forRun(run)` when the tracer has it (and
 * it answers), else the tracer itself. Never throws.
 */
export function tracerForRun(tracer: PlanningTracer | undefined, run: TraceRun): PlanningTracer | undefined {
  if (!tracer) return undefined;
  try {
    const forRun = tracer.forRun;
    if (typeof forRun !== "function") return tracer;
    const scoped = forRun.call(tracer, run);
    return scoped && typeof scoped === "object" ? scoped : tracer;
  } catch {
    return tracer;
  }
}

/**
 * Runs `execute` inside `tracer.runAction` when the tracer has it. The
 * result is always `execute`'s own: a wrapper that throws, rejects, skips
 * or repeats the call changes nothing (`execute` runs exactly once).
 */
export async function runInTracerScope<T>(tracer: PlanningTracer | undefined, action: ActionSpec, execute: () => Promise<T>): Promise<T> {
  let wrap: PlanningTracer["runAction"];
  try {
    wrap = tracer?.runAction;
  } catch {
    wrap = undefined;
  }
  if (typeof wrap !== "function") return execute();
  let started: Promise<T> | undefined;
  const once = (): Promise<T> => {
    if (!started) {
      try {
        started = Promise.resolve(execute());
      } catch (error) {
        started = Promise.reject(error);
      }
      // Handled by our caller once the wrapper is done; no unhandled-rejection warning meanwhile.
      started.catch(() => undefined);
    }
    return started;
  };
  try {
    await wrap.call(tracer, action, once);
  } catch {
    // The wrapper's own failure is not the action's; the action's outcome comes from `once()`.
  }
  return once();
}
