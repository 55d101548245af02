import { maxOf } from "../../core/extremes.js";
import type { GoapRunResult } from "../../graph/index.js";
import { formatMs, ReportRecorder, renderHtmlReport } from "../../viz/index.js";
import type { CommandContext } from "../context.js";
import { explanationText, stateText } from "../describe.js";
import { exitForStatus } from "../exit.js";
import { deliver, toJsonText } from "../output.js";
import { Progress } from "../progress.js";
import { scheduled } from "../schedule.js";
import { checkSettings, createStrategy, resolveStrategy } from "../search.js";
import { terminalText } from "../terminal-text.js";
import { searchSettings } from "./searching.js";

function summaryText(result: GoapRunResult): string {
  const history = result.executionHistory;
  const lines = [
    `Run: ${result.status} (${history.length} action${history.length === 1 ? "" : "s"} executed, ${result.replanCount} replan${result.replanCount === 1 ? "" : "s"})`,
  ];
  const names = history.map((r) => terminalText(r.actionName));
  const width = Math.max(0, maxOf(names.map((name) => name.length)));
  history.forEach((r, i) => {
    const outcome = r.success ? "succeeded" : `failed${r.error ? `: ${terminalText(r.error)}` : ""}`;
    lines.push(`  ${String(i + 1).padStart(2)}. ${(names[i] as string).padEnd(width)}  ${formatMs(r.durationMs).padStart(9)}  ${outcome}`);
  });
  if (result.replanReason && result.status !== "goal_achieved") lines.push(`Reason: ${terminalText(result.replanReason)}`);
  lines.push(`Final state: ${stateText(result.worldState)}`);
  return `${lines.join("\n")}\n`;
}

/**
 * `langgoap run`: the goal through a real LangGraph `GoapGraph`, with a
 * {@link ReportRecorder} as tracer for the HTML report. Exit 0 when the
 * goal is achieved; 4 when planning ran out of budget, 5 when a human
 * refused an action no plan can do without, 130 when aborted
 * (Ctrl-C: the actions executed so far and the state reached are printed),
 * 1 otherwise (with the no-plan explanation when there is one).
 */
export async function runCommand(ctx: CommandContext): Promise<number> {
  const settings = searchSettings(ctx);
  const goal = ctx.goal!;
  // Without --strategy the graph chooses per goal (A*, or the pipeline for constrained goals).
  const resolved = resolveStrategy(settings, goal);
  checkSettings(settings, resolved);
  // Search options apply to the strategy the graph would choose too (before, they were dropped without --strategy).
  const tuned =
    settings.heuristic !== undefined || settings.pruning !== undefined || settings.budget !== undefined || settings.maxStates !== undefined;
  const strategy = ctx.args.strategy !== undefined || tuned ? await createStrategy(settings, ctx.args.strategy ?? resolved) : undefined;
  // LangGraph loads only for runs: planning commands start faster without it.
  const { GoapGraph } = await import("../../graph/index.js");
  const recorder = new ReportRecorder();
  const graph = new GoapGraph(ctx.domain.actions, {
    ...(strategy ? { strategy } : {}),
    tracer: recorder,
    seed: ctx.args.seed,
    logger: { warn: (message) => ctx.io.stderr(`langgoap: warning: ${message}\n`) },
  });
  const executed = () => recorder.events.filter((e) => e.hook === "onActionComplete").length;
  const progress = new Progress(ctx.io, () => `running (${executed()} actions done)`);
  let result: GoapRunResult;
  try {
    result = await graph.invoke(goal, ctx.state, ctx.io.signal ? { signal: ctx.io.signal } : {});
  } finally {
    progress.stop();
  }
  const achieved = result.status === "goal_achieved";
  if (!achieved) {
    ctx.io.stderr(
      `langgoap: run ended with status ${result.status}${result.replanReason ? `: ${terminalText(result.replanReason)}` : ""}\n`,
    );
    if (result.noPlanExplanation) ctx.io.stderr(explanationText(result.noPlanExplanation));
  }
  if (ctx.args.format === "json") {
    await deliver(
      ctx,
      toJsonText({
        domain: ctx.domain.source,
        status: result.status,
        replanCount: result.replanCount,
        executed: result.executionHistory.map(({ actionName, success, error, failure, attempts, durationMs }) => ({
          actionName,
          success,
          error,
          failure,
          attempts,
          durationMs,
        })),
        plan: result.plan ? { actions: result.plan.actions, totalCost: result.plan.totalCost } : null,
        finalState: result.worldState,
        explanation: result.noPlanExplanation,
      }),
    );
  } else if (ctx.args.format === "html") {
    const last = recorder.lastPlan;
    await deliver(
      ctx,
      renderHtmlReport(
        recorder.toReport({
          title: ctx.args.title ?? `langgoap run: ${ctx.domain.source}`,
          goal,
          startState: ctx.state,
          plan: last ? await scheduled(last, goal, "html", false) : null,
          status: result.status,
          finalState: result.worldState,
          executionHistory: result.executionHistory,
          replanCount: result.replanCount,
          explanation: result.noPlanExplanation,
        }),
      ),
    );
  } else {
    await deliver(ctx, summaryText(result));
  }
  return achieved ? 0 : exitForStatus(result.status);
}
