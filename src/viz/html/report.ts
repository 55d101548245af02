import { formatMs, formatNumber } from "../format.js";
import { viewPlan } from "../plan-view.js";
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
import { renderGanttSvg } from "./svg-gantt.js";
import { renderPlanGraphSvg } from "./svg-plan-graph.js";
import { executionChart, plannedChart, stepOutcomes } from "./timeline.js";

const GOOD = new Set(["found", "goal_achieved", "optimal", "feasible"]);
const BAD = new Set(["no_plan", "failed", "error", "terminated", "budget_exhausted", "aborted", "infeasible"]);

function stat(value: string, label: string): string {
  return `<div class="stat"><b>${escapeHtml(value)}</b><span>${escapeHtml(label)}</span></div>`;
}

/** The report's machine-readable twin, embedded as JSON for scripts and tests. */
function reportData(report: RunReport): unknown {
  return {
    title: report.title ?? "langgoap run report",
    status: report.status ?? (report.plan ? "found" : "no_plan"),
    plan: report.plan ? { actions: report.plan.actionNames, totalCost: report.plan.totalCost, metadata: report.plan.metadata } : null,
    executionHistory: report.executionHistory ?? [],
    rounds: (report.rounds ?? []).map((r) => ({
      reason: r.reason,
      actions: r.plan?.actionNames ?? null,
      totalCost: r.plan?.totalCost ?? null,
      planningMs: r.planningMs,
      ...(r.failure ? { failure: r.failure } : {}),
    })),
    events: report.events ?? [],
    explanation: report.explanation ?? null,
  };
}

function safeData(report: RunReport): string {
  try {
    return jsonForScript(reportData(report));
  } catch {
    // Metadata with cycles or BigInts must not stop the page from rendering.
    return jsonForScript({ title: report.title ?? "langgoap run report", status: report.status ?? null });
  }
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
 * @returns A complete HTML document.
 * @throws LangGoapError `INVALID_OPTION` naming the first field of the wrong shape, e.g.
 *   `report.executionHistory[3].attempts must be a non-negative integer`.
 */
export function renderHtmlReport(report: RunReport): string {
  checkReport(report);
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
          `<div class="graph">${renderPlanGraphSvg(view, outcomes)}</div>\n${stepsTable(view, outcomes)}`,
      ),
    );
    const planned = plannedChart(view, outcomes);
    const executed = executionChart(history);
    const charts = [planned, executed]
      .filter((c) => c !== undefined)
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
