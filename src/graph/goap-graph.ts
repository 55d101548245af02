import { RunnableLambda } from "@langchain/core/runnables";
import { type BaseCheckpointSaver, Command, type LangGraphRunnableConfig, Overwrite, type StreamMode } from "@langchain/langgraph";
import { maxOf } from "../core/extremes.js";
import {
  type ActionSpec,
  checkStateValues,
  checkTimeout,
  describeValue,
  type GoalSpec,
  LangGoapError,
  type MultiGoal,
  validateActions,
  type WorldState,
} from "../core/index.js";
import { checkStateValuesAsync } from "../core/json-value.js";
import { checkOptionKeys, checkRunConfigKeys } from "../core/option-keys.js";
import { pauseIfTurnLong } from "../core/turn-clock.js";
import { randomUuid } from "../core/uuid.js";
import { GoalInterpreter } from "../nl/goal-interpreter.js";
import type { Plan } from "../planner/index.js";
import { copyFactsInSlices } from "./copy-state.js";
import { GoapExecutor } from "./executor.js";
import { type GoalData, type GoalInput, GoalRegistry } from "./goal-data.js";
import {
  COMPILE_OPTION_KEYS,
  GRAPH_OPTION_KEYS,
  INVOKE_NL_OPTION_KEYS,
  RECOVER_OPTION_KEYS,
  RUN_CONFIG_KEYS,
  STREAM_CONFIG_KEYS,
} from "./graph-option-keys.js";
import {
  DEFAULT_GOAP_RECURSION_LIMIT,
  type GoapCompileOptions,
  type GoapGraphOptions,
  type GoapNodeName,
  type InvokeNlOptions,
  type RecoverOptions,
} from "./graph-options.js";
import { invokeKeepingState } from "./invoke-keeping-state.js";
import { notJsonPart } from "./json.js";
import { CONSOLE_LOGGER, errorMessage, type GoapLogger, safeLogger } from "./logger.js";
import { GoapObserver } from "./observer.js";
import { ObserverLimits } from "./observer-limits.js";
import { ParallelGoapExecutor } from "./parallel-executor.js";
import { guardPausedThreads } from "./paused-thread-guard.js";
import { type PlanData, planFromData } from "./plan-data.js";
import { GoapPlanner } from "./planner.js";
import { RecoveryLease } from "./recovery-lease.js";
import { COMPILED_RECURSION_LIMIT } from "./run-limit.js";
import {
  createGoapStateAnnotation,
  freshRunState,
  type GoapState,
  type GoapStateAnnotation,
  type GoapStateUpdate,
  runRecordCount,
} from "./state.js";
import { buildStateGraph, type CompiledGoapGraph, type GoapRunResult, type GoapStateGraph, type GoapStreamOptions } from "./state-graph.js";
import { RECOVER_KEY, type RecoveryTicket, StepJournal } from "./step-journal.js";
import { readThreadRuns, type ThreadRun } from "./thread-history.js";
import { DEFAULT_CHECKPOINTER_TIMEOUT_MS, limitAssignedCheckpointers, limitCheckpointer } from "./time-limited-checkpointer.js";

function check(condition: boolean, field: string, expected: string, value: unknown): void {
  if (!condition) {
    throw new LangGoapError("INVALID_OPTION", `GoapGraph option ${field} must be ${expected}, got ${describeValue(value)}`, { field });
  }
}

/** The checks of a run's input that need no pass over the world's facts. */
function checkInputShape(goal: unknown, worldState: unknown): void {
  if (goal === null || goal === undefined) throw new LangGoapError("INVALID_GOAL", "GoapGraph: a goal is required");
  if (worldState !== undefined && (typeof worldState !== "object" || worldState === null || Array.isArray(worldState))) {
    throw new LangGoapError("INVALID_STATE", `GoapGraph: worldState must be an object of facts, got ${describeValue(worldState)}`);
  }
}

/**
 * Plans that run as real LangGraph graphs. `compile()` returns a
 * `CompiledStateGraph` with nodes `planner` → `executor` → `observer`, the
 * observer routing back to the planner (replan), to the executor (next
 * step) or to the end through a conditional edge. The state is plain JSON: any
 * checkpointer can persist it, and a run interrupted for human approval
 * resumes in a fresh `GoapGraph` built from the same actions.
 *
 * @example
 * ```ts
 * const graph = new GoapGraph([research, writeFast, writePremium, publish]);
 * const result = await graph.invoke({ published: true }, {});
 * result.status;                        // "goal_achieved"
 * successfulActionNames(result);         // ["research", "write_fast", "publish"]
 *
 * const app = graph.compile({ checkpointer: new MemorySaver() });
 * await app.invoke(graph.createInput(goal, {}), { configurable: { thread_id: "t1" } });
 * ```
 *
 * `S` is the type of the world state: built from a typed domain's actions
 * (see `defineDomain`), goals, world states and results are checked and
 * typed by its facts; the default is the untyped world.
 */
export class GoapGraph<S extends WorldState = WorldState> {
  readonly actions: readonly ActionSpec<S>[];
  readonly planner: GoapPlanner;
  readonly executor: GoapExecutor;
  readonly observer: GoapObserver;
  /** The LangGraph state definition. */
  readonly state: GoapStateAnnotation;
  readonly recursionLimit: number;
  readonly #seed: number;
  readonly #goals: GoalRegistry;
  /** Time limit in ms of each checkpointer call a run waits on (the `checkpointerTimeoutMs` option). */
  readonly checkpointerTimeoutMs: number;
  readonly #logger: Required<GoapLogger>;
  #compiled: CompiledGoapGraph | undefined;

  constructor(actions: readonly ActionSpec<S>[], options: GoapGraphOptions = {}) {
    checkOptionKeys(options, GRAPH_OPTION_KEYS, "new GoapGraph()");
    this.actions = validateActions(actions) as readonly ActionSpec<S>[];
    const seed = options.seed ?? 0;
    check(typeof seed === "number" && Number.isFinite(seed), "seed", "a finite number", seed);
    const limit = options.recursionLimit ?? DEFAULT_GOAP_RECURSION_LIMIT;
    check(Number.isInteger(limit) && limit >= 1, "recursionLimit", "an integer >= 1", limit);
    for (const field of ["sensors", "resolvers", "guards", "stuckHandlers", "terminationPolicies", "goals"] as const) {
      const value = options[field];
      check(value === undefined || Array.isArray(value), field, "an array", value);
    }
    this.#seed = seed;
    this.#logger = safeLogger(options.logger ?? CONSOLE_LOGGER);
    this.recursionLimit = limit;
    this.checkpointerTimeoutMs = checkTimeout(options.checkpointerTimeoutMs ?? DEFAULT_CHECKPOINTER_TIMEOUT_MS, "checkpointerTimeoutMs");
    const goalRegistry = new GoalRegistry(options.goals ?? []);
    this.#goals = goalRegistry;
    const common = {
      goalRegistry,
      // One set of limits for the three nodes: a tracer dropped by one is dropped by all.
      observerLimits: new ObserverLimits(options.observerTimeoutMs),
      ...(options.hookTimeoutMs === undefined ? {} : { hookTimeoutMs: options.hookTimeoutMs }),
      ...(options.tracer ? { tracer: options.tracer } : {}),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.now ? { now: options.now } : {}),
    };
    this.planner = new GoapPlanner(this.actions, {
      ...common,
      ...pick(options, [
        "strategy",
        "pipelineStrategy",
        "sensors",
        "resolvers",
        "stuckHandlers",
        "maxStuckIterations",
        "recordExpansions",
        "sensorTimeoutMs",
        "planningTimeoutMs",
        "terminationPolicies",
      ]),
      seed,
    });
    const Executor = options.parallel ? ParallelGoapExecutor : GoapExecutor;
    this.executor = new Executor(this.actions, {
      ...common,
      ...pick(options, ["guards", "transitionModel", "sleep", "actionTimeoutMs", "history"]),
    });
    this.observer = new GoapObserver(this.actions, {
      ...common,
      ...pick(options, ["terminationPolicies", "history"]),
      recursionLimit: limit,
    });
    this.state = createGoapStateAnnotation(goalRegistry, seed);
  }

  /** The uncompiled LangGraph `StateGraph` (to embed or extend). */
  builder(): GoapStateGraph {
    return buildStateGraph(this.state, this.planner, this.executor, this.observer);
  }

  /**
   * Compiles to a LangGraph `CompiledStateGraph` with no LangGraph
   * recursion limit of its own (each run is bounded by its observer:
   * {@link GoapGraph.recursionLimit} supersteps beyond twice its plan's
   * length, then it ends `terminated`), and whose default durability
   * is `"sync"` (every step's checkpoint is saved before the next step
   * starts: the execution guarantee depends on it). The last compiled graph
   * is the one {@link GoapGraph.invoke} and {@link GoapGraph.stream} use.
   */
  compile(options: GoapCompileOptions = {}): CompiledGoapGraph {
    checkOptionKeys(options, COMPILE_OPTION_KEYS, "compile()");
    const compiled = this.builder()
      .compile({
        ...(options.checkpointer !== undefined ? { checkpointer: this.#limited(options.checkpointer) } : {}),
        ...(options.store ? { store: options.store } : {}),
        ...(options.interruptBefore ? { interruptBefore: options.interruptBefore as GoapNodeName[] | "*" } : {}),
        ...(options.interruptAfter ? { interruptAfter: options.interruptAfter as GoapNodeName[] | "*" } : {}),
        ...(options.name ? { name: options.name } : {}),
      })
      // "sync": each step's checkpoint is saved before the next step starts, so a finished action is never lost to a crash.
      .withConfig({ recursionLimit: COMPILED_RECURSION_LIMIT, durability: "sync" });
    this.#compiled = limitAssignedCheckpointers(guardPausedThreads(compiled as CompiledGoapGraph), this.checkpointerTimeoutMs);
    return this.#compiled;
  }

  /**
   * The input that starts a new run of `goal`: every run-scoped field
   * fresh (plan, history, counters, blacklist, a new run id, ...). A given
   * `worldState` replaces the thread's world; without one the run starts
   * from the world the thread's last run left (`{}` on a new thread). The
   * thread's earlier runs stay readable ({@link GoapGraph.threadHistory}).
   *
   * @example
   * ```ts
   * const app = graph.compile({ checkpointer: new MemorySaver() });
   * await app.invoke(graph.createInput({ published: true }, { topic: "GOAP" }), { configurable: { thread_id: "t1" } });
   * await app.invoke(graph.createInput({ archived: true }), { configurable: { thread_id: "t1" } }); // from run 1's world
   * ```
   */
  createInput(goal: GoalInput<S>, worldState?: Readonly<S>): GoapStateUpdate {
    checkInputShape(goal, worldState);
    if (worldState !== undefined) checkStateValues(worldState, "GoapGraph");
    return this.#inputOf(goal, worldState === undefined ? undefined : { ...worldState });
  }

  /**
   * {@link createInput} without blocking the event loop, for `invoke` and
   * `stream`: the world is checked, then copied, in slices (a world
   * of 10,000 facts took 10-30 ms to copy and 2-12 ms to check in one go).
   */
  async #createInputInSlices(goal: GoalInput<S>, worldState: Readonly<S> | undefined): Promise<GoapStateUpdate> {
    checkInputShape(goal, worldState);
    if (worldState === undefined) return this.#inputOf(goal, undefined);
    // Checked first, so that a state that cannot be read (a throwing getter, a hostile proxy) is a coded error; the
    // planner node checks the copy again.
    await checkStateValuesAsync(worldState, "GoapGraph");
    return this.#inputOf(goal, await copyFactsInSlices(worldState));
  }

  #inputOf(goal: GoalInput<S>, world: WorldState | undefined): GoapStateUpdate {
    return {
      ...freshRunState(this.#seed),
      // Typed conditions are conditions: only the compile-time view differs.
      goal: goal as GoalInput,
      ...(world === undefined ? {} : { worldState: world }),
      executionHistory: new Overwrite([]) as unknown as GoapState["executionHistory"],
      runId: randomUuid(),
    };
  }

  /**
   * The live {@link Plan} of a state's plan data (actions re-bound by name),
   * e.g. to render the plan of a checkpoint.
   *
   * @example
   * ```ts
   * const { values } = await app.getState(config);
   * graph.restorePlan(values.plan)?.actionNames;
   * ```
   */
  restorePlan(data: PlanData | null): Plan | null {
    return data ? planFromData(data, this.executor.actionsByName) : null;
  }

  /** The live goal of a state's goal data (the object given, when this graph has seen it). */
  restoreGoal(data: GoalData | null): GoalSpec | MultiGoal | null {
    return data ? this.#goals.restore(data) : null;
  }

  /** A checkpointer object with the graph's time limit on the calls a run waits on (`true`/`false` pass through). */
  #limited(checkpointer: BaseCheckpointSaver | boolean): BaseCheckpointSaver | boolean {
    return typeof checkpointer === "object" && checkpointer !== null
      ? limitCheckpointer(checkpointer, this.checkpointerTimeoutMs)
      : checkpointer;
  }

  #app(): CompiledGoapGraph {
    return this.#compiled ?? this.compile();
  }

  /**
   * Runs `goal` from `worldState` to the end (or to an interrupt) on the last
   * compiled graph (compiling one without a checkpointer if needed). When
   * `config.signal` aborts the run (planning stops within one search slice),
   * it resolves with the state reached so far, `status: "aborted"` and the
   * signal's reason in `replanReason`, rather than rejecting.
   *
   * @example
   * ```ts
   * const result = await graph.invoke({ published: true }, { topic: "GOAP" });
   * const stopped = await graph.invoke(goal, {}, { signal: AbortSignal.timeout(500) });
   * stopped.status; // "aborted" when the run was cut short
   * ```
   */
  async invoke(goal: GoalInput<S>, worldState?: Readonly<S>, config?: LangGraphRunnableConfig): Promise<GoapRunResult<S>> {
    checkRunConfigKeys(config, RUN_CONFIG_KEYS, "graph.invoke() config");
    const [input, runConfig] = this.#startRun(await this.#createInputInSlices(goal, worldState), config);
    const initial = {
      worldState: {},
      ...input,
      goal: this.#goals.toData(goal as GoalInput),
      executionHistory: [],
    } as unknown as GoapRunResult;
    const app = this.#app();
    // Compiling (the first run) and LangGraph's start of a run each take milliseconds: not in the same turn.
    await pauseIfTurnLong();
    return (await invokeKeepingState(app, input, runConfig, initial)) as GoapRunResult<S>;
  }

  /**
   * A fresh run's input and config: the run's id goes in both (the
   * caller's `configurable.run_id` when given), so tracers and history
   * see one id per run.
   */
  #startRun<C extends LangGraphRunnableConfig | undefined>(input: GoapStateUpdate, config: C): [GoapStateUpdate, C] {
    const given = config?.configurable?.run_id;
    const runId = typeof given === "string" && given !== "" ? given : (input.runId as string);
    // The run bounds itself (recursionLimit beyond its plan): a caller's LangGraph limit would cut a long plan short with a raw error.
    return [
      { ...input, runId },
      { ...config, recursionLimit: COMPILED_RECURSION_LIMIT, configurable: { ...config?.configurable, run_id: runId } } as C,
    ];
  }

  /**
   * Streams a run; `config.streamMode` picks LangGraph's stream mode(s)
   * (`values`, `updates`, `debug`, `custom`, `checkpoints`, `tasks`, ...).
   *
   * @example
   * ```ts
   * for await (const chunk of await graph.stream(goal, {}, { streamMode: "updates" })) console.log(chunk);
   * ```
   */
  async stream<
    TStreamMode extends StreamMode | StreamMode[] | undefined = undefined,
    TSubgraphs extends boolean = false,
    TEncoding extends "text/event-stream" | undefined = undefined,
  >(goal: GoalInput<S>, worldState?: Readonly<S>, config?: GoapStreamOptions<TStreamMode, TSubgraphs, TEncoding>) {
    checkRunConfigKeys(config, STREAM_CONFIG_KEYS, "graph.stream() config");
    const [input, runConfig] = this.#startRun(await this.#createInputInSlices(goal, worldState), config);
    const app = this.#app();
    await pauseIfTurnLong();
    return app.stream(input, runConfig);
  }

  /**
   * Turns a request in plain language into a goal with a {@link GoalInterpreter}
   * over this graph's actions, then runs it. Interpretation failures (a
   * model that names unknown facts twice, a provider error) reject with the
   * interpreter's error before anything executes.
   *
   * @example
   * ```ts
   * const result = await graph.invokeNl("publish a post about GOAP", {}, { llm: new ChatOpenAI({ model: "gpt-4o-mini" }) });
   * ```
   */
  async invokeNl(request: string, worldState: Readonly<S> = {} as S, options: InvokeNlOptions): Promise<GoapRunResult<S>> {
    checkOptionKeys(options, INVOKE_NL_OPTION_KEYS, "graph.invokeNl()");
    checkRunConfigKeys(options?.config, RUN_CONFIG_KEYS, "graph.invokeNl() config");
    if (!options?.llm) throw new LangGoapError("INVALID_OPTION", "GoapGraph.invokeNl: options.llm (a LangChain chat model) is required");
    const interpreter = new GoalInterpreter(options.llm, this.actions, options.interpreter);
    // One root run for the whole request: the model call and the graph run are its children in any tracer.
    const run = RunnableLambda.from(async (_input: { request: string }, config: LangGraphRunnableConfig) => {
      const goal = await interpreter.interpret(request, worldState, config);
      // The interpreter's goal names only this graph's facts (it checks them against the actions).
      return this.invoke(goal as GoalInput<S>, worldState, config);
    }).withConfig({ runName: options.config?.runName ?? "goap.invokeNl" });
    const { runName: _runName, ...config } = options.config ?? {};
    return (await run.invoke({ request }, config)) as GoapRunResult<S>;
  }

  /**
   * Resumes a paused run (at a human-approval interrupt, or stopped by
   * `interruptBefore`/`interruptAfter` or an `updateState`) with the human's
   * answer (`true`/`false`/`{ approved, reason }`, or a form value), from
   * the checkpoint it is paused at. A thread that has no run or whose run
   * has ended is a `NOT_PAUSED` error; a `null` or `undefined` answer to a
   * waiting question is an `INVALID_ANSWER` error (a run paused without a
   * question continues with no answer). When two callers resume the same
   * pause, one runs the step and the other gets a `STEP_CLAIMED` error.
   *
   * @example
   * ```ts
   * await graph.resume(true, { configurable: { thread_id: "t1" } });
   * ```
   */
  async resume(answer: unknown, config: LangGraphRunnableConfig): Promise<GoapRunResult<S>> {
    checkRunConfigKeys(config, RUN_CONFIG_KEYS, "graph.resume() config");
    const { app, snapshot, threadId } = await this.#thread(config, "resume");
    // A thread is paused while tasks wait (LangGraph's `next` can be empty for a node interrupted twice, `tasks` is not).
    if (snapshot.createdAt === undefined || snapshot.tasks.length === 0) {
      const status =
        snapshot.createdAt === undefined
          ? "it has no run"
          : `its run has ended (status ${describeValue((snapshot.values as GoapState).status)})`;
      throw new LangGoapError(
        "NOT_PAUSED",
        `GoapGraph.resume: thread "${threadId}" is not paused, ${status}: no question waits for an answer; start a run with graph.invoke(goal, worldState, config)`,
        { threadId },
      );
    }
    const question = snapshot.tasks.flatMap((task) => task.interrupts)[0];
    if ((answer === null || answer === undefined) && question) {
      const action = (question.value as { action?: unknown } | undefined)?.action;
      const about = typeof action === "string" ? ` about action ${JSON.stringify(action)}` : "";
      throw new LangGoapError(
        "INVALID_ANSWER",
        `GoapGraph.resume: the answer is ${answer}, but thread "${threadId}" waits for a human's answer${about}: pass true, false or ` +
          "{ approved, reason } for an approval, the form's value for a form (null and undefined are no answer)",
        { threadId, ...(typeof action === "string" ? { action } : {}) },
      );
    }
    const bad = question && answer !== null && answer !== undefined ? notJsonPart(answer) : null;
    if (bad) {
      throw new LangGoapError(
        "INVALID_ANSWER",
        `GoapGraph.resume: the answer is not JSON at "${bad.path || "(root)"}": ${bad.reason} (thread "${threadId}" would have to keep it in its state)`,
        { threadId, path: bad.path },
      );
    }
    // Pinned to the checkpoint seen paused: a caller that comes late forks from it and loses the step's claim.
    const checkpointId = snapshot.config.configurable?.checkpoint_id as string | undefined;
    const pinned = { ...config, configurable: { ...config.configurable, ...(checkpointId ? { checkpoint_id: checkpointId } : {}) } };
    // No question waits (a pause by interruptBefore/interruptAfter or an updateState): no answer continues the run.
    const input = answer === null || answer === undefined ? null : new Command({ resume: answer });
    return (await invokeKeepingState(app, input, pinned)) as GoapRunResult<S>;
  }

  /**
   * Continues a run that stopped without ending: its process was killed or
   * crashed, or a step threw. It resumes from the last saved checkpoint; a
   * step that had finished is not run again, and a step that was running
   * when the process stopped runs once more with the same
   * `idempotencyKey` and `stepAttempt` 2 (a step left unfinished twice is
   * not started a third time: it fails as `crashed`). Call it only when the
   * invocation that ran the thread is gone: a live one would see its step
   * run twice. Any other invocation that meets the claimed step gets a
   * `STEP_CLAIMED` error, except one under the claimant's `run_id` (the
   * LangGraph API server retrying a run whose worker died). A run that has
   * ended is returned as it is; a thread with no checkpoint (killed before
   * its first step was saved) is a `NOT_STARTED` error.
   *
   * Recoveries of a run take turns: of several `recover` calls at once
   * (threads of a fleet, in any processes), exactly one continues the run
   * and the others get `STEP_CLAIMED` having run nothing. A later call
   * takes over only when the last recovery ended, or stopped without
   * ending and its process is gone (seen by pid and start time on this
   * host); a recovery on another host is taken over only with
   * `options.takeOver`.
   *
   * @example
   * ```ts
   * // In a fresh process, after the one running thread "t1" was killed:
   * const graph = new GoapGraph(actions);
   * graph.compile({ checkpointer: PostgresSaver.fromConnString(url) });
   * const result = await graph.recover({ configurable: { thread_id: "t1" } });
   * ```
   *
   * @param options.takeOver - the caller knows every earlier recovery has stopped (see {@link RecoverOptions})
   */
  async recover(config: LangGraphRunnableConfig, options: RecoverOptions = {}): Promise<GoapRunResult<S>> {
    checkRunConfigKeys(config, RUN_CONFIG_KEYS, "graph.recover() config");
    checkOptionKeys(options, RECOVER_OPTION_KEYS, "graph.recover()");
    const { app, snapshot, threadId, checkpointer } = await this.#thread(config, "recover");
    if (snapshot.createdAt === undefined) {
      throw new LangGoapError(
        "NOT_STARTED",
        `GoapGraph.recover: thread "${threadId}" has no checkpoint: its run never started (or was killed before its first step was saved); ` +
          "start it with graph.invoke(goal, worldState, config)",
        { threadId },
      );
    }
    const seen = snapshot.values as GoapState;
    if (snapshot.tasks.length === 0) return seen as GoapRunResult<S>;
    const checkpointNs = typeof config.configurable?.checkpoint_ns === "string" ? config.configurable.checkpoint_ns : "";
    const runId = seen.runId ?? "run";
    // One recovery of a run at a time: the lease is taken before the thread is read again, so the state this recovery continues is the one its
    // predecessors left, never one a live recovery is still writing.
    const lease = await RecoveryLease.acquire(checkpointer, { threadId, checkpointNs, runId }, options.takeOver === true);
    try {
      const current = await app.getState(config);
      const values = current.values as GoapState;
      // A recovery that ran in the meantime ended the run: it is returned as it is.
      if (current.tasks.length === 0) return values as GoapRunResult<S>;
      const configurable: Record<string, unknown> = { ...config.configurable };
      const checkpoint = current.config.configurable?.checkpoint_id;
      if (values.runId && typeof checkpoint === "string") {
        // The step the stopped invocation may have left claimed (run from the checkpoint it stopped at): this recovery may take it over, and only it.
        const step = { position: runRecordCount(values), checkpoint };
        const log = await new StepJournal(checkpointer, threadId, checkpointNs, values.runId).read(step);
        const ticket: RecoveryTicket = { runId: values.runId, ...step, slot: Math.max(0, maxOf(log.claims.keys())) };
        configurable[RECOVER_KEY] = ticket;
      }
      return (await invokeKeepingState(app, null, { ...config, configurable })) as GoapRunResult<S>;
    } finally {
      await lease.end().catch((error: unknown) => this.#leaseNotEnded(threadId, error));
    }
  }

  #leaseNotEnded(threadId: string, error: unknown): void {
    this.#logger.warn(
      `GoapGraph.recover: the end of the recovery of thread "${threadId}" could not be saved (${errorMessage(error)}); ` +
        "while this process runs, a later recover() of the thread is refused: pass { takeOver: true } to it",
      { threadId },
    );
  }

  /**
   * Every run of a thread, oldest first: each new input on a finished
   * thread starts a run, and each keeps its own history, status and world.
   * Read from the thread's checkpoints; the last entry is the run in
   * progress when the thread's run has not ended.
   *
   * @example
   * ```ts
   * const config = { configurable: { thread_id: "t1" } };
   * await graph.invoke({ published: true }, { topic: "GOAP" }, config);
   * await graph.invoke({ archived: true }, undefined, config);
   * (await graph.threadHistory(config)).map((run) => run.status); // ["goal_achieved", "goal_achieved"]
   * ```
   */
  async threadHistory(config: LangGraphRunnableConfig): Promise<ThreadRun[]> {
    checkRunConfigKeys(config, RUN_CONFIG_KEYS, "graph.threadHistory() config");
    const { app } = await this.#thread(config, "threadHistory");
    return readThreadRuns(app, config);
  }

  async #thread(config: LangGraphRunnableConfig, method: string) {
    const app = this.#app();
    const checkpointer = app.checkpointer;
    const threadId = config?.configurable?.thread_id;
    if (!checkpointer || typeof checkpointer !== "object" || typeof threadId !== "string") {
      throw new LangGoapError(
        "INVALID_OPTION",
        `GoapGraph.${method} needs a graph compiled with a checkpointer (graph.compile({ checkpointer })) and config.configurable.thread_id`,
        { method },
      );
    }
    return { app, checkpointer, threadId, snapshot: await app.getState(config) };
  }
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
