import type { CommandContext } from "../context.js";
import { deliver } from "../output.js";
import { outcomeHtml, outcomeJson, renderPlanAs } from "./render-plan.js";
import { reportNoPlan, searchWithProgress } from "./searching.js";

/**
 * `langgoap plan`: searches and prints the plan. Exit 0 with a plan; 1
 * without (the reason and explanation on stderr; JSON and HTML outputs
 * carry them too).
 */
export async function planCommand(ctx: CommandContext): Promise<number> {
  const outcome = await searchWithProgress(ctx);
  if (!outcome.plan) {
    reportNoPlan(ctx, outcome);
    if (ctx.args.format === "json") await deliver(ctx, `${JSON.stringify(outcomeJson(ctx, outcome), null, 2)}\n`);
    if (ctx.args.format === "html") await deliver(ctx, outcomeHtml(ctx, outcome, null));
    return 1;
  }
  await deliver(ctx, await renderPlanAs(ctx, outcome.plan, outcome));
  return 0;
}
