import { type Condition, type Conditions, displayText, formatCondition, type WorldState } from "../core/index.js";
import type { GoapRunResult, GoapStatus } from "../graph/index.js";

/** Longest value shown in a reply: names and values come from data (tool outputs, model answers). */
const MAX_VALUE_CHARS = 200;
/** Changed facts listed in a reply's text (all of them are in the structured report). */
const MAX_FACTS_SHOWN = 20;

/** One executed (or refused) action of a turn. */
export interface GoapChatStep {
  readonly action: string;
  readonly success: boolean;
  readonly error: string | null;
}

/**
 * What one chat turn did, as the AI message carries it in
 * `additional_kwargs.goap` (the message's text says the same in words).
 */
export interface GoapChatReport {
  /** The human message's text. */
  readonly request: string;
  /** The GOAP run's final status; `not_understood` when the request gave no goal (nothing ran). */
  readonly status: GoapStatus | "not_understood";
  /** True when the goal holds at the end of the turn. */
  readonly achieved: boolean;
  /** The goal's conditions, as interpreted; null when the request gave no goal. */
  readonly goal: Conditions | null;
  /** The interpreter's reasoning (the model's one sentence, or the keyword matches). */
  readonly reasoning: string | null;
  /** The last plan's actions, in order (after replans, the plan that ran last). */
  readonly plan: readonly string[];
  /** That plan's total cost; null without a plan. */
  readonly planCost: number | null;
  /** Every action the turn ran or refused, in order. */
  readonly executed: readonly GoapChatStep[];
  readonly replanCount: number;
  /** Why the goal was not reached (or not understood); null when it was reached. */
  readonly reason: string | null;
  /** Facts the request named that the agent does not know. */
  readonly unknownFacts: readonly string[];
  /** Facts whose value the turn changed, with their new values. */
  readonly changed: Readonly<WorldState>;
}

/** Why a request gave no goal, from the interpreter. */
export interface NotUnderstood {
  readonly request: string;
  readonly reason: string;
  readonly unknownFacts: readonly string[];
  readonly knownFacts: readonly string[];
}

const show = (text: string): string => displayText(text, { maxChars: MAX_VALUE_CHARS });

function describeConditions(goal: Conditions): string {
  return Object.entries(goal)
    .map(([key, condition]) => show(formatCondition(key, condition as Condition)))
    .join(", ");
}

/** The facts whose value differs between two world states (JSON comparison), in key order. */
function changedFacts(before: Readonly<WorldState>, after: Readonly<WorldState>): WorldState {
  const out: WorldState = {};
  for (const key of Object.keys(after).sort()) {
    if (JSON.stringify(after[key]) !== JSON.stringify(before[key])) out[key] = after[key] as WorldState[string];
  }
  return out;
}

/** @internal The report and the reply text of a request that gave no goal. */
export function notUnderstoodReport(why: NotUnderstood): { report: GoapChatReport; text: string } {
  const known = why.knownFacts.length > 0 ? ` I can work with: ${why.knownFacts.map(show).join(", ")}.` : "";
  const text =
    why.unknownFacts.length > 0
      ? `I cannot do that: I know nothing about ${why.unknownFacts.map(show).join(", ")}.${known}`
      : `I cannot do that: I could not read a goal from your request (${show(why.reason)}).${known}`;
  return {
    text,
    report: {
      request: why.request,
      status: "not_understood",
      achieved: false,
      goal: null,
      reasoning: null,
      plan: [],
      planCost: null,
      executed: [],
      replanCount: 0,
      reason: why.reason,
      unknownFacts: [...why.unknownFacts],
      changed: {},
    },
  };
}

/** What a finished GOAP run needs to be reported. */
export interface RunToReport {
  readonly request: string;
  readonly goal: Conditions;
  readonly reasoning: string | null;
  readonly worldBefore: Readonly<WorldState>;
  readonly result: GoapRunResult;
  /** The last plan's actions and cost (re-bound from the run's plan data). */
  readonly plan: { readonly actionNames: readonly string[]; readonly totalCost: number } | null;
}

/** @internal The report and the reply text of a turn whose goal was planned (and run, when a plan existed). */
export function runReport(run: RunToReport): { report: GoapChatReport; text: string } {
  const { result } = run;
  const executed = result.executionHistory.map((r) => ({ action: r.actionName, success: r.success, error: r.error ?? r.failure }));
  const achieved = result.status === "goal_achieved";
  const reason = achieved ? null : whyNot(result);
  const report: GoapChatReport = {
    request: run.request,
    status: result.status,
    achieved,
    goal: run.goal,
    reasoning: run.reasoning,
    plan: run.plan ? [...run.plan.actionNames] : [],
    planCost: run.plan ? run.plan.totalCost : null,
    executed,
    replanCount: result.replanCount,
    reason,
    unknownFacts: [],
    changed: changedFacts(run.worldBefore, result.worldState),
  };
  return { report, text: replyText(report) };
}

function whyNot(result: GoapRunResult): string {
  // The run's own reason is the precise one (an action a human refused); the explanation is for a plain "no plan".
  if (result.replanReason) return result.replanReason;
  const why = result.noPlanExplanation;
  const parts: string[] = [];
  if (why?.unreachableConditions.length) parts.push(`no action makes ${why.unreachableConditions.join(", ")}`);
  if (why?.missingPreconditions.length) parts.push(`nothing provides ${why.missingPreconditions.join(", ")}`);
  if (why?.suggestion && parts.length === 0) parts.push(why.suggestion);
  return parts.length ? parts.join("; ") : `the run ended ${result.status}`;
}

function replyText(report: GoapChatReport): string {
  const goal = describeConditions(report.goal ?? {});
  const ran = report.executed.map((s) => (s.success ? show(s.action) : `${show(s.action)} (failed: ${show(s.error ?? "unknown")})`));
  const lines: string[] = [];
  if (report.status === "no_plan" || report.status === "budget_exhausted") {
    lines.push(`I cannot do that: no plan reaches ${goal} from here (${show(report.reason ?? report.status)}).`);
  } else if (report.status === "denied") {
    lines.push(`I stopped: ${goal} needs an action that was refused (${show(report.reason ?? report.status)}).`);
  } else if (report.achieved && report.executed.length === 0) {
    lines.push(`Nothing to do: ${goal} already holds.`);
  } else if (report.achieved) {
    lines.push(`Done: ${goal}.`);
  } else {
    lines.push(`I could not finish: ${goal} does not hold (status ${report.status}: ${show(report.reason ?? "")}).`);
  }
  if (report.plan.length > 0) {
    const after = report.replanCount > 0 ? `, after ${report.replanCount} replan${report.replanCount > 1 ? "s" : ""}` : "";
    lines.push(`Plan: ${report.plan.map(show).join(" -> ")} (cost ${report.planCost}${after}).`);
  }
  if (ran.length > 0) lines.push(`Ran: ${ran.join(", ")}.`);
  const changed = Object.entries(report.changed);
  if (changed.length > 0) {
    const shown = changed.slice(0, MAX_FACTS_SHOWN).map(([k, v]) => `${show(k)} = ${show(JSON.stringify(v) ?? String(v))}`);
    const more = changed.length > MAX_FACTS_SHOWN ? ` (and ${changed.length - MAX_FACTS_SHOWN} more)` : "";
    lines.push(`Now: ${shown.join(", ")}${more}.`);
  }
  return lines.join("\n");
}
