import type { Client } from "langsmith";
import { RunTree } from "langsmith/run_trees";
// The same two functions `langsmith/traceable` exports, without its `node:async_hooks` import (see ensureAsyncContext).
import { getCurrentRunTree, withRunTree } from "langsmith/singletons/traceable";
import type { ActionSpec, PlanningTracer, TraceRun, WorldState } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { ensureAsyncContext } from "./async-context.js";
import { PerRunTracer } from "./per-run-tracer.js";
import type { EndableRun } from "./run-registry.js";
import { actionOutcome, errorText, factsOf, goalOf, planSummary } from "./trace-event.js";

ensureAsyncContext();
/** Options of {@link LangSmithTracer}. */
export interface LangSmithTracerOptions {
  /** The LangSmith client runs are sent with. @defaultValue a client configured from the environment (`LANGSMITH_API_KEY`, `LANGSMITH_ENDPOINT`) */
  readonly client?: Client;
  /** The LangSmith project runs go to. @defaultValue `LANGSMITH_PROJECT`, else "default" */
  readonly projectName?: string;
  /** Name of each run's root. @defaultValue "goap.run" */
  readonly runName?: string;
  /**
   * A run tree every GOAP run nests under (e.g. the caller's own trace).
   * @defaultValue the graph's own LangSmith run when LangChain tracing is on
   * for the graph (`LANGSMITH_TRACING=true`, or a `LangChainTracer` in the
   * invoke's callbacks); else none, and each run is a root
   */
  readonly parentRun?: RunTree;
  /** Tags on every run's root. @defaultValue [] */
  readonly tags?: readonly string[];
  /** Runs traced at once (paused runs included) before the oldest is ended. @defaultValue 10000 */
  readonly maxOpenRuns?: number;
}

interface Settings {
  readonly client: Client | undefined;
  readonly projectName: string;
  readonly runName: string;
  readonly parentRun: RunTree | undefined;
  readonly tags: readonly string[];
}

/**
 * The LangSmith run of the graph node a hook is called from, when LangChain
 * tracing is on for the graph: LangChain puts it in LangSmith's async
 * context while the node runs. `undefined` outside a traced graph.
 */
function nodeRunTree(): RunTree | undefined {
  try {
    // Duck-typed: LangChain's copy of langsmith may not be ours.
    const current = getCurrentRunTree(true) as RunTree | undefined;
    return typeof current?.createChild === "function" && current.tracingEnabled !== false ? current : undefined;
  } catch {
    return undefined;
  }
}

/** The traced graph's own run: the parent of the node's run. */
function graphRunTree(): RunTree | undefined {
  const node = nodeRunTree();
  return node?.parent_run ?? node;
}

/** Posting and patching go through one chain per run, so a child is never sent before its parent. */
type Send = (work: () => Promise<void>) => Promise<void>;

/** One run's tree: root → planning rounds → actions. */
class RunTreeState implements PlanningTracer, EndableRun {
  readonly #settings: Settings;
  readonly #metadata: Record<string, string>;
  readonly #onEnd: () => void;
  #root: RunTree | undefined;
  #plan: RunTree | undefined;
  #replans = 0;
  readonly #actions = new Map<string, RunTree[]>();
  #queue: Promise<void> = Promise.resolve();

  constructor(settings: Settings, run: TraceRun, onEnd: () => void = () => {}) {
    this.#settings = settings;
    this.#metadata = { ...(run.runId ? { goap_run_id: run.runId } : {}), ...(run.threadId ? { thread_id: run.threadId } : {}) };
    this.#onEnd = onEnd;
  }

  /** Sends in order; a failing send is dropped (tracing never breaks a run). */
  readonly #send: Send = (work) => {
    this.#queue = this.#queue.then(work).catch(() => undefined);
    return this.#queue;
  };

  #ensureRoot(inputs: Record<string, unknown>): RunTree {
    if (!this.#root) {
      const { client, projectName, runName, parentRun, tags } = this.#settings;
      const graphRun = parentRun ? undefined : graphRunTree();
      const config = {
        name: runName,
        run_type: "chain",
        inputs,
        tracingEnabled: true,
        tags: [...tags],
        metadata: { ...this.#metadata },
        // Nested in the graph's trace, the run goes where that trace goes: its project, its client.
        ...(graphRun ? {} : { project_name: projectName, ...(client ? { client } : {}) }),
      };
      const parent = parentRun ?? graphRun;
      const root = parent ? parent.createChild(config) : new RunTree(config);
      this.#root = root;
      this.#replans = 0;
      void this.#send(() => root.postRun());
    }
    return this.#root;
  }

  #child(parent: RunTree, name: string, runType: string, inputs: Record<string, unknown>): RunTree {
    const child = parent.createChild({ name, run_type: runType, inputs, tracingEnabled: true });
    void this.#send(() => child.postRun());
    return child;
  }

  #finish(run: RunTree, outputs: Record<string, unknown>, error?: string): Promise<void> {
    return this.#send(async () => {
      await run.end(outputs, error);
      await run.patchRun();
    });
  }

  onPlanStart(goal: unknown, state: Readonly<WorldState>, strategyName: string): Promise<void> {
    const inputs = { goal: goalOf(goal), state: factsOf(state) };
    const root = this.#ensureRoot(inputs);
    const superseded = this.#plan;
    this.#plan = this.#child(root, "goap.plan", "chain", { ...inputs, strategy: strategyName });
    return superseded ? this.#finish(superseded, { superseded: true }) : this.#queue;
  }

  onStrategyChosen(strategyName: string): void {
    if (this.#plan) this.#plan.extra = { ...this.#plan.extra, metadata: { ...this.#plan.metadata, strategy: strategyName } };
  }

  onReplan(reason: string, _newPlan: unknown): void {
    this.#replans++;
    if (this.#plan) this.#plan.inputs = { ...this.#plan.inputs, replan_reason: reason };
  }

  onPlanComplete(plan: unknown, durationMs: number): Promise<void> | undefined {
    const round = this.#plan;
    if (!round) return undefined;
    this.#plan = undefined;
    const { actions, totalCost } = planSummary(plan);
    return this.#finish(round, { actions, total_cost: totalCost, planning_ms: durationMs });
  }

  onPlanFailed(reason: string, durationMs: number): Promise<void> {
    const round = this.#plan;
    if (round) {
      this.#plan = undefined;
      return this.#finish(round, { planning_ms: durationMs }, reason);
    }
    return this.end({}, reason);
  }

  onActionStart(action: ActionSpec, state: Readonly<WorldState>): void {
    const root = this.#ensureRoot({ state: factsOf(state) });
    // In a traced graph the action belongs under the executor node's run, beside whatever else that node traced.
    const parent = this.#settings.parentRun ? root : (nodeRunTree() ?? root);
    const run = this.#child(parent, `goap.action ${action.name}`, "tool", { action: action.name, state: factsOf(state) });
    const open = this.#actions.get(action.name) ?? [];
    open.push(run);
    this.#actions.set(action.name, open);
  }

  onActionRetry(action: ActionSpec, attempt: number, error: unknown, backoffMs: number): void {
    this.#actions
      .get(action.name)
      ?.at(-1)
      ?.addEvent({ name: "retry", time: new Date().toISOString(), kwargs: { attempt, backoff_ms: backoffMs, error: errorText(error) } });
  }

  onActionComplete(result: unknown): Promise<void> | undefined {
    const outcome = actionOutcome(result);
    const key = outcome.action !== null && this.#actions.has(outcome.action) ? outcome.action : [...this.#actions.keys()].at(-1);
    if (key === undefined) return undefined;
    const open = this.#actions.get(key) as RunTree[];
    const run = open.shift() as RunTree;
    if (open.length === 0) this.#actions.delete(key);
    const after = (result as { stateAfter?: unknown } | null)?.stateAfter;
    return this.#finish(
      run,
      { success: outcome.success, state: factsOf(after) },
      outcome.success ? undefined : (outcome.error ?? "action failed"),
    );
  }

  onGoalAchieved(finalState: Readonly<WorldState>): Promise<void> {
    return this.end({ status: "goal_achieved", state: factsOf(finalState) });
  }

  onSensorComplete(sensorName: string, updates: Readonly<WorldState>): void {
    this.#ensureRoot({}).addEvent({
      name: "sensor",
      time: new Date().toISOString(),
      kwargs: { sensor: sensorName, keys: Object.keys(updates ?? {}) },
    });
  }

  /** Runs `execute` with the action's run as LangSmith's current run tree, so traced calls inside nest under it. */
  runAction<T>(action: ActionSpec, execute: () => Promise<T>): Promise<T> {
    const run = this.#actions.get(action.name)?.at(-1);
    return run ? withRunTree(run, execute) : execute();
  }

  /** Ends what is still open (actions, plan round, root) and sends it; resolves once sent. */
  end(outputs: Record<string, unknown> = {}, error?: string): Promise<void> {
    for (const runs of this.#actions.values()) for (const run of runs) void this.#finish(run, {}, "run ended before the action completed");
    this.#actions.clear();
    if (this.#plan) void this.#finish(this.#plan, {}, "run ended during planning");
    this.#plan = undefined;
    const root = this.#root;
    this.#root = undefined;
    this.#onEnd();
    if (!root) return this.#queue;
    return this.#finish(root, { ...outputs, replans: this.#replans }, error);
  }

  evict(reason: string): void {
    void this.end({ end_reason: reason });
  }
}

const LANG_SMITH_TRACER_OPTIONS_KEYS = {
  client: true,
  projectName: true,
  runName: true,
  parentRun: true,
  tags: true,
  maxOpenRuns: true,
} as const satisfies OptionKeys<LangSmithTracerOptions>;

/**
 * Sends GOAP runs to LangSmith as run trees: a `goap.run` chain per run,
 * a `goap.plan` chain per planning round (goal, state, strategy → plan
 * actions and cost, or the failure), and a `goap.action <name>` tool run
 * per executed action (state in, state out, the error when it fails,
 * retries as events). An action's `execute` runs with its run as the
 * current LangSmith run tree, so `traceable` functions and LangChain calls
 * inside it nest under the action. One tracer serves concurrent runs:
 * each gets its own tree. Delivery failures are dropped; tracing never
 * breaks a run. Call `await client.awaitPendingTraceBatches()` before a
 * short-lived process exits.
 *
 * @example
 * ```ts
 * import { Client } from "langsmith";
 * const client = new Client(); // LANGSMITH_API_KEY from the environment
 * const graph = new GoapGraph(actions, { tracer: new LangSmithTracer({ client, projectName: "agents" }) });
 * await graph.invoke({ published: true }, {});
 * await client.awaitPendingTraceBatches();
 * ```
 */
export class LangSmithTracer extends PerRunTracer<RunTreeState> {
  readonly #settings: Settings;

  constructor(options: LangSmithTracerOptions = {}) {
    super("LangSmithTracer", options.maxOpenRuns);
    checkOptionKeys(options, LANG_SMITH_TRACER_OPTIONS_KEYS, "new LangSmithTracer()");
    this.#settings = {
      client: options.client,
      projectName: options.projectName ?? process.env.LANGSMITH_PROJECT ?? "default",
      runName: options.runName ?? "goap.run",
      parentRun: options.parentRun,
      tags: Object.freeze([...(options.tags ?? [])]),
    };
  }

  protected createRun(run: TraceRun, forget: () => void): RunTreeState {
    return new RunTreeState(this.#settings, run, forget);
  }

  /** Ends every open run (the default one and any paused run) and sends them. */
  async end(): Promise<void> {
    await Promise.all([this.defaultRun.end(), ...this.openRunStates().map((run) => run.end({ end_reason: "tracer ended" }))]);
  }
}
