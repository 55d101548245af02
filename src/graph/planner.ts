import { type LangGraphRunnableConfig, Overwrite } from "@langchain/langgraph";
import type { ConditionResolver } from "../core/index.js";
import { type ActionSpec, checkTimeout, describeValue, type GoalSpec, LangGoapError, MultiGoal, type WorldState } from "../core/index.js";
import { checkStateValuesAsync } from "../core/json-value.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { randomUuid } from "../core/uuid.js";
import { AStarStrategy, type Plan, type PlanningStrategy, planningKeys } from "../planner/index.js";
import { resolveConditions } from "./conditions.js";
import { copyData } from "./copy-state.js";
import { DefaultPipelineStrategy } from "./default-pipeline.js";
import { exhaustedActions, exhaustionReason, fallbackUpdate } from "./exhaustion.js";
import { goalToData } from "./goal-data.js";
import {
  activeGoal,
  type GoalPlanningContext,
  type GoalPlanningResult,
  planGoal,
  planMultiGoal,
  type SkippedSubgoal,
} from "./goal-planning.js";
import { planFromData, planToData } from "./plan-data.js";
import { runIdentity } from "./run-identity.js";
import { type GoapNodeOptions, NodeRuntime } from "./runtime.js";
import { runSensors, type Sensor } from "./sensors.js";
import {
  type ActionFailureKind,
  type ActionResult,
  FINAL_FAILURES,
  freshRunState,
  type GoapState,
  type GoapStateUpdate,
  TERMINAL_STATUSES,
} from "./state.js";
import { emitEvent } from "./stream-events.js";
import { MulticastStuckHandler, type StuckHandler } from "./stuck.js";
import { stepsRemaining, type TerminationPolicy } from "./termination.js";

/** Options of {@link GoapPlanner}. */
export interface GoapPlannerOptions extends GoapNodeOptions {
  /** Plans every goal. @defaultValue A* for plain goals, `pipelineStrategy` for goals with constraints, objectives or metrics */
  readonly strategy?: PlanningStrategy;
  /** Plans goals with constraints, objectives or metrics when no `strategy` is given. @defaultValue a `TwoPhasePipelineStrategy` */
  readonly pipelineStrategy?: PlanningStrategy;
  /** Observe the world before each planning round. @defaultValue [] */
  readonly sensors?: readonly Sensor[];
  /** Decide boolean facts before each planning round (three-valued). @defaultValue [] */
  readonly resolvers?: readonly ConditionResolver[];
  /** Asked, in order, when no plan is found. @defaultValue [] */
  readonly stuckHandlers?: readonly StuckHandler[];
  /** How many times stuck handlers are consulted per planning round. @defaultValue 3 */
  readonly maxStuckIterations?: number;
  /** Send search events to the tracer. @defaultValue false */
  readonly recordExpansions?: boolean;
  /** Time limit of a reading for sensors without their own `timeoutMs` (`Infinity` for none). @defaultValue 30 s (`DEFAULT_SENSOR_TIMEOUT_MS`) */
  readonly sensorTimeoutMs?: number;
  /** Where a new run's seeded generator starts (the graph's `seed`). @defaultValue 0 */
  readonly seed?: number;
  /**
   * Time limit in ms of one call of the planning strategy (`Infinity` for
   * none). The strategy's `context.signal` aborts at the limit; one that has
   * not answered by then ends the run `budget_exhausted`, the explanation
   * naming the strategy and the limit. @defaultValue {@link DEFAULT_PLANNING_TIMEOUT_MS}
   */
  readonly planningTimeoutMs?: number;
  /** The graph's termination policies: their step limits reach the strategy as `stepsRemaining`. @defaultValue [] */
  readonly terminationPolicies?: readonly TerminationPolicy[];
}

/**
 * Time limit of one planning strategy call unless configured otherwise: 60
 * seconds, well above the built-in searches' own default budget (10 s), so
 * it only stops a strategy that does not stop itself.
 */
export const DEFAULT_PLANNING_TIMEOUT_MS = 60_000;

interface Reflection {
  readonly actionName?: string;
  readonly reflection?: string;
  readonly suggestion?: string;
}

const GOAP_PLANNER_OPTIONS_KEYS = {
  strategy: true,
  pipelineStrategy: true,
  sensors: true,
  resolvers: true,
  stuckHandlers: true,
  maxStuckIterations: true,
  recordExpansions: true,
  sensorTimeoutMs: true,
  seed: true,
  planningTimeoutMs: true,
  terminationPolicies: true,
  tracer: true,
  logger: true,
  goalRegistry: true,
  now: true,
  observerTimeoutMs: true,
  hookTimeoutMs: true,
  observerLimits: true,
} as const satisfies OptionKeys<GoapPlannerOptions>;

/**
 * The `planner` node: observes (sensors), orients (condition resolvers),
 * and plans the goal (or the right subgoal of a MultiGoal) with the
 * strategy. Actions with `canRerun: false` that already succeeded are left
 * out; blacklisted actions are avoided unless no plan exists without them
 * (then the blacklist and failure counts are cleared). When no plan exists,
 * stuck handlers may change the state or the goal and planning is retried.
 * The default A* searches asynchronously under its default budgets (10 s,
 * 1,000,000 states), so the event loop keeps running and the run's
 * `config.signal` stops it; a search cut short ends the run
 * `budget_exhausted` or `aborted` (never `no_plan`), with the figures in
 * `noPlanExplanation`.
 *
 * @example
 * ```ts
 * const planner = new GoapPlanner(actions, { sensors: [clock], strategy: new AStarStrategy() });
 * builder.addNode("planner", (state, config) => planner.run(state, config));
 * ```
 */
export class GoapPlanner {
  protected readonly runtime: NodeRuntime;
  readonly #options: GoapPlannerOptions;
  readonly #astar = new AStarStrategy();
  readonly #pipeline: PlanningStrategy;
  readonly #stuck: StuckHandler | undefined;
  readonly #maxStuckIterations: number;
  readonly #planningTimeoutMs: number;

  constructor(actions: readonly ActionSpec[], options: GoapPlannerOptions = {}) {
    checkOptionKeys(options, GOAP_PLANNER_OPTIONS_KEYS, "new GoapPlanner()");
    this.runtime = new NodeRuntime(actions, options);
    this.#options = options;
    const max = options.maxStuckIterations ?? 3;
    if (!Number.isInteger(max) || max < 1) {
      throw new LangGoapError("INVALID_OPTION", `maxStuckIterations must be an integer >= 1, got ${describeValue(max)}`);
    }
    this.#maxStuckIterations = max;
    if (options.sensorTimeoutMs !== undefined) checkTimeout(options.sensorTimeoutMs, "sensorTimeoutMs");
    this.#planningTimeoutMs =
      options.planningTimeoutMs === undefined ? DEFAULT_PLANNING_TIMEOUT_MS : checkTimeout(options.planningTimeoutMs, "planningTimeoutMs");
    this.#pipeline = options.pipelineStrategy ?? new DefaultPipelineStrategy();
    const handlers = options.stuckHandlers ?? [];
    this.#stuck = handlers.length
      ? new MulticastStuckHandler(handlers, "multicast", this.runtime.logger, this.runtime.hookTimeoutMs)
      : undefined;
    for (const [name, strategy] of [
      ["strategy", options.strategy],
      ["pipelineStrategy", options.pipelineStrategy],
    ] as const) {
      if (strategy !== undefined && typeof strategy?.plan !== "function") {
        throw new LangGoapError("INVALID_OPTION", `${name} must implement PlanningStrategy (a plan(start, goal, actions, context) method)`);
      }
    }
  }

  /** The strategy that plans `goal`: `strategy` when given, else the pipeline for goals that need optimization, else A*. */
  strategyFor(goal: GoalSpec): PlanningStrategy {
    if (this.#options.strategy) return this.#options.strategy;
    return goal.needsOptimization ? this.#pipeline : this.#astar;
  }

  /**
   * Runs one planning round on `state`. On a thread whose last run has
   * ended (a new input arrived), a new run starts first: every run-scoped
   * field fresh (history, plan, counters, blacklist, run id, ...), the goal
   * and world as the thread now holds them.
   */
  async run(state: GoapState, config?: LangGraphRunnableConfig): Promise<GoapStateUpdate> {
    if (!TERMINAL_STATUSES.has(state.status)) return this.#round(state, config);
    const fresh = freshRunState(this.#options.seed ?? 0);
    const update = await this.#round({ ...state, ...fresh }, config);
    // The thread's earlier runs stay in its checkpoints and history records; this run's history starts empty.
    return { ...fresh, executionHistory: new Overwrite([]) as unknown as ActionResult[], ...update };
  }

  async #round(state: GoapState, config?: LangGraphRunnableConfig): Promise<GoapStateUpdate> {
    const began = performance.now();
    const wallClockStartedAt = state.wallClockStartedAt ?? this.runtime.now();
    if (!state.goal) return { status: "error", replanReason: "no goal specified", plan: null, currentStep: 0, wallClockStartedAt };
    if (typeof state.worldState !== "object" || state.worldState === null || Array.isArray(state.worldState)) {
      throw new LangGoapError("INVALID_STATE", `worldState must be an object of facts, got ${describeValue(state.worldState)}`);
    }
    // In slices: a world of 10,000 facts took 2-12 ms to check in one go.
    await checkStateValuesAsync(state.worldState, "GoapPlanner");
    let goal = this.runtime.goals.restore(state.goal);
    let world = await this.#observe(state.worldState, goal, config?.signal);

    const wasReplan = state.plan !== null;
    const replanCount = state.replanCount + (wasReplan ? 1 : 0);
    const usable = this.#usableActions(state);
    // Exhausted actions are out of this (sub)goal: no fallback brings them back.
    const exhausted = exhaustedActions(state);
    const firstGoal = activeGoal(goal, state.currentSubgoalIndex);
    const strategy = this.strategyFor(firstGoal);
    await this.runtime.trace("onPlanStart", firstGoal, world, strategy.name);
    // A router announces the strategy it picks itself; announcing "router" too would double the event.
    if (strategy.announcesChoice !== true) await this.runtime.trace("onStrategyChosen", strategy.name);

    const ctx: GoalPlanningContext = {
      actions: usable.filter((a) => !exhausted.has(a.name)),
      known: this.runtime.actionsByName,
      blacklisted: state.blacklistedActions.filter((name) => !exhausted.has(name)),
      chooseStrategy: (g) => this.strategyFor(g),
      priorPlan: wasReplan ? this.#priorPlan(state) : null,
      currentStep: state.currentStep,
      stepsRemaining: stepsRemaining(this.#options.terminationPolicies ?? [], state),
      signal: config?.signal,
      timeoutMs: this.#planningTimeoutMs,
      tracer: this.runtime.tracer,
      recordExpansions: this.#options.recordExpansions === true,
      logger: this.runtime.logger,
    };
    const planned = await this.#planWithRecovery(state, goal, world, replanCount, ctx);
    const { result } = planned;
    world = planned.world;
    const goalChanged = planned.goal !== goal;
    goal = planned.goal;

    const durationMs = performance.now() - began;
    const common: GoapStateUpdate = {
      ...(result.skipped?.length ? { skippedSubgoals: mergeSkipped(state.skippedSubgoals, result.skipped) } : {}),
      worldState: world,
      currentStep: 0,
      replanCount,
      wallClockStartedAt,
      // A run started without an id (a raw input) takes the platform's run_id or draws one: its idempotency keys must hold across crashes.
      ...(state.runId ? {} : { runId: runIdentity(config).runId ?? randomUuid() }),
      reflectionContext: this.#reflections(state.reflectionContext),
      ...(goalChanged ? { goal } : {}),
    };
    if (!result.plan && exhausted.size > 0) {
      const blockers = await this.#exhaustedOnTheWay(goal, world, result.subgoalIndex, exhausted, {
        ...ctx,
        actions: usable,
        blacklisted: [],
      });
      // Only actions that keep failing lead to the goal: the run ends here instead of trying them again.
      if (blockers.length > 0) {
        return {
          ...common,
          plan: null,
          status: "failed",
          replanReason: exhaustionReason(blockers, state),
          currentSubgoalIndex: result.subgoalIndex,
        };
      }
    }
    if (!result.plan) {
      // A search cut short by its budget or a signal is not a proof that no plan exists: the run says which.
      const cutShort = result.status === "budget_exhausted" || result.status === "aborted";
      const excluded = excludedActions(state);
      // A human's refusal that is all that stands between the run and its goal ends it `denied`, not `no_plan`.
      const refused = cutShort ? [] : await this.#refusedOnTheWay(goal, world, result.subgoalIndex, usable, excluded, ctx);
      const status = cutShort ? (result.status as "budget_exhausted" | "aborted") : refused.length > 0 ? "denied" : "no_plan";
      await this.runtime.trace("onPlanFailed", status, durationMs);
      emitEvent(config, { kind: "no_plan", suggestion: result.explanation?.suggestion ?? "", status });
      const why = excluded.map((e) => `${e.action} (${e.failure === "crashed" ? "crashed twice" : "refused by a human"})`);
      const replanReason = cutShort
        ? (result.explanation?.suggestion ?? status)
        : refused.length > 0
          ? `denied: a human refused ${refused.map((name) => `"${name}"`).join(", ")}, and no plan reaches the goal without ${refused.length === 1 ? "it" : "them"}`
          : excluded.length
            ? `no plan without the actions excluded from this run: ${why.join(", ")}`
            : undefined;
      return {
        ...common,
        plan: null,
        status,
        ...(replanReason === undefined ? {} : { replanReason }),
        noPlanExplanation: result.explanation,
        currentSubgoalIndex: result.subgoalIndex,
      };
    }
    if (wasReplan) await this.runtime.trace("onReplan", state.replanReason ?? "unknown", result.plan);
    await this.runtime.trace("onPlanComplete", result.plan, durationMs);
    emitEvent(config, { kind: "plan", actions: result.plan.actionNames, totalCost: result.plan.totalCost, replan: wasReplan });
    return {
      ...common,
      plan: planToData(result.plan, planningKeys(result.goal, this.runtime.actions), world),
      status: "executing",
      noPlanExplanation: null,
      currentSubgoalIndex: result.subgoalIndex,
      ...(result.usedBlacklistFallback ? fallbackUpdate(state, exhausted) : {}),
    };
  }

  /**
   * Plans, and while there is no plan asks the stuck handlers (at most
   * `maxStuckIterations` times): a REPLAN answer merges its state updates,
   * may switch the goal, and planning is tried again.
   */
  async #planWithRecovery(
    state: GoapState,
    goal: GoalSpec | MultiGoal,
    world: WorldState,
    replanCount: number,
    ctx: GoalPlanningContext,
  ): Promise<{ result: GoalPlanningResult; goal: GoalSpec | MultiGoal; world: WorldState }> {
    const planFor = (g: GoalSpec | MultiGoal, w: WorldState, from: number) =>
      g instanceof MultiGoal ? planMultiGoal(g, from, w, ctx) : planGoal(g, w, ctx);
    let fromSubgoal = state.currentSubgoalIndex;
    let result = await planFor(goal, world, fromSubgoal);
    // An aborted run asks no one: it is being stopped.
    for (let round = 0; !result.plan && result.status !== "aborted" && this.#stuck && round < this.#maxStuckIterations; round++) {
      const explanation = result.explanation ?? {
        unreachableConditions: [],
        missingPreconditions: [],
        unusableActions: [],
        suggestion: "",
      };
      const answer = await this.#stuck.handleStuck(
        copyData({ ...state, goal: goalToData(goal), worldState: world, noPlanExplanation: explanation, replanCount }),
        copyData(explanation),
        ctx.signal ? { signal: ctx.signal } : undefined,
      );
      if (answer.code !== "replan") break;
      world = { ...world, ...answer.stateUpdates };
      if (answer.newGoal && answer.newGoal !== goal) {
        goal = answer.newGoal;
        fromSubgoal = 0;
      }
      result = await planFor(goal, world, fromSubgoal);
    }
    return { result, goal, world };
  }

  /** The exhausted actions a plan would need if they were allowed back (none when even they do not reach the goal). */
  async #exhaustedOnTheWay(
    goal: GoalSpec | MultiGoal,
    world: WorldState,
    fromSubgoal: number,
    exhausted: ReadonlySet<string>,
    ctx: GoalPlanningContext,
  ): Promise<string[]> {
    const found = goal instanceof MultiGoal ? await planMultiGoal(goal, fromSubgoal, world, ctx) : await planGoal(goal, world, ctx);
    return [...new Set(found.plan?.actionNames.filter((name) => exhausted.has(name)) ?? [])];
  }

  /**
   * The actions a human refused in this run that the only plans to the
   * goal need: planned once more with them let back in, the refused
   * actions of the plan found (none when there is still no plan: the goal
   * is out of reach either way, and the run ends `no_plan`).
   */
  async #refusedOnTheWay(
    goal: GoalSpec | MultiGoal,
    world: WorldState,
    fromSubgoal: number,
    usable: readonly ActionSpec[],
    excluded: readonly { action: string; failure: ActionFailureKind }[],
    ctx: GoalPlanningContext,
  ): Promise<string[]> {
    const refused = new Set(excluded.filter((e) => e.failure === "approval_denied").map((e) => e.action));
    if (refused.size === 0) return [];
    const readmitted = this.runtime.actions.filter((a) => refused.has(a.name));
    return this.#exhaustedOnTheWay(goal, world, fromSubgoal, refused, { ...ctx, actions: [...usable, ...readmitted], blacklisted: [] });
  }

  /** Sensors, then condition resolvers over every planning key. */
  async #observe(worldState: WorldState, goal: GoalSpec | MultiGoal, signal: AbortSignal | undefined): Promise<WorldState> {
    const { sensors = [], resolvers = [], sensorTimeoutMs } = this.#options;
    // Without sensors the world is read as it is: runSensors' copy of a world of 10,000 facts took 10-20 ms in one go.
    let world =
      sensors.length === 0
        ? worldState
        : await runSensors(sensors, worldState, {
            tracer: this.runtime.tracer,
            logger: this.runtime.logger,
            actions: this.runtime.actions,
            goal,
            signal,
            ...(sensorTimeoutMs === undefined ? {} : { timeoutMs: sensorTimeoutMs }),
          });
    if (resolvers.length > 0) {
      const goals = goal instanceof MultiGoal ? goal.goals : [goal];
      const keys = goals.flatMap((g) => planningKeys(g, this.runtime.actions));
      world = await resolveConditions(resolvers, keys, world, {
        logger: this.runtime.logger,
        timeoutMs: this.runtime.hookTimeoutMs,
        signal,
      });
    }
    return world;
  }

  /**
   * All actions but those with `canRerun: false` that already succeeded in
   * this run, and those excluded from it: a human refused them (a denied
   * approval, an invalid form: a human's answer is final) or they crashed
   * their process twice. No blacklist fallback brings those back.
   */
  #usableActions(state: GoapState): readonly ActionSpec[] {
    const done = new Set(state.historyBefore?.succeeded);
    for (const r of state.executionHistory) if (r.success) done.add(r.actionName);
    const excluded = new Set(excludedActions(state).map((e) => e.action));
    return this.runtime.actions.filter((a) => !excluded.has(a.name) && (a.canRerun || !done.has(a.name)));
  }

  #priorPlan(state: GoapState): Plan | null {
    if (!state.plan) return null;
    try {
      return planFromData(state.plan, this.runtime.actionsByName);
    } catch {
      return null;
    }
  }

  /** Lessons a reflecting tracer (one with a `reflections` list) has gathered, formatted for prompts. */
  #reflections(previous: readonly string[]): string[] {
    let found: unknown;
    try {
      found = (this.runtime.tracer as { reflections?: unknown } | undefined)?.reflections;
    } catch {
      found = undefined;
    }
    if (!Array.isArray(found)) return [...previous];
    return found.map((r: Reflection) => `[${r.actionName ?? "?"}] ${r.reflection ?? ""} → ${r.suggestion ?? ""}`);
  }
}

/** Actions excluded from this run by a final failure (a human's refusal, two crashes), in order. */
function excludedActions(state: GoapState): { action: string; failure: ActionFailureKind }[] {
  const excluded = new Map<string, ActionFailureKind>((state.historyBefore?.excluded ?? []).map((e) => [e.action, e.failure]));
  for (const r of state.executionHistory) {
    if (r.failure !== null && FINAL_FAILURES.has(r.failure) && !excluded.has(r.actionName)) excluded.set(r.actionName, r.failure);
  }
  return [...excluded].map(([action, failure]) => ({ action, failure }));
}

/** Skipped subgoals so far plus new ones, one entry per subgoal (the latest reason wins). */
function mergeSkipped(known: readonly SkippedSubgoal[], found: readonly SkippedSubgoal[]): SkippedSubgoal[] {
  const byIndex = new Map(known.map((s) => [s.index, s]));
  for (const s of found) byIndex.set(s.index, s);
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}
