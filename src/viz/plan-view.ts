import type { ActionSpec } from "../core/action.js";
import { maxOf } from "../core/extremes.js";
import type { WorldState } from "../core/facts.js";
import type { OptionKeys } from "../core/option-keys.js";
import type { Plan, ResourceUsage, ScheduleEntry } from "../planner/index.js";
import { planDependencies } from "./dependencies.js";
import { formatMs, formatNumber, formatValue } from "./format.js";

/** One step of a plan as the renderers draw it. */
export interface StepView {
  readonly index: number;
  readonly name: string;
  readonly action: ActionSpec;
  /** Cost paid in the state before the step (NaN when a cost function failed). */
  readonly cost: number;
  readonly durationMs: number | undefined;
  /** Indices of the steps this one depends on. */
  readonly after: readonly number[];
  /** Scheduled interval, when the plan carries a full schedule. */
  readonly startMs: number | undefined;
  readonly endMs: number | undefined;
}

/** Steps that start at the same instant of a schedule. */
export interface SlotView {
  readonly startMs: number;
  readonly steps: readonly number[];
}

/** Everything the renderers need to know about a plan, computed once. */
export interface PlanView {
  readonly steps: readonly StepView[];
  readonly totalCost: number;
  /** True when `metadata.csp.schedule` covers every step. */
  readonly scheduled: boolean;
  /** Steps grouped by start time, in time order (empty when unscheduled). */
  readonly slots: readonly SlotView[];
  readonly makespanMs: number | undefined;
  readonly resources: readonly ResourceUsage[];
  readonly infeasible: boolean;
  /** The refinement's explanation of infeasibility, as lines of text. */
  readonly explanation: readonly string[];
}

/** Options shared by the plan renderers. */
export interface RenderOptions {
  /** Show resource totals and constraint checks. @defaultValue true */
  readonly showResources?: boolean;
  /** Use the schedule in `metadata.csp` when the plan has one. @defaultValue true */
  readonly showSchedule?: boolean;
  /**
   * A schedule to draw instead of `metadata.csp.schedule`, e.g.
   * `(await schedulePlan(plan)).schedule` from `langgoap/optimize`.
   * Used only when it covers every step.
   */
  readonly schedule?: readonly ScheduleEntry[];
}

function stepCost(action: ActionSpec, before: Readonly<WorldState>): number {
  try {
    return action.getCost(before);
  } catch {
    // A cost function that fails on a partial state must not break rendering.
    return Number.NaN;
  }
}

function scheduleByIndex(plan: Plan, schedule: readonly ScheduleEntry[] | undefined): Map<number, ScheduleEntry> | undefined {
  if (!schedule || schedule.length !== plan.actions.length || plan.actions.length === 0) return undefined;
  const byIndex = new Map(schedule.map((entry) => [entry.index, entry]));
  for (let i = 0; i < plan.actions.length; i++) if (!byIndex.has(i)) return undefined;
  return byIndex;
}

function resourceTotals(actions: readonly ActionSpec[]): ResourceUsage[] {
  const totals = new Map<string, number>();
  for (const action of actions) {
    for (const [key, amount] of Object.entries(action.resources ?? {})) totals.set(key, (totals.get(key) ?? 0) + amount);
  }
  return [...totals.keys()].sort().map((key) => ({ key, total: totals.get(key) as number, satisfied: true, level: "info" as const }));
}

/** `conflictingConstraints` → `conflicting constraints`. */
function words(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
}

/** A constraint (`usd <= 10`), a shortfall (`usd: 12 against max 10, off by 2`) or JSON. */
function explanationItem(item: unknown): string {
  if (typeof item === "string") return item;
  if (typeof item !== "object" || item === null) return formatValue(item);
  const r = item as Record<string, unknown>;
  if (typeof r.key === "string" && typeof r.bound === "string" && typeof r.total === "number" && typeof r.limit === "number") {
    const off = typeof r.amount === "number" ? `, off by ${formatNumber(r.amount)}` : "";
    return `${r.key}: ${formatNumber(r.total)} against ${r.bound} ${formatNumber(r.limit)}${off}`;
  }
  if (typeof r.key === "string" && (typeof r.max === "number" || typeof r.min === "number")) {
    const bounds = [
      typeof r.min === "number" ? `>= ${formatNumber(r.min)}` : "",
      typeof r.max === "number" ? `<= ${formatNumber(r.max)}` : "",
    ];
    const level = typeof r.level === "string" ? ` (${r.level})` : "";
    return `${r.key} ${bounds.filter(Boolean).join(" and ")}${level}`;
  }
  return formatValue(item);
}

/** Lines for an infeasibility explanation of unknown shape: a string, or an object of lists and values with a suggestion last. */
function explanationLines(explanation: unknown): string[] {
  if (explanation === undefined || explanation === null) return [];
  if (typeof explanation === "string") return [explanation];
  if (typeof explanation !== "object") return [formatValue(explanation)];
  const lines: string[] = [];
  const record = explanation as Record<string, unknown>;
  for (const [key, value] of Object.entries(record)) {
    if (key === "suggestion" || value === undefined || value === null || typeof value === "function") continue;
    if (Array.isArray(value)) {
      if (value.length === 0) continue;
      lines.push(`${words(key)}:`);
      for (const item of value) lines.push(`  - ${explanationItem(item)}`);
    } else {
      lines.push(`${words(key)}: ${typeof value === "string" ? value : formatValue(value)}`);
    }
  }
  if (typeof record.suggestion === "string") lines.push(`Suggestion: ${record.suggestion}`);
  return lines;
}

/** @internal The options of the renderers that take only a schedule (`planToJson`, `renderMermaidGantt`). */
export interface ScheduleOnlyOptions {
  readonly schedule?: readonly ScheduleEntry[];
}

/** @internal The keys of {@link ScheduleOnlyOptions}, checked at run time. */
export const SCHEDULE_OPTION_KEYS = { schedule: true } as const satisfies OptionKeys<ScheduleOnlyOptions>;

/**
 * @internal Computes the renderers' view of a plan: per-step costs in the
 * state they are paid in, causal dependencies, the schedule (only when it
 * covers every step) and resource usage (from constraint refinement when
 * present, otherwise summed from the actions).
 */
export function viewPlan(plan: Plan, options: RenderOptions = {}): PlanView {
  const given = options.schedule !== undefined;
  const byIndex = options.showSchedule === false ? undefined : scheduleByIndex(plan, options.schedule ?? plan.metadata.csp?.schedule);
  const after = planDependencies(plan.actions, plan.expectedStates);
  const start = plan.startState ?? {};
  const steps = plan.actions.map((action, index): StepView => {
    const entry = byIndex?.get(index);
    return {
      index,
      name: action.name,
      action,
      cost: stepCost(action, index === 0 ? start : (plan.expectedStates[index - 1] ?? start)),
      durationMs: entry?.durationMs ?? action.durationMs,
      after: after[index] as number[],
      startMs: entry?.startMs,
      endMs: entry?.endMs,
    };
  });
  const slots: SlotView[] = [];
  if (byIndex) {
    const starts = new Map<number, number[]>();
    for (const step of steps) {
      const group = starts.get(step.startMs as number) ?? [];
      group.push(step.index);
      starts.set(step.startMs as number, group);
    }
    for (const startMs of [...starts.keys()].sort((a, b) => a - b)) slots.push({ startMs, steps: starts.get(startMs) as number[] });
  }
  const csp = plan.metadata.csp;
  const latestEnd = (): number => maxOf(steps.map((s) => s.endMs as number));
  const makespanMs = byIndex ? (given ? latestEnd() : (csp?.makespanMs ?? latestEnd())) : undefined;
  return {
    steps,
    totalCost: plan.totalCost,
    scheduled: byIndex !== undefined,
    slots,
    makespanMs,
    resources: csp ? csp.resourceUsage : resourceTotals(plan.actions),
    infeasible: csp?.status === "infeasible",
    explanation: csp?.status === "infeasible" ? explanationLines(csp.explanation) : [],
  };
}

/** `usd: 12 / 10  [VIOLATED]`, `usd: 12 (min 15)  [VIOLATED]`, or `usd: 12` for unconstrained totals. */
export function formatResource(usage: ResourceUsage): string {
  const bounds: string[] = [];
  if (usage.max !== undefined) bounds.push(`/ ${formatNumber(usage.max)}`);
  if (usage.min !== undefined) bounds.push(`(min ${formatNumber(usage.min)})`);
  const verdict = usage.level === "info" && bounds.length === 0 ? "" : `  [${usage.satisfied ? "OK" : "VIOLATED"}]`;
  return `${usage.key}: ${formatNumber(usage.total)}${bounds.length ? ` ${bounds.join(" ")}` : ""}${verdict}`;
}

/** A step's cost for labels (`?` when a cost function failed). */
export function formatCost(cost: number): string {
  return Number.isNaN(cost) ? "?" : formatNumber(cost);
}

/** `2s` for a step with a duration, empty otherwise. */
export function formatDuration(step: StepView): string {
  return step.durationMs !== undefined && step.durationMs > 0 ? formatMs(step.durationMs) : "";
}
