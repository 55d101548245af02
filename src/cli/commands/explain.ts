import { formatNumber } from "../../viz/index.js";
import type { CommandContext } from "../context.js";
import { conditionsText, explanationText, stateText } from "../describe.js";
import { deliver, toJsonText } from "../output.js";
import { terminalText } from "../terminal-text.js";
import { searchWithProgress } from "./searching.js";

/**
 * `langgoap explain`: the goal, the start state, and whether a plan
 * exists: its length and cost, or why not. Exit 0 when reachable, 1 when not.
 */
export async function explainCommand(ctx: CommandContext): Promise<number> {
  const goal = ctx.goal!;
  const outcome = await searchWithProgress(ctx);
  const plan = outcome.plan;
  if (ctx.args.format === "json") {
    await deliver(
      ctx,
      toJsonText({
        domain: ctx.domain.source,
        reachable: plan !== null,
        status: outcome.status,
        goal: goal.conditions,
        startState: ctx.state,
        ...(plan ? { plan: { actions: plan.actionNames, totalCost: plan.totalCost } } : {}),
        ...(outcome.explanation ? { explanation: outcome.explanation } : {}),
        ...(outcome.message && !plan ? { message: outcome.message } : {}),
      }),
    );
    return plan ? 0 : 1;
  }
  const lines = [`Goal:        ${conditionsText(goal.conditions)}`, `Start state: ${stateText(ctx.state)}`];
  if (plan) {
    lines.push(
      plan.isEmpty
        ? "Reachable:   yes; the goal already holds (empty plan)."
        : `Reachable:   yes; a plan of ${plan.length} step${plan.length === 1 ? "" : "s"} (cost ${formatNumber(plan.totalCost)}): ${plan.actionNames.map(terminalText).join(" → ")}`,
    );
    await deliver(ctx, `${lines.join("\n")}\n`);
    return 0;
  }
  lines.push(`Reachable:   no; ${terminalText(outcome.message ?? outcome.status)}`);
  let text = `${lines.join("\n")}\n`;
  if (outcome.explanation) text += explanationText(outcome.explanation);
  await deliver(ctx, text);
  return 1;
}
