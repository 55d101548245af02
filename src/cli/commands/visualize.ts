import { LangGoapError } from "../../core/errors.js";
import { renderSearchTree } from "../../viz/index.js";
import type { CommandContext } from "../context.js";
import { exitForStatus } from "../exit.js";
import { deliver } from "../output.js";
import { planCommand } from "./plan.js";
import { reportNoPlan, searchWithProgress } from "./searching.js";

/**
 * `langgoap visualize`: the plan in a drawing format (the same rendering
 * as `plan`, with Mermaid by default), or with `--search-tree` the A*
 * search tree as DOT. The tree is written even when no plan is found: it
 * shows where the search went.
 */
export async function visualizeCommand(ctx: CommandContext): Promise<number> {
  if (!ctx.args.searchTree) return planCommand(ctx);
  if (ctx.args.format !== "dot") {
    throw new LangGoapError("INVALID_OPTION", `--search-tree renders DOT; --format ${ctx.args.format} is not available for it`, {
      option: "format",
      usage: true,
      command: "visualize",
    });
  }
  const outcome = await searchWithProgress(ctx, true);
  await deliver(
    ctx,
    renderSearchTree(outcome.expansions ?? [], {
      plan: outcome.plan,
      ...(ctx.args.maxNodes !== undefined ? { maxNodes: ctx.args.maxNodes } : {}),
    }),
  );
  if (outcome.plan) return 0;
  reportNoPlan(ctx, outcome);
  return exitForStatus(outcome.status);
}
