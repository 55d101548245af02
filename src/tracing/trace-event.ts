import { type ActionSpec, isFact, type PlanningTracer, type SearchExpandEvent, type TRACER_HOOKS, type WorldState } from "../core/index.js";

/** A tracer hook name, e.g. `"onPlanStart"`. */
export type TraceHook = (typeof TRACER_HOOKS)[number];

/** The arguments a hook receives. */
export type TraceHookArgs<K extends TraceHook> = Parameters<NonNullable<PlanningTracer[K]>>;

/** One tracer event as plain JSON: what loggers, callback bridges and recorders emit. */
export interface TraceEvent {
  readonly hook: TraceHook;
  /** Snake-case event name, e.g. `plan_start`. */
  readonly name: string;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * The snake-case event name of a hook.
 *
 * @example
 * ```ts
 * traceEventName("onSearchDeadEnd"); // "search_dead_end"
 * ```
 */
export function traceEventName(hook: TraceHook): string {
  return hook
    .slice(2)
    .replace(/[A-Z]/g, (c, i: number) => `${i === 0 ? "" : "_"}${c.toLowerCase()}`)
    .replace(/^_/, "");
}

/** @internal The plannable facts of a state (other JSON values are left out of events). */
export function factsOf(state: unknown): Record<string, unknown> {
  if (typeof state !== "object" || state === null) return {};
  return Object.fromEntries(Object.entries(state as WorldState).filter(([, v]) => isFact(v)));
}

/** @internal A goal as JSON: its own `toJSON()` when it has one (GoalSpec, MultiGoal), else the value. */
export function goalOf(goal: unknown): unknown {
  if (goal && typeof (goal as { toJSON?: unknown }).toJSON === "function") return (goal as { toJSON(): unknown }).toJSON();
  return goal ?? null;
}

/** @internal The action names and cost of a plan-like value (a `Plan`, or `null`). */
export function planSummary(plan: unknown): { actions: string[] | null; totalCost: number | null } {
  const p = plan as { actionNames?: unknown; actions?: unknown; totalCost?: unknown } | null | undefined;
  let actions: string[] | null = null;
  if (Array.isArray(p?.actionNames)) actions = p.actionNames.map(String);
  else if (Array.isArray(p?.actions)) actions = p.actions.map((a: { name?: unknown }) => String(a?.name ?? a));
  return { actions, totalCost: typeof p?.totalCost === "number" ? p.totalCost : null };
}

/** @internal What an executor's action result says (the graph's `ActionResult`, or a status-style update). */
export function actionOutcome(result: unknown): { action: string | null; success: boolean; error: string | null } {
  const r = (result ?? {}) as { actionName?: unknown; success?: unknown; error?: unknown; status?: unknown };
  const success = typeof r.success === "boolean" ? r.success : r.status !== "action_failed" && r.status !== "error";
  return {
    action: typeof r.actionName === "string" ? r.actionName : null,
    success,
    error: r.error === undefined || r.error === null ? null : errorText(r.error),
  };
}

/** @internal An error's message (or the value as text). */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === "string" ? error : (JSON.stringify(error) ?? String(error));
}

const actionName = (action: ActionSpec | undefined): string | null => action?.name ?? null;

/**
 * Turns a hook call into a {@link TraceEvent}: hook arguments become JSON
 * (plans as action names and cost, states as their facts, errors as
 * messages), so every sink sees the same shape.
 *
 * @example
 * ```ts
 * toTraceEvent("onStrategyChosen", ["astar"]); // { hook: "onStrategyChosen", name: "strategy_chosen", data: { strategy: "astar" } }
 * ```
 */
export function toTraceEvent<K extends TraceHook>(hook: K, args: TraceHookArgs<K>): TraceEvent {
  const a = args as readonly unknown[];
  let data: Record<string, unknown>;
  switch (hook) {
    case "onPlanStart":
      data = { goal: goalOf(a[0]), strategy: a[2] ?? null, state: factsOf(a[1]) };
      break;
    case "onPlanComplete":
      data = { ...planSummary(a[0]), durationMs: a[1] };
      break;
    case "onPlanFailed":
      data = { reason: a[0], durationMs: a[1] };
      break;
    case "onActionStart":
      data = { action: actionName(a[0] as ActionSpec) };
      break;
    case "onActionComplete":
      data = actionOutcome(a[0]);
      break;
    case "onActionRetry":
      data = { action: actionName(a[0] as ActionSpec), attempt: a[1], error: errorText(a[2]), backoffMs: a[3] };
      break;
    case "onStrategyChosen":
      data = { strategy: a[0] };
      break;
    case "onReplan":
      data = { reason: a[0], actions: planSummary(a[1]).actions };
      break;
    case "onGoalAchieved":
      data = { state: factsOf(a[0]) };
      break;
    case "onSensorComplete":
      data = { sensor: a[0], updates: factsOf(a[1]) };
      break;
    case "onSearchExpand": {
      const e = a[0] as SearchExpandEvent;
      data = { nodeId: e.nodeId, parentId: e.parentId, action: e.actionName, g: e.g, h: e.h, f: e.f };
      break;
    }
    case "onSearchDeadEnd":
      data = { reason: a[0], ...(a[1] as Record<string, unknown>) };
      break;
    case "onSearchComplete":
      data = { nodesExpanded: a[0], durationMs: a[1], found: a[2] };
      break;
    default:
      data = {};
  }
  return { hook, name: traceEventName(hook), data };
}
