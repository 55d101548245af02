import type { Plan } from "../../planner/index.js";
import {
  formatMs,
  planToJson,
  renderAscii,
  renderAsciiGantt,
  renderDot,
  renderGanttPng,
  renderHtmlReport,
  renderMermaid,
  renderMermaidGantt,
  renderPlanPng,
} from "../../viz/index.js";
import type { CommandContext } from "../context.js";
import { scheduled } from "../schedule.js";
import type { SearchOutcome } from "../search.js";

/**
 * The plan's steps as a PDDL plan has them: without the operator that reaches
 * a disjunctive goal (`metadata.pddlGoal`), which is no PDDL action.
 */
export function pddlSteps(plan: Plan): Plan["actions"] {
  return plan.actions.filter((a) => a.metadata?.pddlGoal !== true);
}

/**
 * The IPC plan format: one `(action arg …)` line per step (the PDDL name
 * kept in `metadata.pddl`, else the action's name), then the cost line
 * planners and validators print. The operator that reaches a disjunctive
 * PDDL goal is left out ({@link pddlSteps}): a validator would refuse the
 * plan with it.
 */
function ipcPlan(plan: Plan): string {
  const steps = pddlSteps(plan);
  const lines = steps.map((a) => (typeof a.metadata?.pddl === "string" ? a.metadata.pddl : `(${a.name})`));
  const unit = steps.every((a) => a.cost === 1);
  return `${[...lines, `; cost = ${plan.totalCost} (${unit ? "unit cost" : "general cost"})`].join("\n")}\n`;
}

function statsLine(plan: Plan, outcome: SearchOutcome): string {
  const meta = plan.metadata;
  const expanded = outcome.stats?.nodesExpanded ?? meta.nodesExpanded;
  const time = outcome.stats?.planningTimeMs ?? meta.planningTimeMs;
  const how = meta.strategy === "astar" ? `astar, ${meta.heuristic ?? "hmax"}` : meta.strategy;
  return `(${how}: ${expanded} nodes expanded in ${formatMs(time)})\n`;
}

/** The JSON a search prints: status, strategy, the plan, counters and any explanation. */
export function outcomeJson(ctx: CommandContext, outcome: SearchOutcome): Record<string, unknown> {
  return {
    status: outcome.status,
    strategy: outcome.strategy,
    domain: ctx.domain.source,
    plan: outcome.plan ? planToJson(outcome.plan) : null,
    ...(outcome.stats ? { stats: outcome.stats } : {}),
    ...(outcome.explanation ? { explanation: outcome.explanation } : {}),
    ...(outcome.budget ? { budget: outcome.budget } : {}),
    ...(outcome.message && !outcome.plan ? { message: outcome.message } : {}),
  };
}

/** The HTML report page of a search (with the explanation when there is no plan). */
export function outcomeHtml(ctx: CommandContext, outcome: SearchOutcome, plan: Plan | null): string {
  return renderHtmlReport({
    title: ctx.args.title ?? `langgoap: ${ctx.domain.source}`,
    ...(ctx.goal ? { goal: ctx.goal } : {}),
    startState: ctx.state,
    plan,
    status: outcome.status,
    ...(outcome.stats ? { stats: outcome.stats } : {}),
    ...(outcome.explanation ? { explanation: outcome.explanation } : {}),
  });
}

/**
 * Renders a found plan in the requested format (PNG formats as bytes).
 * Gantt formats and the HTML report use the plan's schedule, computing one
 * when actions declare durations.
 */
export async function renderPlanAs(ctx: CommandContext, plan: Plan, outcome: SearchOutcome): Promise<string | Uint8Array> {
  const width = ctx.args.width !== undefined ? { width: ctx.args.width } : {};
  switch (ctx.args.format) {
    case "json":
      return `${JSON.stringify(outcomeJson(ctx, { ...outcome, plan }), null, 2)}\n`;
    case "mermaid":
      return renderMermaid(plan);
    case "dot":
      return renderDot(plan);
    case "gantt":
      return renderAsciiGantt(await scheduled(plan, ctx.goal!, ctx.args.format, true), width);
    case "mermaid-gantt":
      return renderMermaidGantt(await scheduled(plan, ctx.goal!, ctx.args.format, true));
    case "html":
      return outcomeHtml(ctx, outcome, await scheduled(plan, ctx.goal!, ctx.args.format, false));
    case "png":
      return renderPlanPng(plan);
    case "ipc":
      return ipcPlan(plan);
    case "gantt-png":
      return renderGanttPng(await scheduled(plan, ctx.goal!, ctx.args.format, false));
    default:
      return renderAscii(plan) + statsLine(plan, outcome);
  }
}
