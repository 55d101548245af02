import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Plan } from "../planner/index.js";
import { formatMs, formatNumber, labelText } from "./format.js";
import { formatCost, formatDuration, formatResource, type RenderOptions, type StepView, viewPlan } from "./plan-view.js";

function stepText(step: StepView, showCost: boolean): string {
  const parts = [`[${step.index}] ${labelText(step.name)}`];
  if (showCost) parts.push(`cost=${formatCost(step.cost)}`);
  const duration = formatDuration(step);
  if (duration) parts.push(`duration=${duration}`);
  if (step.after.length > 0) parts.push(`(after: [${step.after.join(", ")}])`);
  return parts.join("  ");
}

const RENDER_OPTIONS_KEYS = { showResources: true, showSchedule: true, schedule: true } as const satisfies OptionKeys<RenderOptions>;

/**
 * Renders a plan as a text tree for terminals and logs: one line a step with
 * its dependencies, parallel groups at the same start time when the plan is
 * scheduled, then resource totals and any infeasibility explanation.
 *
 * @example
 * ```ts
 * console.log(renderAscii(plan(start, { is_hungry: false }, actions)!));
 * // Plan (5 steps, cost=8)
 * // ├── [0] go_to_tree
 * // ├── [1] chop_wood  cost=2  (after: [0])
 * // ...
 * ```
 * @param plan - The plan to draw.
 * @param options - What to include.
 * @returns Text ending with a newline.
 */
export function renderAscii(plan: Plan, options: RenderOptions = {}): string {
  checkOptionKeys(options, RENDER_OPTIONS_KEYS, "renderAscii()");
  if (plan.isEmpty) return "Plan: (empty — goal already satisfied)\n";
  const view = viewPlan(plan, options);
  const showCost = view.steps.some((s) => s.cost !== 1);
  const header = [`${view.steps.length} step${view.steps.length === 1 ? "" : "s"}`, `cost=${formatNumber(view.totalCost)}`];
  if (view.makespanMs !== undefined) header.push(`makespan=${formatMs(view.makespanMs)}`);
  const lines = [`Plan (${header.join(", ")})${view.infeasible ? "  [INFEASIBLE]" : ""}`];

  if (view.scheduled) {
    view.slots.forEach((slot, k) => {
      const last = k === view.slots.length - 1;
      const branch = last ? "└──" : "├──";
      const at = `t=${formatMs(slot.startMs)}`;
      if (slot.steps.length === 1) {
        lines.push(`${branch} ${at}  ${stepText(view.steps[slot.steps[0] as number] as StepView, showCost)}`);
        return;
      }
      lines.push(`${branch} ${at} (parallel):`);
      for (const index of slot.steps) lines.push(`${last ? " " : "│"}     • ${stepText(view.steps[index] as StepView, showCost)}`);
    });
  } else {
    view.steps.forEach((step, k) => {
      lines.push(`${k === view.steps.length - 1 ? "└──" : "├──"} ${stepText(step, showCost)}`);
    });
  }

  if (options.showResources !== false && view.resources.length > 0) {
    lines.push("Resources:");
    for (const usage of view.resources) lines.push(`  ${labelText(formatResource(usage))}`);
  }
  if (view.infeasible) {
    lines.push("Infeasibility Explanation:");
    if (view.explanation.length === 0) lines.push("  (the refinement gave no explanation)");
    for (const line of view.explanation) lines.push(`  ${labelText(line)}`);
  }
  return `${lines.join("\n")}\n`;
}
