import { LangGoapError } from "../core/errors.js";
import type { Plan, ScheduleEntry } from "../planner/index.js";
import { type StepView, viewPlan } from "./plan-view.js";

/** A scheduled step: start and end are known. */
export type ScheduledStep = StepView & { readonly startMs: number; readonly endMs: number };

/**
 * @internal The plan's steps in schedule order (start time, then plan order),
 * or a `LangGoapError` naming what is missing and how to get a schedule.
 */
export function scheduledSteps(plan: Plan, caller: string, schedule?: readonly ScheduleEntry[]): ScheduledStep[] {
  const view = viewPlan(plan, schedule ? { schedule } : {});
  if (!view.scheduled) {
    const why = plan.isEmpty
      ? "the plan is empty"
      : `the plan has no schedule covering its ${plan.actions.length} step(s) (options.schedule or metadata.csp.schedule)`;
    throw new LangGoapError(
      "INVALID_OPTION",
      `${caller}: ${why}; schedule it with schedulePlan(plan) from langgoap/optimize (actions need durationMs) and pass { schedule }`,
      { caller, steps: plan.actions.length },
    );
  }
  return (view.steps as ScheduledStep[]).slice().sort((a, b) => a.startMs - b.startMs || a.index - b.index);
}
