import { displayText } from "../../core/display-text.js";
import { maxOf, minOf } from "../../core/extremes.js";
import { formatConditions, formatEffects } from "../describe.js";
import { formatCost, formatDuration, type PlanView, type StepView } from "../plan-view.js";
import { escapeHtml, escapeHtmlLines, MAX_VALUE_CHARS, textWidth } from "./escape.js";

/** How a step fared in a run, for colouring. */
export type StepOutcome = "succeeded" | "failed" | "planned";

const FONT = 13;
const NODE_H = 46;
const GAP_X = 56;
const GAP_Y = 18;
const PILL_W = 72;
const PILL_H = 32;
const MARGIN = 16;

interface Box {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/**
 * Column of each step, as late as its successors allow: leaves share the
 * last column and every other step sits just before its earliest
 * successor, so the common short links never pass behind another node.
 * Steps with no links at all keep plan order.
 */
function columns(view: PlanView, chained: boolean): number[] {
  if (chained) return view.steps.map((s) => s.index + 1);
  const earliest: number[] = [];
  for (const step of view.steps) earliest[step.index] = 1 + Math.max(0, maxOf(step.after.map((i) => earliest[i] as number)));
  const last = maxOf(earliest);
  const successors: number[][] = view.steps.map(() => []);
  for (const step of view.steps) for (const dep of step.after) successors[dep]?.push(step.index);
  const column: number[] = [];
  for (let i = view.steps.length - 1; i >= 0; i--) {
    const next = successors[i] as number[];
    column[i] = next.length === 0 ? last : minOf(next.map((j) => column[j] as number)) - 1;
  }
  return column;
}

function edgePath(from: Box, to: Box): string {
  const x1 = from.x + from.w;
  const y1 = from.y + from.h / 2;
  const x2 = to.x;
  const y2 = to.y + to.h / 2;
  const dx = Math.max(20, (x2 - x1) / 2);
  return `M${x1} ${y1} C${x1 + dx} ${y1}, ${x2 - dx} ${y2}, ${x2 - 6} ${y2}`;
}

/** The visible form of a label (control characters escaped), shortened to fit its box. */
function truncate(text: string, maxChars: number): string {
  const shown = displayText(text, { maxChars: MAX_VALUE_CHARS });
  return shown.length <= maxChars ? shown : `${shown.slice(0, Math.max(1, maxChars - 1))}…`;
}

function stepTooltip(step: StepView): string[] {
  const lines = [`[${step.index}] ${step.name}`, `cost: ${formatCost(step.cost)}`];
  const duration = formatDuration(step);
  if (duration) lines.push(`duration: ${duration}`);
  const pre = formatConditions(step.action.preconditions);
  lines.push(`preconditions: ${pre.length ? pre.join(", ") : "none"}`);
  lines.push(`effects: ${formatEffects(step.action).join(", ") || "none"}`);
  if (step.after.length) lines.push(`after steps: ${step.after.join(", ")}`);
  return lines;
}

/**
 * @internal Draws the plan as an inline SVG: start on the left, steps in
 * columns by dependency depth, the goal on the right, arrows for causal
 * links. Sizes come from the labels so no script or font metrics are needed.
 */
export function renderPlanGraphSvg(view: PlanView, outcomes: ReadonlyMap<number, StepOutcome> = new Map()): string {
  if (view.steps.length === 0) {
    return `<svg class="plan-graph" xmlns="http://www.w3.org/2000/svg" width="360" height="64" viewBox="0 0 360 64" role="img" aria-label="empty plan"><rect class="pill" x="16" y="16" width="328" height="32" rx="16"/><text class="pill-text" x="180" y="37" text-anchor="middle">goal already satisfied (empty plan)</text></svg>`;
  }
  const chained = view.steps.length > 1 && view.steps.every((s) => s.after.length === 0);
  const column = columns(view, chained);
  const lastColumn = maxOf(column);
  const maxLabel = maxOf(view.steps.map((s) => textWidth(`[${s.index}] ${s.name}`, FONT)));
  const nodeW = Math.min(300, Math.max(140, maxLabel + 24));
  const maxChars = Math.floor((nodeW - 24) / (FONT * 0.62));
  const byColumn: number[][] = Array.from({ length: lastColumn + 2 }, () => []);
  for (const step of view.steps) byColumn[column[step.index] as number]?.push(step.index);
  const tallest = maxOf(byColumn.map((c) => c.length));
  const height = MARGIN * 2 + tallest * NODE_H + (tallest - 1) * GAP_Y;
  const columnX = (c: number): number => (c === 0 ? MARGIN : MARGIN + PILL_W + GAP_X + (c - 1) * (nodeW + GAP_X));
  const boxes = new Map<number, Box>();
  byColumn.forEach((members, c) => {
    const top = (height - (members.length * NODE_H + (members.length - 1) * GAP_Y)) / 2;
    members.forEach((i, row) => {
      boxes.set(i, { x: columnX(c), y: top + row * (NODE_H + GAP_Y), w: nodeW, h: NODE_H });
    });
  });
  const start: Box = { x: MARGIN, y: (height - PILL_H) / 2, w: PILL_W, h: PILL_H };
  const goal: Box = { x: columnX(lastColumn + 1), y: (height - PILL_H) / 2, w: PILL_W, h: PILL_H };
  const width = goal.x + PILL_W + MARGIN;

  const edges: string[] = [];
  const edge = (from: Box, to: Box, cls: string, fromStep?: number, toStep?: number): void => {
    const data = `${fromStep !== undefined ? ` data-from="${fromStep}"` : ""}${toStep !== undefined ? ` data-to="${toStep}"` : ""}`;
    edges.push(`<path class="edge ${cls}"${data} d="${edgePath(from, to)}" marker-end="url(#arrow)"/>`);
  };
  const hasSuccessor = new Set<number>();
  if (chained) {
    for (let i = 1; i < view.steps.length; i++) {
      edge(boxes.get(i - 1) as Box, boxes.get(i) as Box, "order", i - 1, i);
      hasSuccessor.add(i - 1);
    }
  } else {
    for (const step of view.steps) {
      for (const dep of step.after) {
        edge(boxes.get(dep) as Box, boxes.get(step.index) as Box, "dependency", dep, step.index);
        hasSuccessor.add(dep);
      }
    }
  }
  for (const step of view.steps) {
    const box = boxes.get(step.index) as Box;
    // Start links only to the first column: longer ones would pass behind other steps.
    if (column[step.index] === 1 && (chained || step.after.length === 0)) edge(start, box, "terminal", undefined, step.index);
    if (!hasSuccessor.has(step.index)) edge(box, goal, "terminal", step.index, undefined);
  }

  const nodes = view.steps.map((step) => {
    const box = boxes.get(step.index) as Box;
    const outcome = outcomes.get(step.index) ?? "planned";
    const details = [`cost ${formatCost(step.cost)}`];
    const duration = formatDuration(step);
    if (duration) details.push(duration);
    return [
      `<g class="node ${outcome}" data-step="${step.index}" tabindex="0">`,
      `<title>${escapeHtmlLines(stepTooltip(step))}</title>`,
      `<rect x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" rx="8"/>`,
      `<text class="node-name" x="${box.x + 12}" y="${box.y + 19}">${escapeHtml(truncate(`[${step.index}] ${step.name}`, maxChars))}</text>`,
      `<text class="node-detail" x="${box.x + 12}" y="${box.y + 36}">${escapeHtml(details.join(" · "))}</text>`,
      "</g>",
    ].join("");
  });
  const pill = (box: Box, text: string, cls: string): string =>
    `<g class="${cls}"><rect class="pill" x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" rx="${box.h / 2}"/><text class="pill-text" x="${box.x + box.w / 2}" y="${box.y + box.h / 2 + 4}" text-anchor="middle">${text}</text></g>`;

  return [
    `<svg class="plan-graph" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="plan graph with ${view.steps.length} steps">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="4" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" class="arrow-head"/></marker></defs>',
    ...edges,
    pill(start, "start", "start"),
    pill(goal, "goal", "goal"),
    ...nodes,
    "</svg>",
  ].join("\n");
}
