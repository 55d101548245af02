import { maxOf } from "../core/extremes.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Plan, ScheduleEntry } from "../planner/index.js";
import { formatMs } from "./format.js";
import { ganttTaskText, mermaidComment, mermaidNodeId, mermaidText } from "./mermaid-text.js";
import {
  formatCost,
  formatDuration,
  formatResource,
  type PlanView,
  type RenderOptions,
  SCHEDULE_OPTION_KEYS,
  type StepView,
  viewPlan,
} from "./plan-view.js";
import { scheduledSteps } from "./schedule.js";

const CLASS_DEFS = [
  "classDef action fill:#f8f9fa,stroke:#4a90d9,stroke-width:2px,color:#1a1a2e",
  "classDef infeasible fill:#fdecea,stroke:#c0392b,stroke-width:2px,color:#7b1d12",
];

function nodeLine(step: StepView, showCost: boolean): string {
  const lines = [mermaidText(step.name)];
  if (showCost) lines.push(`cost ${formatCost(step.cost)}`);
  const duration = formatDuration(step);
  if (duration) lines.push(`⏱ ${duration}`);
  return `${mermaidNodeId(step)}["${lines.join("<br/>")}"]:::action`;
}

function edgeLines(view: PlanView): string[] {
  const edges = view.steps.flatMap((step) =>
    step.after.map((i) => `${mermaidNodeId(view.steps[i] as StepView)} --> ${mermaidNodeId(step)}`),
  );
  if (edges.length > 0 || view.steps.length < 2) return edges;
  // No causal links at all: show the plan order as a dotted chain.
  return view.steps.slice(1).map((step, k) => `${mermaidNodeId(view.steps[k] as StepView)} -.-> ${mermaidNodeId(step)}`);
}

const RENDER_OPTIONS_KEYS = { showResources: true, showSchedule: true, schedule: true } as const satisfies OptionKeys<RenderOptions>;

/**
 * Renders a plan as a Mermaid flowchart: one node a step (cost shown when
 * not 1, duration when declared), causal dependencies as arrows, parallel
 * groups as subgraphs when the plan is scheduled, resource totals as
 * comments and a warning node when constraint refinement found the plan
 * infeasible.
 *
 * @example
 * ```ts
 * renderMermaid(found);
 * // flowchart TD
 * //     s0_go_to_tree["go_to_tree"]:::action
 * //     s1_chop_wood["chop_wood<br/>cost 2"]:::action
 * //     s0_go_to_tree --> s1_chop_wood
 * ```
 * @param plan - The plan to draw.
 * @param options - What to include.
 * @returns Mermaid source ending with a newline.
 */
export function renderMermaid(plan: Plan, options: RenderOptions = {}): string {
  checkOptionKeys(options, RENDER_OPTIONS_KEYS, "renderMermaid()");
  if (plan.isEmpty) return 'flowchart TD\n    empty["(empty plan)"]\n';
  const view = viewPlan(plan, options);
  const showCost = view.steps.some((s) => s.cost !== 1);
  const out = ["flowchart TD", ...CLASS_DEFS.map((c) => `    ${c}`)];
  if (view.scheduled) {
    view.slots.forEach((slot, k) => {
      if (slot.steps.length === 1) {
        out.push(`    ${nodeLine(view.steps[slot.steps[0] as number] as StepView, showCost)}`);
        return;
      }
      out.push(`    subgraph slot_${k}["${mermaidText(`t=${formatMs(slot.startMs)}`)}"]`);
      for (const i of slot.steps) out.push(`        ${nodeLine(view.steps[i] as StepView, showCost)}`);
      out.push("    end");
    });
  } else {
    for (const step of view.steps) out.push(`    ${nodeLine(step, showCost)}`);
  }
  for (const edge of edgeLines(view)) out.push(`    ${edge}`);
  if (options.showResources !== false && view.resources.length > 0) {
    out.push("    %% Resource usage");
    for (const usage of view.resources) out.push(`    %%   ${mermaidComment(formatResource(usage))}`);
  }
  if (view.infeasible) {
    const details = [
      ...view.resources.filter((r) => !r.satisfied).map(formatResource),
      ...view.explanation.filter((l) => l.startsWith("Suggestion:")),
    ];
    out.push(`    infeasible{{"${["INFEASIBLE PLAN", ...details].map(mermaidText).join("<br/>")}"}}:::infeasible`);
    out.push(`    infeasible -.- ${mermaidNodeId(view.steps[0] as StepView)}`);
  }
  return `${out.join("\n")}\n`;
}

function axisFormat(horizonMs: number): string {
  if (horizonMs < 1000) return "%Lms";
  if (horizonMs < 60_000) return "%S.%Ls";
  return "%M:%S";
}

/**
 * Renders a scheduled plan as a Mermaid Gantt chart (times in milliseconds
 * from the plan start).
 *
 * @example
 * ```ts
 * renderMermaidGantt(found, { schedule: (await schedulePlan(found)).schedule });
 * // gantt
 * //     title Plan Schedule
 * //     dateFormat x
 * //     ...
 * //     boil_water :t0, 0, 2000ms
 * ```
 * @param plan - The plan; its `metadata.csp.schedule` is drawn unless `options.schedule` is given.
 * @param options - `schedule`: a schedule to draw instead (e.g. from `schedulePlan`).
 * @returns Mermaid source ending with a newline.
 * @throws LangGoapError `INVALID_OPTION` when the plan has no schedule.
 */
export function renderMermaidGantt(plan: Plan, options: { readonly schedule?: readonly ScheduleEntry[] } = {}): string {
  checkOptionKeys(options, SCHEDULE_OPTION_KEYS, "renderMermaidGantt()");
  const steps = scheduledSteps(plan, "renderMermaidGantt", options.schedule);
  const horizon = maxOf(steps.map((s) => s.endMs));
  const out = ["gantt", "    title Plan Schedule", "    dateFormat x", `    axisFormat ${axisFormat(horizon)}`, "    section Plan"];
  for (const step of steps) {
    // Mermaid cannot draw a zero-length task; 1ms keeps instants visible.
    const duration = Math.max(1, Math.round(step.endMs - step.startMs));
    out.push(`    ${ganttTaskText(step.name)} :t${step.index}, ${Math.round(step.startMs)}, ${duration}ms`);
  }
  return `${out.join("\n")}\n`;
}
