import type { PlanningTracer } from "../../core/tracer.js";
import type { GoapRunResult } from "../../graph/index.js";
import type { CommandContext } from "../context.js";
import { exitForStatus } from "../exit.js";
import { checkSettings, createStrategy, resolveStrategy } from "../search.js";
import { terminalText } from "../terminal-text.js";
import { searchSettings } from "./searching.js";

/** Waits `ms`, or less when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    // No timer for Infinity (setTimeout would fire at once): only the signal ends it.
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * `langgoap inspect`: serves the live inspector on loopback, shows the
 * first planning call's search tree, runs the goal through a real
 * `GoapGraph` step by step (`--step-delay` between actions so it can be
 * watched), and with `--history` records the run in a SQLite execution
 * history and lists the finished runs there. Serves until Ctrl-C, or for
 * `--serve-for`; exits like `run` (0 goal achieved).
 */
export async function inspectCommand(ctx: CommandContext): Promise<number> {
  const { port, stepDelayMs, history: historyFile, serveForMs } = ctx.args.inspect ?? {};
  const settings = searchSettings(ctx);
  const goal = ctx.goal!;
  const resolved = resolveStrategy(settings, goal);
  checkSettings(settings, resolved);
  const tuned =
    settings.heuristic !== undefined || settings.pruning !== undefined || settings.budget !== undefined || settings.maxStates !== undefined;
  const strategy = ctx.args.strategy !== undefined || tuned ? await createStrategy(settings, ctx.args.strategy ?? resolved) : undefined;
  const [{ createInspector }, { GoapGraph, SqliteStore, StoreExecutionHistory }, { MultiTracer }] = await Promise.all([
    import("../../inspect/index.js"),
    import("../../graph/index.js"),
    import("../../tracing/index.js"),
  ]);
  let history: InstanceType<typeof StoreExecutionHistory> | undefined;
  if (historyFile !== undefined) {
    history = new StoreExecutionHistory(SqliteStore.open(historyFile));
    await history.setup();
  }
  const title = ctx.args.title ?? `langgoap inspect: ${ctx.domain.source}`;
  const inspector = createInspector({ title, ...(history ? { history } : {}) });
  const { url } = await inspector.listen(port === undefined ? {} : { port });
  ctx.io.stdout(`Inspector: ${url}\n`);
  const signal = ctx.io.signal;
  try {
    const budget = ctx.args.budget;
    if (resolved === "astar") {
      inspector.search("first planning call", ctx.state, goal, ctx.domain.actions, {
        ...(ctx.args.heuristic ? { heuristic: ctx.args.heuristic } : {}),
        ...(ctx.args.pruning ? { pruning: ctx.args.pruning } : {}),
        ...(budget?.kind === "steps" ? { maxExpansions: budget.steps } : {}),
        ...(budget?.kind === "time" ? { timeBudgetMs: budget.ms } : {}),
        ...(ctx.args.maxStates !== undefined ? { maxNodes: ctx.args.maxStates } : {}),
      });
    }
    const run = inspector.run("run", {
      title: ctx.domain.source,
      ...(budget ? { budget: budget.kind === "steps" ? { maxExpansions: budget.steps } : { timeBudgetMs: budget.ms } } : {}),
    });
    // A tracer hook may return a promise and the graph waits for it: the pause lets a person follow each step.
    const stepper: PlanningTracer = { onActionStart: () => pause(stepDelayMs ?? 0, signal) };
    const graph = new GoapGraph(ctx.domain.actions, {
      ...(strategy ? { strategy } : {}),
      tracer: new MultiTracer([run, stepper]),
      seed: ctx.args.seed,
      ...(history ? { history } : {}),
      logger: { warn: (message) => ctx.io.stderr(`langgoap: warning: ${message}\n`) },
    });
    let result: GoapRunResult | undefined;
    for await (const values of await graph.stream(goal, ctx.state, { streamMode: "values", ...(signal ? { signal } : {}) })) {
      run.observe(values);
      result = values as GoapRunResult;
    }
    const status = result?.status ?? "error";
    await inspector.refreshHistory();
    ctx.io.stdout(
      `Run: ${terminalText(status)}${result?.replanReason && status !== "goal_achieved" ? ` (${terminalText(result.replanReason)})` : ""}\n`,
    );
    ctx.io.stderr(
      serveForMs === undefined
        ? "langgoap: serving the inspector until Ctrl-C\n"
        : `langgoap: serving the inspector for ${serveForMs} ms\n`,
    );
    await pause(serveForMs ?? Number.POSITIVE_INFINITY, signal);
    return status === "goal_achieved" ? 0 : exitForStatus(signal?.aborted ? "aborted" : status);
  } finally {
    await inspector.close();
  }
}
