import type { WorldState } from "../../core/facts.js";
import type { NoPlanExplanation } from "../../planner/index.js";
import { describeGoal, formatConditions, formatEffects } from "../describe.js";
import { formatMs, formatNumber, formatValue } from "../format.js";
import { formatCost, formatDuration, formatResource, type PlanView } from "../plan-view.js";
import { elide, elidedRows, elisionText } from "./budget.js";
import { escapeHtml } from "./escape.js";
import type { PlanningRound, ReportActionResult, ReportEvent, RunReport } from "./report-types.js";
import type { StepOutcome } from "./svg-plan-graph.js";

const e = escapeHtml;

/** @internal A `<section>` with a heading and an id for links. */
export function section(id: string, title: string, body: string): string {
  return `<section id="${id}" aria-labelledby="${id}-title"><h2 id="${id}-title">${e(title)}</h2>\n${body}\n</section>`;
}

function list(items: readonly string[], empty: string): string {
  if (items.length === 0) return `<p class="muted">${e(empty)}</p>`;
  const cut = elide(items);
  const li = (i: string) => `<li><code>${e(i)}</code></li>`;
  const marker = cut.elided > 0 ? `<li class="elided">${elisionText(cut.elided, items.length, "items")}</li>` : "";
  return `<ul class="plain">${cut.head.map(li).join("")}${marker}${cut.tail.map(li).join("")}</ul>`;
}

/** @internal Key/value table of a world state. */
export function stateTable(state: Readonly<WorldState>): string {
  const keys = Object.keys(state).sort();
  if (keys.length === 0) return '<p class="muted">(empty)</p>';
  const rows = elidedRows(
    keys,
    2,
    "facts",
    (k) => `<tr><td><code>${e(k)}</code></td><td><code>${e(formatValue(state[k]))}</code></td></tr>`,
  );
  return `<table><thead><tr><th>fact</th><th>value</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** @internal The goal and the start state. */
export function goalSection(report: RunReport): string {
  const parts: string[] = [];
  if (report.goal) parts.push(`<h3>Goal</h3>${list(describeGoal(report.goal), "(no conditions)")}`);
  if (report.startState) parts.push(`<details open><summary>Start state</summary>${stateTable(report.startState)}</details>`);
  return parts.length ? section("goal", "Goal and start", parts.join("\n")) : "";
}

/** @internal One row a step: cost, duration, preconditions, effects and how it fared. */
export function stepsTable(view: PlanView, outcomes: ReadonlyMap<number, StepOutcome>): string {
  const rows = elidedRows(view.steps, 8, "steps", (s) => {
    const outcome = outcomes.get(s.index) ?? "planned";
    const pre = formatConditions(s.action.preconditions).join(", ") || "—";
    const eff = formatEffects(s.action).join(", ") || "—";
    const timing = s.startMs !== undefined ? `${formatMs(s.startMs)} → ${formatMs(s.endMs as number)}` : formatDuration(s) || "—";
    return (
      `<tr data-step="${s.index}"><td>${s.index}</td><td><code class="action-name">${e(s.name)}</code></td>` +
      `<td>${e(formatCost(s.cost))}</td><td>${e(timing)}</td><td><code>${e(pre)}</code></td><td><code>${e(eff)}</code></td>` +
      `<td>${s.after.length ? e(s.after.join(", ")) : "start"}</td><td class="outcome-${e(outcome)}">${e(outcome)}</td></tr>`
    );
  });
  return (
    "<table><thead><tr><th>#</th><th>action</th><th>cost</th><th>time</th><th>preconditions</th><th>effects</th><th>after</th><th>outcome</th></tr></thead>" +
    `<tbody>${rows}</tbody></table>`
  );
}

/** @internal Resource totals and constraint verdicts, and the infeasibility explanation. */
export function resourcesSection(view: PlanView): string {
  if (view.resources.length === 0 && !view.infeasible) return "";
  const parts: string[] = [];
  if (view.resources.length) parts.push(list(view.resources.map(formatResource), ""));
  if (view.makespanMs !== undefined) parts.push(`<p>Makespan: <b>${e(formatMs(view.makespanMs))}</b></p>`);
  if (view.infeasible) {
    parts.push(`<div class="note bad"><b>Infeasible plan.</b>${list(view.explanation, "The refinement gave no explanation.")}</div>`);
  }
  return section("resources", "Resources and constraints", parts.join("\n"));
}

/** @internal Why there is no plan. */
export function explanationSection(explanation: NoPlanExplanation): string {
  return section(
    "explanation",
    "Why there is no plan",
    [
      `<div class="note bad"><p>${e(explanation.suggestion)}</p></div>`,
      `<h3>Unreachable goal conditions</h3>${list(explanation.unreachableConditions, "none")}`,
      `<h3>Missing preconditions</h3>${list(explanation.missingPreconditions, "none")}`,
      `<h3>Actions that can never run</h3>${list(explanation.unusableActions, "none")}`,
    ].join("\n"),
  );
}

/** Action names joined by arrows, cut to the budget with a count of what was left out. */
function arrowList(names: readonly string[]): string {
  const cut = elide(names);
  const code = (n: string) => `<code>${e(n)}</code>`;
  const parts = [
    ...cut.head.map(code),
    ...(cut.elided > 0 ? [`<span class="elided">${elisionText(cut.elided, names.length, "actions")}</span>`] : []),
    ...cut.tail.map(code),
  ];
  return parts.join(" → ");
}

/** @internal Each planning round: the first plan and every replan with its reason. */
export function roundsSection(rounds: readonly PlanningRound[], replanCount: number | undefined): string {
  if (rounds.length === 0) {
    return replanCount === undefined
      ? ""
      : section("replans", "Planning rounds and replans", `<p>${e(String(replanCount))} replan(s).</p>`);
  }
  const rows = elidedRows(rounds, 4, "planning rounds", (r, i) => {
    const what = r.plan
      ? r.plan.isEmpty
        ? "empty plan (goal already holds)"
        : `${arrowList(r.plan.actionNames)} <span class="muted">(cost ${e(formatNumber(r.plan.totalCost))})</span>`
      : `<span class="outcome-failed">no plan: ${e(r.failure ?? "planning failed")}</span>`;
    const why = i === 0 ? "initial plan" : (r.reason ?? "replan");
    return `<tr><td>${i + 1}</td><td>${e(why)}</td><td>${what}</td><td>${e(formatMs(r.planningMs))}</td></tr>`;
  });
  const replans = rounds.length - 1;
  return section(
    "replans",
    "Planning rounds and replans",
    `<p>${rounds.length} planning round(s), ${replans} replan(s).</p>` +
      `<table><thead><tr><th>round</th><th>why</th><th>plan</th><th>planning time</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

/** @internal The executed actions in order. */
export function historySection(history: readonly ReportActionResult[]): string {
  if (history.length === 0) return "";
  const rows = elidedRows(history, 6, "executed actions", (r, i) => {
    const outcome = r.success ? "succeeded" : "failed";
    const why = r.success ? "" : [r.failure, r.error].filter(Boolean).join(": ");
    return (
      `<tr><td>${i + 1}</td><td><code>${e(r.actionName)}</code></td><td class="outcome-${outcome}">${outcome}</td>` +
      `<td>${r.attempts === undefined ? "—" : e(String(r.attempts))}</td><td>${r.durationMs !== undefined ? e(formatMs(r.durationMs)) : "—"}</td><td>${e(why)}</td></tr>`
    );
  });
  return section(
    "history",
    "Execution history",
    `<table><thead><tr><th>#</th><th>action</th><th>outcome</th><th>attempts</th><th>duration</th><th>failure</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}

/** @internal The tracer timeline with one filter toggle per hook. */
export function eventsSection(events: readonly ReportEvent[], dropped: number): string {
  if (events.length === 0) return "";
  const perHook = new Map<string, number>();
  for (const ev of events) perHook.set(ev.hook, (perHook.get(ev.hook) ?? 0) + 1);
  // Counted over every event, shown or not; hooks themselves are a list too.
  const chips = elide([...perHook]);
  const chipHtml = [...chips.head, ...chips.tail]
    .map(([h, n]) => `<button type="button" data-hook-filter="${e(h)}" aria-pressed="true">${e(h)} (${n})</button>`)
    .join("");
  const rows = elidedRows(
    events,
    3,
    "events",
    (ev) =>
      `<tr data-hook="${e(ev.hook)}"><td class="mono">${e(formatMs(ev.atMs))}</td><td><code>${e(ev.hook)}</code></td><td>${e(ev.summary)}</td></tr>`,
  );
  const note = dropped > 0 ? `<p class="muted">${e(String(dropped))} later event(s) were not kept (recorder cap).</p>` : "";
  return section(
    "events",
    "Trace events",
    `<div class="chips">${chipHtml}</div>${note}<table><thead><tr><th>time</th><th>hook</th><th>event</th></tr></thead><tbody>${rows}</tbody></table>`,
  );
}
