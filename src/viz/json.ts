import { checkOptionKeys } from "../core/option-keys.js";
import type { Plan, ScheduleEntry } from "../planner/index.js";
import { SCHEDULE_OPTION_KEYS, viewPlan } from "./plan-view.js";

/** A plan as JSON: steps with cost, dependencies and schedule, plus totals and metadata. */
export interface PlanJson {
  readonly actions: readonly string[];
  readonly totalCost: number;
  readonly steps: readonly {
    readonly index: number;
    readonly action: string;
    readonly cost: number | null;
    readonly after: readonly number[];
    readonly durationMs?: number;
    readonly startMs?: number;
    readonly endMs?: number;
  }[];
  readonly makespanMs?: number;
  readonly score: string;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/**
 * A plan as plain JSON for tools and the CLI's `--format json`: each step
 * with its cost in the state it is paid in, its causal dependencies and its
 * scheduled interval when the plan has a schedule.
 *
 * @example
 * ```ts
 * JSON.stringify(planToJson(found), null, 2);
 * ```
 */
export function planToJson(plan: Plan, options: { readonly schedule?: readonly ScheduleEntry[] } = {}): PlanJson {
  checkOptionKeys(options, SCHEDULE_OPTION_KEYS, "planToJson()");
  const view = viewPlan(plan, options.schedule ? { schedule: options.schedule } : {});
  return {
    actions: plan.actionNames,
    totalCost: plan.totalCost,
    steps: view.steps.map((s) => ({
      index: s.index,
      action: s.name,
      cost: Number.isNaN(s.cost) ? null : s.cost,
      after: s.after,
      ...(s.durationMs !== undefined ? { durationMs: s.durationMs } : {}),
      ...(s.startMs !== undefined ? { startMs: s.startMs, endMs: s.endMs as number } : {}),
    })),
    ...(view.makespanMs !== undefined ? { makespanMs: view.makespanMs } : {}),
    score: String(plan.score),
    metadata: plan.metadata,
  };
}
