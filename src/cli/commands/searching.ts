import { describeBudget } from "../budget.js";
import type { CommandContext } from "../context.js";
import { explanationText } from "../describe.js";
import { Progress } from "../progress.js";
import { resolveStrategy, type SearchOutcome, type SearchSettings, search } from "../search.js";
import { terminalText } from "../terminal-text.js";

/** The search settings the command line asked for. */
export function searchSettings(ctx: CommandContext, recordExpansions = false): SearchSettings {
  const { strategy, heuristic, pruning, budget, seed, maxStates } = ctx.args;
  return {
    strategy,
    heuristic,
    ...(pruning !== undefined ? { pruning } : {}),
    budget,
    seed,
    ...(maxStates !== undefined ? { maxStates } : {}),
    ...(recordExpansions ? { recordExpansions } : {}),
    loadMs: ctx.loadMs,
  };
}

/** Runs the search with the progress line on stderr. */
export async function searchWithProgress(ctx: CommandContext, recordExpansions = false): Promise<SearchOutcome> {
  const settings = searchSettings(ctx, recordExpansions);
  const strategy = resolveStrategy(settings, ctx.goal!);
  const budget = settings.budget ? ` (budget ${describeBudget(settings.budget, strategy === "mcts" ? "iterations" : "expansions")})` : "";
  const progress = new Progress(ctx.io, () => `searching with ${strategy}${budget}`);
  try {
    return await search(ctx.state, ctx.goal!, ctx.domain.actions, settings, progress.signal);
  } finally {
    progress.stop();
  }
}

/** Tells stderr why there is no plan, with the explanation when there is one. */
export function reportNoPlan(ctx: CommandContext, outcome: SearchOutcome): void {
  ctx.io.stderr(`langgoap: no plan: ${terminalText(outcome.message ?? outcome.status)}\n`);
  if (outcome.explanation) ctx.io.stderr(explanationText(outcome.explanation));
}
