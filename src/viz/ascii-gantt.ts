import { describeValue, LangGoapError } from "../core/errors.js";
import { maxOf } from "../core/extremes.js";
import type { Plan, ScheduleEntry } from "../planner/index.js";
import { formatMs, labelText } from "./format.js";
import { scheduledSteps } from "./schedule.js";

/** Options of {@link renderAsciiGantt}. */
export interface AsciiGanttOptions {
  /** Width of the time axis in characters (an integer >= 10). @defaultValue 60 */
  readonly width?: number;
  /** A schedule to draw instead of `metadata.csp.schedule` (e.g. from `schedulePlan`). */
  readonly schedule?: readonly ScheduleEntry[];
}

/**
 * Renders a scheduled plan as a text Gantt chart: one row a step, `#` bars
 * scaled to the makespan, the interval at the end of each row. A step with
 * no duration is drawn as a single `|` at its start.
 *
 * @example
 * ```ts
 * const { schedule } = await schedulePlan(found); // from langgoap/optimize
 * console.log(renderAsciiGantt(found, { schedule, width: 40 }));
 * // action      |----------------------------------------|  0..5s
 * // boil_water  |################                        |  0ms-2s
 * ```
 * @param plan - The plan; its `metadata.csp.schedule` is drawn unless `options.schedule` is given.
 * @param options - Chart width and schedule.
 * @returns Text ending with a newline.
 * @throws LangGoapError `INVALID_OPTION` when the plan has no schedule or the width is not an integer >= 10.
 */
export function renderAsciiGantt(plan: Plan, options: AsciiGanttOptions = {}): string {
  const width = options.width ?? 60;
  if (!Number.isInteger(width) || width < 10) {
    throw new LangGoapError("INVALID_OPTION", `renderAsciiGantt: width must be an integer >= 10, got ${describeValue(width)}`, {
      field: "width",
      value: width,
    });
  }
  const steps = scheduledSteps(plan, "renderAsciiGantt", options.schedule);
  const horizon = maxOf(steps.map((s) => s.endMs));
  const column = (ms: number): number => (horizon > 0 ? Math.round((ms / horizon) * width) : 0);
  const names = steps.map((s) => labelText(s.name));
  const nameWidth = Math.max("action".length, maxOf(names.map((name) => name.length)));
  const lines = [`${"action".padEnd(nameWidth)}  |${"-".repeat(width)}|  0..${formatMs(horizon)}`];
  steps.forEach((step, k) => {
    const from = Math.min(column(step.startMs), width - 1);
    const instant = step.endMs <= step.startMs;
    const to = instant ? from + 1 : Math.max(from + 1, Math.min(column(step.endMs), width));
    const bar = " ".repeat(from) + (instant ? "|" : "#".repeat(to - from)) + " ".repeat(width - to);
    lines.push(`${(names[k] as string).padEnd(nameWidth)}  |${bar}|  ${formatMs(step.startMs)}-${formatMs(step.endMs)}`);
  });
  return `${lines.join("\n")}\n`;
}
