import { maxOf } from "../../core/extremes.js";
import { formatMs, formatNumber } from "../format.js";
import { escapeHtml, textWidth } from "./escape.js";
import type { StepOutcome } from "./svg-plan-graph.js";

/** One bar of the report's Gantt chart. */
export interface GanttBar {
  /** Plan step the bar belongs to (links it to the graph), if any. */
  readonly step: number | undefined;
  readonly label: string;
  readonly start: number;
  readonly end: number;
  readonly outcome: StepOutcome;
}

/** The chart and what its time axis counts. */
export interface GanttChart {
  readonly caption: string;
  /** `ms`: a time axis; `step`: one unit a step (no durations known). */
  readonly unit: "ms" | "step";
  readonly bars: readonly GanttBar[];
}

const FONT = 12;
const ROW_H = 26;
const BAR_H = 16;
const AXIS_H = 28;
const PLOT_W = 640;
const MARGIN = 12;

/** A round tick spacing giving about `target` ticks over `span`. */
function tickStep(span: number, target: number): number {
  const raw = span / target;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
  return 10 * power;
}

/**
 * @internal Draws a Gantt chart as an inline SVG: a label column, one row a
 * bar, and a time axis with round ticks. Each bar carries its step index so
 * the page can highlight it together with the graph node.
 */
export function renderGanttSvg(chart: GanttChart): string {
  const end = Math.max(1e-9, maxOf(chart.bars.map((b) => b.end)));
  const step = chart.unit === "step" ? Math.max(1, Math.ceil(end / 12)) : tickStep(end, 8);
  // The axis runs to the first tick at or after the last bar, so every bar ends under a labelled tick.
  const horizon = Math.ceil(end / step - 1e-9) * step;
  const labelW = Math.min(260, Math.max(80, maxOf(chart.bars.map((b) => textWidth(b.label, FONT) + 12))));
  const x0 = MARGIN + labelW;
  const scale = (v: number): number => x0 + (v / horizon) * PLOT_W;
  const height = AXIS_H + chart.bars.length * ROW_H + MARGIN;
  const width = x0 + PLOT_W + MARGIN + 24;
  const format = (v: number): string => (chart.unit === "step" ? formatNumber(v) : formatMs(v));
  const out = [
    `<svg class="gantt" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(chart.caption)}">`,
  ];
  for (let k = 0; k * step <= horizon + step * 1e-9; k++) {
    const t = k * step;
    const x = scale(t);
    out.push(`<line class="tick" x1="${x}" y1="${AXIS_H - 6}" x2="${x}" y2="${height - MARGIN}"/>`);
    out.push(`<text class="tick-label" x="${x}" y="${AXIS_H - 10}" text-anchor="middle">${escapeHtml(format(t))}</text>`);
  }
  chart.bars.forEach((bar, row) => {
    const y = AXIS_H + row * ROW_H;
    const stepAttribute = bar.step !== undefined ? ` data-step="${bar.step}"` : "";
    const span = `${format(bar.start)} – ${format(bar.end)}`;
    out.push(`<g class="bar ${bar.outcome}"${stepAttribute}>`);
    out.push(`<title>${escapeHtml(`${bar.label}: ${span} (${bar.outcome})`)}</title>`);
    out.push(`<text class="bar-label" x="${MARGIN}" y="${y + ROW_H / 2 + 4}">${escapeHtml(bar.label)}</text>`);
    if (bar.end > bar.start) {
      const x = scale(bar.start);
      out.push(`<rect x="${x}" y="${y + (ROW_H - BAR_H) / 2}" width="${Math.max(2, scale(bar.end) - x)}" height="${BAR_H}" rx="4"/>`);
    } else {
      // An instant: a diamond at its start.
      const cx = scale(bar.start);
      const cy = y + ROW_H / 2;
      out.push(`<path d="M${cx} ${cy - 7} L${cx + 7} ${cy} L${cx} ${cy + 7} L${cx - 7} ${cy} z"/>`);
    }
    out.push("</g>");
  });
  out.push("</svg>");
  return out.join("\n");
}
