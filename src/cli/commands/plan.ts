import type { CommandContext } from "../context.js";
import { exitForStatus } from "../exit.js";
import { deliver } from "../output.js";
import type { SearchOutcome } from "../search.js";
import { outcomeHtml, outcomeJson, pddlSteps, renderPlanAs } from "./render-plan.js";
import { reportNoPlan, searchWithProgress } from "./searching.js";

const round1 = (ms: number): number => Math.round(ms * 10) / 10;

/** `--stats`: what the search did, as one JSON line (for scripts and benchmarks). */
function statsLine(ctx: CommandContext, outcome: SearchOutcome): string {
  const { plan, stats } = outcome;
  return `${JSON.stringify({
    ...(ctx.args.pddlProblems.length > 1 ? { problem: ctx.args.pddlProblem } : {}),
    status: outcome.status,
    cost: plan?.totalCost ?? null,
    steps: plan ? pddlSteps(plan).length : null,
    expansions: stats?.nodesExpanded ?? plan?.metadata.nodesExpanded ?? null,
    generated: stats?.nodesGenerated ?? plan?.metadata.nodesGenerated ?? null,
    loadMs: Math.round(ctx.loadMs),
    planMs: Math.round(stats?.planningTimeMs ?? plan?.metadata.planningTimeMs ?? 0),
    searchMs: stats?.searchTimeMs === undefined ? null : round1(stats.searchTimeMs),
    heuristic: plan?.metadata.heuristic ?? stats?.heuristic ?? null,
  })}\n`;
}

/**
 * `langgoap plan`: searches and prints the plan. Exit 0 with a plan; 1
 * when none exists (the reason and explanation on stderr; JSON and HTML
 * outputs carry them too); 4 when the search ran out of budget first (the
 * figures on stderr); 130 when aborted (Ctrl-C; what it reached on stderr).
 */
export async function planCommand(ctx: CommandContext): Promise<number> {
  const outcome = await searchWithProgress(ctx);
  if (!outcome.plan) {
    reportNoPlan(ctx, outcome);
    if (ctx.args.format === "json") await deliver(ctx, `${JSON.stringify(outcomeJson(ctx, outcome), null, 2)}\n`);
    if (ctx.args.format === "html") await deliver(ctx, outcomeHtml(ctx, outcome, null));
    if (ctx.args.stats) ctx.io.stderr(statsLine(ctx, outcome));
    return exitForStatus(outcome.status);
  }
  await deliver(ctx, await renderPlanAs(ctx, outcome.plan, outcome));
  if (ctx.args.stats) ctx.io.stderr(statsLine(ctx, outcome));
  return 0;
}
