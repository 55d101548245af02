import type { ActionSpec } from "../../core/action.js";
import { truncateText } from "../../core/display-text.js";
import { describeValue } from "../../core/errors.js";
import type { WorldState } from "../../core/facts.js";
import type { PlanningTracer, SearchExpandEvent } from "../../core/tracer.js";
import { Plan } from "../../planner/index.js";
import { describeGoal } from "../describe.js";
import { formatMs, formatNumber } from "../format.js";
import { MAX_VALUE_CHARS } from "./escape.js";
import type { PlanningRound, ReportEvent, RunReport } from "./report-types.js";

/** Options of {@link ReportRecorder}. */
export interface ReportRecorderOptions {
  /** Keep one event per search expansion (they are only counted otherwise). @defaultValue false */
  readonly recordSearch?: boolean;
  /** Keep at most this many events; later ones are counted in `droppedEvents`. @defaultValue 5000 */
  readonly maxEvents?: number;
  /** Clock in milliseconds (inject a fake one for reproducible reports). @defaultValue performance.now */
  readonly now?: () => number;
}

function planSummary(plan: unknown): string {
  if (!(plan instanceof Plan)) return plan === null || plan === undefined ? "no plan" : describeValue(plan);
  return plan.isEmpty ? "empty plan (goal already holds)" : `[${plan.actionNames.join(", ")}] cost ${formatNumber(plan.totalCost)}`;
}

function resultSummary(result: unknown): string {
  if (typeof result !== "object" || result === null) return describeValue(result);
  const r = result as { actionName?: unknown; success?: unknown; error?: unknown; attempts?: unknown };
  const verdict = r.success === true ? "succeeded" : `failed${typeof r.error === "string" && r.error ? `: ${r.error}` : ""}`;
  const attempts = typeof r.attempts === "number" && r.attempts > 1 ? ` after ${r.attempts} attempts` : "";
  return `${typeof r.actionName === "string" ? r.actionName : "action"} ${verdict}${attempts}`;
}

function goalSummary(goal: unknown): string {
  try {
    return describeGoal(goal as never).join("; ") || "(no conditions)";
  } catch {
    return describeValue(goal);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : describeValue(error);
}

/**
 * A tracer that records what an HTML report shows: every planning round
 * (first plan and replans, with their reasons) and a summarised timeline of
 * tracer events. Pass it as the run's tracer, then merge it into the report.
 * Search expansions are counted, not kept, unless `recordSearch` is on.
 *
 * @example
 * ```ts
 * const recorder = new ReportRecorder();
 * const graph = new GoapGraph(actions, { tracer: recorder });
 * const final = await graph.invoke(goal, start);
 * writeFileSync("run.html", renderHtmlReport(recorder.toReport({ plan: recorder.lastPlan, status: final.status })));
 * ```
 */
export class ReportRecorder implements PlanningTracer {
  readonly events: ReportEvent[] = [];
  readonly rounds: PlanningRound[] = [];
  /** Events not kept because of `maxEvents`. */
  droppedEvents = 0;
  /** Search expansions seen (kept as events only with `recordSearch`). */
  searchExpansions = 0;
  readonly #now: () => number;
  readonly #recordSearch: boolean;
  readonly #maxEvents: number;
  #origin: number | undefined;
  #pendingReason: string | null = null;
  /** Between onPlanStart and its outcome: an onPlanFailed then ends a round, otherwise it ends the run. */
  #planning = false;

  constructor(options: ReportRecorderOptions = {}) {
    this.#now = options.now ?? (() => performance.now());
    this.#recordSearch = options.recordSearch ?? false;
    this.#maxEvents = options.maxEvents ?? 5000;
  }

  /** The plan of the latest successful planning round, if any. */
  get lastPlan(): Plan | null {
    for (let i = this.rounds.length - 1; i >= 0; i--) {
      const plan = this.rounds[i]?.plan;
      if (plan) return plan;
    }
    return null;
  }

  /** The recorded rounds and events merged into `report`. */
  toReport(report: RunReport): RunReport {
    return { ...report, rounds: [...this.rounds], events: [...this.events], droppedEvents: this.droppedEvents };
  }

  #push(hook: string, summary: string): void {
    const now = this.#now();
    this.#origin ??= now;
    if (this.events.length >= this.#maxEvents) {
      this.droppedEvents++;
      return;
    }
    // Summaries carry tool errors: kept no longer than the report would show them.
    this.events.push({ atMs: now - this.#origin, hook, summary: truncateText(summary, MAX_VALUE_CHARS) });
  }

  onPlanStart(goal: unknown, _state: Readonly<WorldState>, strategyName: string): void {
    this.#planning = true;
    this.#push("onPlanStart", `planning for ${goalSummary(goal)} with ${strategyName}`);
  }

  onPlanComplete(plan: unknown, durationMs: number): void {
    this.#planning = false;
    this.rounds.push({ plan: plan instanceof Plan ? plan : null, reason: this.#takeReason(), planningMs: durationMs });
    this.#push("onPlanComplete", `${planSummary(plan)} in ${formatMs(durationMs)}`);
  }

  onPlanFailed(reason: string, durationMs: number): void {
    if (this.#planning) {
      this.#planning = false;
      this.rounds.push({ plan: null, reason: this.#takeReason(), planningMs: durationMs, failure: reason });
      this.#push("onPlanFailed", `${reason} (after ${formatMs(durationMs)})`);
    } else {
      // Graphs also report the failure of a whole run through this hook.
      this.#push("onPlanFailed", `run ended: ${reason}`);
    }
  }

  onReplan(reason: string, newPlan: unknown): void {
    // A graph may report a replan after the round that produced its plan, or before planning it.
    const lastIndex = this.rounds.length - 1;
    const last = this.rounds[lastIndex];
    if (last && lastIndex > 0 && last.reason === null && newPlan instanceof Plan && newPlan === last.plan) {
      this.rounds[lastIndex] = { ...last, reason };
    } else {
      this.#pendingReason = reason;
    }
    this.#push("onReplan", `${reason} → ${planSummary(newPlan)}`);
  }

  onActionStart(action: ActionSpec): void {
    this.#push("onActionStart", action.name);
  }

  onActionComplete(result: unknown): void {
    this.#push("onActionComplete", resultSummary(result));
  }

  onActionRetry(action: ActionSpec, attempt: number, error: unknown, backoffMs: number): void {
    this.#push("onActionRetry", `${action.name} attempt ${attempt} failed (${errorText(error)}); retrying in ${formatMs(backoffMs)}`);
  }

  onStrategyChosen(strategyName: string): void {
    this.#push("onStrategyChosen", strategyName);
  }

  onGoalAchieved(): void {
    this.#push("onGoalAchieved", "goal achieved");
  }

  onSensorComplete(sensorName: string, updates: Readonly<WorldState>): void {
    const keys = Object.keys(updates);
    this.#push("onSensorComplete", `${sensorName} updated ${keys.length ? keys.join(", ") : "nothing"}`);
  }

  onSearchExpand(event: SearchExpandEvent): void {
    this.searchExpansions++;
    if (this.#recordSearch) {
      this.#push("onSearchExpand", `#${event.nodeId} ${event.actionName ?? "start"} g=${formatNumber(event.g)} h=${formatNumber(event.h)}`);
    }
  }

  onSearchDeadEnd(reason: string): void {
    this.#push("onSearchDeadEnd", reason);
  }

  onSearchComplete(nodesExpanded: number, durationMs: number, found: boolean): void {
    this.#push("onSearchComplete", `${found ? "found" : "no plan"} after ${nodesExpanded} expansions in ${formatMs(durationMs)}`);
  }

  #takeReason(): string | null {
    const reason = this.#pendingReason;
    this.#pendingReason = null;
    return reason;
  }
}
