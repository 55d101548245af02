import { describeValue, LangGoapError } from "../../core/errors.js";
import { maxOf } from "../../core/extremes.js";
import { formatMs, formatNumber } from "../format.js";
import { viewPlan } from "../plan-view.js";
import { elide, elisionText, MAX_VALUE_CHARS, type RenderBudget, renderBudget, utf8Length, withRenderBudget } from "./budget.js";
import { checkReport } from "./check-report.js";
import { escapeHtml, jsonForScript } from "./escape.js";
import {
  eventsSection,
  explanationSection,
  goalSection,
  historySection,
  resourcesSection,
  roundsSection,
  section,
  stateTable,
  stepsTable,
} from "./report-sections.js";
import type { RunReport } from "./report-types.js";
import { REPORT_SCRIPT } from "./script.js";
import { REPORT_CSS } from "./styles.js";
import { type GanttChart, renderGanttSvg } from "./svg-gantt.js";
import { renderPlanGraphSvg } from "./svg-plan-graph.js";
import { executionChart, plannedChart, stepOutcomes } from "./timeline.js";

const GOOD = new Set(["found", "goal_achieved", "optimal", "feasible"]);
const BAD = new Set(["no_plan", "failed", "error", "terminated", "budget_exhausted", "aborted", "infeasible"]);

function stat(value: string, label: string): string {
  return `<div class="stat"><b>${escapeHtml(value)}</b><span>${escapeHtml(label)}</span></div>`;
}

/** Default of {@link HtmlReportOptions.maxBytes}: 5 MB. */
export const DEFAULT_MAX_REPORT_BYTES = 5_000_000;

/** Smallest `maxBytes` accepted: room for the page's styles, script and a summary. */
const MIN_REPORT_BYTES = 64_000;

/** Fewest items of a list a capped report still draws, and fewest characters of a value. */
const MIN_ROWS = 20;
const MIN_CHARS = 200;

/** Options of {@link renderHtmlReport}. */
export interface HtmlReportOptions {
  /**
   * Largest page in bytes (UTF-8). A longer report draws the first and last
   * rows of each long list (history, events, rounds, steps, states) with a
   * marker row counting what it left out, then cuts long values shorter;
   * the embedded JSON is cut the same way and counts what it left out in
   * `elided`. At least 64,000.
   * @defaultValue 5,000,000 ({@link DEFAULT_MAX_REPORT_BYTES})
   */
  readonly maxBytes?: number;
}

/** A list cut to the budget for the embedded JSON: a marker string counts what is left out between the halves. */
function elidedData<T>(items: readonly T[], what: string, counts: Record<string, number>): (T | string)[] {
  const cut = elide(items);
  if (cut.elided === 0) return [...items];
  counts[what] = cut.elided;
  return [...cut.head, elisionText(cut.elided, items.length, what), ...cut.tail];
}

/** The report's machine-readable twin, embedded as JSON for scripts and tests. */
function reportData(report: RunReport): unknown {
  const elided: Record<string, number> = {};
  const data = {
    title: report.title ?? "langgoap run report",
    status: report.status ?? (report.plan ? "found" : "no_plan"),
    plan: report.plan
      ? {
          actions: elidedData(report.plan.actionNames, "plan actions", elided),
          totalCost: report.plan.totalCost,
          metadata: report.plan.metadata,
        }
      : null,
    executionHistory: elidedData(report.executionHistory ?? [], "executionHistory", elided),
    rounds: elidedData(report.rounds ?? [], "rounds", elided).map((r) =>
      typeof r === "string"
        ? r
        : {
            reason: r.reason,
            actions: r.plan ? elidedData(r.plan.actionNames, "round actions", elided) : null,
            totalCost: r.plan?.totalCost ?? null,
            planningMs: r.planningMs,
            ...(r.failure ? { failure: r.failure } : {}),
          },
    ),
    events: elidedData(report.events ?? [], "events", elided),
    explanation: report.explanation
      ? {
          ...report.explanation,
          unreachableConditions: elidedData(report.explanation.unreachableConditions, "unreachableConditions", elided),
          missingPreconditions: elidedData(report.explanation.missingPreconditions, "missingPreconditions", elided),
          unusableActions: elidedData(report.explanation.unusableActions, "unusableActions", elided),
        }
      : null,
  };
  return Object.keys(elided).length > 0 ? { ...data, elided, valueChars: renderBudget().chars } : data;
}

/** A chart cut to the budget: the first and last bars, the caption counting the rest. */
function elidedChart(chart: GanttChart): GanttChart {
  const cut = elide(chart.bars);
  if (cut.elided === 0) return chart;
  return { ...chart, caption: `${chart.caption} ${elisionText(cut.elided, chart.bars.length, "bars")}`, bars: [...cut.head, ...cut.tail] };
}

/** The longest list in the report: how many rows a budget could cut. */
function longestList(report: RunReport): number {
  const lengths = [
    report.executionHistory?.length ?? 0,
    report.events?.length ?? 0,
    report.rounds?.length ?? 0,
    report.plan?.length ?? 0,
    Object.keys(report.startState ?? {}).length,
    Object.keys(report.finalState ?? {}).length,
    ...(report.rounds ?? []).map((r) => r.plan?.length ?? 0),
  ];
  return Math.max(0, maxOf(lengths));
}

function safeData(report: RunReport): string {
  try {
    return jsonForScript(reportData(report));
  } catch {
    // Metadata with cycles or BigInts must not stop the page from rendering.
    return jsonForScript({ title: report.title ?? "langgoap run report", status: report.status ?? null });
  }
}

/** The plan as an SVG graph, unless its steps are more than the budget draws (then the steps table stands alone). */
function planGraph(view: ReturnType<typeof viewPlan>, outcomes: Parameters<typeof renderPlanGraphSvg>[1]): string {
  if (view.steps.length > renderBudget().rows) {
    return `<p class="muted elided">The plan graph of ${view.steps.length} steps is not drawn: the report is size-capped (maxBytes).</p>`;
  }
  return `<div class="graph">${renderPlanGraphSvg(view, outcomes)}</div>`;
}

/**
 * Renders a self-contained HTML page of a planning run or a graph run: a
 * summary, the goal and start state, the plan as an SVG graph, a step table,
 * Gantt charts of the plan (its schedule when refined) and of the executed
 * actions, planning rounds with replan reasons, the execution history, the
 * no-plan explanation, resources, and the tracer timeline with filters.
 * Styles, script and drawings are inline: the file opens offline, requests
 * nothing from the network, and is readable even with scripts off.
 *
 * Everything in a report is treated as data (histories come back from
 * stores and checkpoints): its shape is checked first, every value is
 * HTML-escaped with control and bidi characters shown as visible escapes
 * (`\u001b`), and any value longer than 2,000 characters — on the page and
 * in the embedded JSON — is cut with a marker saying how much was cut.
 * The whole page is bounded too (`maxBytes`, 5 MB by default): a long
 * run's lists keep their first and last rows around a marker row that
 * counts what was left out, and values are cut shorter if need be.
 *
 * @example
 * ```ts
 * const recorder = new ReportRecorder();
 * const final = await new GoapGraph(actions, { tracer: recorder }).invoke(goal, start);
 * writeFileSync("run.html", renderHtmlReport(recorder.toReport({
 *   title: "Villager", goal, startState: start, plan: recorder.lastPlan,
 *   status: final.status, finalState: final.worldState, executionHistory: final.executionHistory,
 * })));
 * ```
 * @param report - What to show; only `plan` is required.
 * @param options - `maxBytes`: the largest page, in bytes.
 * @returns A complete HTML document.
 * @throws LangGoapError `INVALID_OPTION` naming the first field of the wrong shape, e.g.
 *   `report.executionHistory[3].attempts must be a non-negative integer`.
 */
export function renderHtmlReport(report: RunReport, options: HtmlReportOptions = {}): string {
  checkReport(report);
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_REPORT_BYTES;
  if (typeof maxBytes !== "number" || !(maxBytes >= MIN_REPORT_BYTES)) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `renderHtmlReport: maxBytes must be a number of bytes >= ${MIN_REPORT_BYTES}, got ${describeValue(maxBytes)}`,
      { option: "maxBytes" },
    );
  }
  const render = (budget: RenderBudget): { html: string; bytes: number } => {
    const html = withRenderBudget(budget, () => renderPage(report));
    return { html, bytes: utf8Length(html) };
  };
  const longest = longestList(report);
  let chars = MAX_VALUE_CHARS;
  let rows = Number.POSITIVE_INFINITY;
  if (longest > 2 * MIN_ROWS * 10) {
    // Size grows about linearly with the rows drawn: two small samples give the rows that fit, without drawing them all first.
    const a = render({ rows: MIN_ROWS * 5, chars }).bytes;
    const b = render({ rows: MIN_ROWS * 10, chars }).bytes;
    const perRow = Math.max(1, (b - a) / (MIN_ROWS * 5));
    const fit = Math.floor(((maxBytes - a) / perRow) * 0.95) + MIN_ROWS * 5;
    if (fit < longest) rows = Math.max(MIN_ROWS, fit);
  }
  // Each try that is still too big shrinks the rows drawn in proportion, then the characters of each value.
  for (let attempt = 0; attempt < 12; attempt++) {
    const page = render({ rows, chars });
    if (page.bytes <= maxBytes) return page.html;
    const shown = Math.min(rows, longest);
    if (shown > MIN_ROWS) rows = Math.max(MIN_ROWS, Math.floor(shown * (maxBytes / page.bytes) * 0.9));
    else if (chars > MIN_CHARS) chars = Math.max(MIN_CHARS, Math.floor(chars / 4));
    else break;
  }
  return summaryPage(report, maxBytes);
}

/**
 * The last resort when even the smallest budget does not fit (a state of
 * a hundred thousand long facts, say): the title, the status and what the
 * run held, counted.
 */
function summaryPage(report: RunReport, maxBytes: number): string {
  const title = report.title ?? "langgoap run report";
  const status = report.status ?? (report.plan ? "found" : "no_plan");
  const counts = [
    ["plan steps", report.plan?.length ?? 0],
    ["executed actions", report.executionHistory?.length ?? 0],
    ["planning rounds", report.rounds?.length ?? 0],
    ["trace events", report.events?.length ?? 0],
    ["start facts", Object.keys(report.startState ?? {}).length],
    ["final facts", Object.keys(report.finalState ?? {}).length],
  ] as const;
  return withRenderBudget({ rows: MIN_ROWS, chars: MIN_CHARS }, () => {
    const rows = counts.map(([what, n]) => `<tr><td>${what}</td><td>${n}</td></tr>`).join("");
    return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<span class="badge" id="status">${escapeHtml(status)}</span>
</header>
<main>
<p class="note bad">This report would be larger than its cap of ${maxBytes} bytes (maxBytes) even with every list cut to ${MIN_ROWS} rows and every value to ${MIN_CHARS} characters, so only its summary is shown.</p>
<table><tbody>${rows}</tbody></table>
</main>
<script type="application/json" id="langgoap-report">${jsonForScript({ title, status, summaryOnly: true, counts: Object.fromEntries(counts) })}</script>
</body>
</html>
`;
  });
}

/** One page under the render budget in effect. */
function renderPage(report: RunReport): string {
  const title = report.title ?? "langgoap run report";
  const status = report.status ?? (report.plan ? "found" : "no_plan");
  const history = report.executionHistory ?? [];
  const view = report.plan ? viewPlan(report.plan, report.schedule ? { schedule: report.schedule } : {}) : undefined;
  const outcomes = view ? stepOutcomes(view, history) : new Map();
  const badge = GOOD.has(status) ? "ok" : BAD.has(status) ? "bad" : "";

  const stats: string[] = [];
  if (report.plan) {
    stats.push(stat(String(report.plan.length), report.plan.length === 1 ? "step" : "steps"));
    stats.push(stat(formatNumber(report.plan.totalCost), "total cost"));
    if (view?.makespanMs !== undefined) stats.push(stat(formatMs(view.makespanMs), "makespan"));
  }
  const replans = report.replanCount ?? (report.rounds ? Math.max(0, report.rounds.length - 1) : undefined);
  if (replans !== undefined) stats.push(stat(String(replans), "replans"));
  if (history.length) stats.push(stat(`${history.filter((r) => r.success).length}/${history.length}`, "actions succeeded"));
  const searched = report.stats ?? report.plan?.metadata;
  if (searched) {
    stats.push(stat(String(searched.nodesExpanded), "nodes expanded"));
    stats.push(stat(formatMs(searched.planningTimeMs), "planning time"));
  }

  const sections: string[] = [goalSection(report)];
  if (report.plan && view) {
    const strategy = report.plan.metadata.strategy;
    sections.push(
      section(
        "plan",
        "Plan",
        `<p class="muted">Found by <code>${escapeHtml(String(strategy))}</code>. Arrows are causal links: a step runs after the steps that set what it needs.</p>` +
          `${planGraph(view, outcomes)}\n${stepsTable(view, outcomes)}`,
      ),
    );
    const planned = plannedChart(view, outcomes);
    const executed = executionChart(history);
    const charts = [planned, executed]
      .filter((c) => c !== undefined)
      .map(elidedChart)
      .map((c) => `<figure><figcaption class="muted">${escapeHtml(c.caption)}</figcaption>${renderGanttSvg(c)}</figure>`);
    if (charts.length) sections.push(section("gantt", "Gantt", charts.join("\n")));
    sections.push(resourcesSection(view));
  } else {
    sections.push(section("plan", "Plan", '<p class="note bad">No plan was found.</p>'));
  }
  if (report.explanation) sections.push(explanationSection(report.explanation));
  sections.push(roundsSection(report.rounds ?? [], report.replanCount));
  sections.push(historySection(history));
  sections.push(eventsSection(report.events ?? [], report.droppedEvents ?? 0));
  if (report.finalState) sections.push(section("final-state", "Final world state", stateTable(report.finalState)));

  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${REPORT_CSS}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<span class="badge ${badge}" id="status">${escapeHtml(status)}</span>
<div class="summary">${stats.join("")}</div>
</header>
<main>
${sections.filter(Boolean).join("\n")}
</main>
<footer>Generated by langgoap. This page is self-contained: it loads nothing from the network.</footer>
<script type="application/json" id="langgoap-report">${safeData(report)}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}
