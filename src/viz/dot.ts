import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Plan } from "../planner/index.js";
import { dotString } from "./dot-escape.js";
import { formatMs } from "./format.js";
import { formatCost, formatDuration, formatResource, type RenderOptions, type StepView, viewPlan } from "./plan-view.js";

function nodeLine(step: StepView, showCost: boolean, infeasible: boolean): string {
  const lines = [step.name];
  if (showCost) lines.push(`cost=${formatCost(step.cost)}`);
  const duration = formatDuration(step);
  if (duration) lines.push(`duration=${duration}`);
  const fill = infeasible ? ', fillcolor="#fdecea", color="#c0392b"' : "";
  return `s${step.index} [label="${lines.map(dotString).join("\\n")}"${fill}];`;
}

const RENDER_OPTIONS_KEYS = { showResources: true, showSchedule: true, schedule: true } as const satisfies OptionKeys<RenderOptions>;

/**
 * Renders a plan as a Graphviz DOT digraph: one box a step, causal
 * dependencies as edges (a dashed chain in plan order when there are none),
 * dashed clusters for steps that start together in a schedule, and a note
 * with resource totals.
 *
 * @example
 * ```ts
 * writeFileSync("plan.dot", renderDot(found)); // then: dot -Tsvg plan.dot > plan.svg
 * ```
 * @param plan - The plan to draw.
 * @param options - What to include.
 * @returns DOT source ending with a newline.
 */
export function renderDot(plan: Plan, options: RenderOptions = {}): string {
  checkOptionKeys(options, RENDER_OPTIONS_KEYS, "renderDot()");
  if (plan.isEmpty) return 'digraph Plan {\n    rankdir=TB;\n    empty [label="(empty plan)"];\n}\n';
  const view = viewPlan(plan, options);
  const showCost = view.steps.some((s) => s.cost !== 1);
  const out = [
    "digraph Plan {",
    "    rankdir=TB;",
    '    node [shape=box, style="rounded,filled", fillcolor="#e8f4ff", fontname="Helvetica"];',
  ];
  for (const step of view.steps) out.push(`    ${nodeLine(step, showCost, view.infeasible)}`);
  if (view.scheduled) {
    view.slots.forEach((slot, k) => {
      if (slot.steps.length < 2) return;
      const members = slot.steps.map((i) => `s${i};`).join(" ");
      out.push(`    subgraph cluster_${k} { label="${dotString(`t=${formatMs(slot.startMs)}`)}"; style="dashed"; ${members} }`);
    });
  }
  const edges = view.steps.flatMap((step) => step.after.map((i) => `    s${i} -> s${step.index};`));
  if (edges.length === 0 && view.steps.length > 1) {
    for (let i = 1; i < view.steps.length; i++) out.push(`    s${i - 1} -> s${i} [style=dashed];`);
  } else {
    out.push(...edges);
  }
  const notes: string[] = [];
  if (options.showResources !== false && view.resources.length > 0) {
    notes.push("Resources:", ...view.resources.map((r) => `  ${formatResource(r)}`));
  }
  if (view.makespanMs !== undefined) notes.push(`makespan: ${formatMs(view.makespanMs)}`);
  if (view.infeasible) notes.push("INFEASIBLE PLAN", ...view.explanation.map((l) => `  ${l}`));
  if (notes.length > 0) {
    const fill = view.infeasible ? "#fdecea" : "#fff8dc";
    out.push(`    legend [shape=note, fillcolor="${fill}", label="${notes.map((l) => `${dotString(l)}\\l`).join("")}"];`);
  }
  out.push("}");
  return `${out.join("\n")}\n`;
}
