import type { PlanView } from "../plan-view.js";
import type { ReportActionResult } from "./report-types.js";
import type { GanttChart } from "./svg-gantt.js";
import type { StepOutcome } from "./svg-plan-graph.js";

/**
 * @internal How each step of the drawn plan fared. The drawn plan is the
 * last one a run adopted, so its executed steps are the tail of the
 * execution history: the longest tail whose action names match the plan's
 * first steps in order. Steps beyond it are still only planned.
 */
export function stepOutcomes(view: PlanView, history: readonly ReportActionResult[]): Map<number, StepOutcome> {
  const outcomes = new Map<number, StepOutcome>();
  const n = Math.min(view.steps.length, history.length);
  for (let m = n; m >= 1; m--) {
    const tail = history.slice(history.length - m);
    if (tail.every((r, k) => r.actionName === view.steps[k]?.name)) {
      tail.forEach((r, k) => {
        outcomes.set(k, r.success ? "succeeded" : "failed");
      });
      break;
    }
  }
  return outcomes;
}

/**
 * @internal The plan's chart: its optimized schedule when it has one,
 * otherwise the steps end to end with their declared durations, otherwise
 * one unit a step.
 */
export function plannedChart(view: PlanView, outcomes: ReadonlyMap<number, StepOutcome>): GanttChart | undefined {
  if (view.steps.length === 0) return undefined;
  const outcome = (i: number): StepOutcome => outcomes.get(i) ?? "planned";
  if (view.scheduled) {
    return {
      caption: "Schedule from constraint refinement (parallel where dependencies allow)",
      unit: "ms",
      bars: view.steps
        .slice()
        .sort((a, b) => (a.startMs as number) - (b.startMs as number) || a.index - b.index)
        .map((s) => ({
          step: s.index,
          label: `[${s.index}] ${s.name}`,
          start: s.startMs as number,
          end: s.endMs as number,
          outcome: outcome(s.index),
        })),
    };
  }
  const timed = view.steps.some((s) => (s.durationMs ?? 0) > 0);
  let t = 0;
  return {
    caption: timed
      ? "Plan order with declared durations, end to end (not scheduled: no parallelism shown)"
      : "Plan order, one unit a step (no durations declared)",
    unit: timed ? "ms" : "step",
    bars: view.steps.map((s) => {
      const start = t;
      t += timed ? (s.durationMs ?? 0) : 1;
      return { step: s.index, label: `[${s.index}] ${s.name}`, start, end: t, outcome: outcome(s.index) };
    }),
  };
}

/** @internal The run's executed actions end to end with their measured durations. */
export function executionChart(history: readonly ReportActionResult[]): GanttChart | undefined {
  if (history.length === 0) return undefined;
  const timed = history.some((r) => (r.durationMs ?? 0) > 0);
  let t = 0;
  return {
    caption: timed ? "Executed actions with measured durations, end to end" : "Executed actions in order (no durations measured)",
    unit: timed ? "ms" : "step",
    bars: history.map((r, i) => {
      const start = t;
      t += timed ? (r.durationMs ?? 0) : 1;
      return { step: undefined, label: `${i + 1}. ${r.actionName}`, start, end: t, outcome: r.success ? "succeeded" : "failed" };
    }),
  };
}
