import { getConfig } from "@langchain/langgraph";
import {
  type ActionSpec,
  callTracer,
  callWithin,
  checkTimeout,
  DEFAULT_HOOK_TIMEOUT_MS,
  type GoalSpec,
  LangGoapError,
  type PlanningTracer,
  runInTracerScope,
  type TraceRun,
  tracerForRun,
  validateActions,
} from "../core/index.js";
import { type Plan, planningKeys } from "../planner/index.js";
import { SafeTracer } from "../tracing/index.js";
import { copyData } from "./copy-state.js";
import { GoalRegistry } from "./goal-data.js";
import { CONSOLE_LOGGER, type GoapLogger, safeLogger } from "./logger.js";
import { ObserverLimits } from "./observer-limits.js";
import { bindAction, type PlanData, planFromData } from "./plan-data.js";
import { runIdentity } from "./run-identity.js";

/**
 * The run the current node works for, read from LangGraph's config of the
 * running node (`run_id`, else `thread_id`); undefined outside a graph run.
 */
function currentTraceRun(): TraceRun | undefined {
  let config: ReturnType<typeof getConfig> | undefined;
  try {
    config = getConfig();
  } catch {
    return undefined;
  }
  const identity = runIdentity(config);
  return identity.runId || identity.threadId ? identity : undefined;
}

/** The key runs are told apart by in {@link ObserverLimits} (one shared key outside a graph run). */
function runKey(run: TraceRun | undefined): string {
  return run?.runId ?? run?.threadId ?? "";
}

/** Options every GOAP node accepts. */
export interface GoapNodeOptions {
  /** Receives planning and execution events; a throwing tracer never breaks a run. */
  readonly tracer?: PlanningTracer;
  /** Where warnings go. @defaultValue console warnings */
  readonly logger?: GoapLogger;
  /** Shared goal registry (nodes of one graph must share it). @defaultValue a new registry */
  readonly goalRegistry?: GoalRegistry;
  /** Clock in epoch ms. @defaultValue Date.now */
  readonly now?: () => number;
  /**
   * Time limit in ms of each tracer hook (and of the tracer's action scope
   * beyond the action) and of the history store's `record`; a tracer that
   * exceeds it is dropped for the rest of the run, with a warning.
   * @defaultValue 5000 (`DEFAULT_OBSERVER_TIMEOUT_MS`)
   */
  readonly observerTimeoutMs?: number;
  /**
   * Time limit in ms of each call of a deciding hook: termination policies,
   * guards, stuck handlers, condition resolvers, effect validators and the
   * transition model's `sample` (`Infinity` for none). Each gets an
   * `AbortSignal` that aborts then; what a late hook means is the hook's
   * rule for a throwing one (a guard warns, a resolver says unknown, ...).
   * @defaultValue 30000 (`DEFAULT_HOOK_TIMEOUT_MS`)
   */
  readonly hookTimeoutMs?: number;
  /** @internal Shared by a graph's nodes, so a tracer dropped by one is dropped by all. */
  readonly observerLimits?: ObserverLimits;
}

/**
 * @internal What every node needs: the live actions by name (to re-bind
 * plans from checkpoints), the goal registry, a safe tracer and logger.
 */
export class NodeRuntime {
  readonly actions: readonly ActionSpec[];
  readonly actionsByName: ReadonlyMap<string, ActionSpec>;
  readonly goals: GoalRegistry;
  readonly logger: Required<GoapLogger>;
  readonly #tracer: PlanningTracer | undefined;
  readonly now: () => number;
  readonly limits: ObserverLimits;
  /** Time limit of each deciding hook's call. */
  readonly hookTimeoutMs: number;
  /**
   * Plans re-bound from state, by the state's plan object: a run's plan is
   * one object from step to step (until it is replanned or read back from a
   * checkpoint), so each step re-binds nothing.
   */
  readonly #plans = new WeakMap<PlanData, Plan>();
  /** Planning keys by live goal (the same for every step of a (sub)goal). */
  readonly #planningKeys = new WeakMap<GoalSpec, readonly string[]>();

  constructor(actions: readonly ActionSpec[], options: GoapNodeOptions = {}) {
    this.actions = validateActions(actions);
    this.actionsByName = new Map(this.actions.map((a) => [a.name, a]));
    this.goals = options.goalRegistry ?? new GoalRegistry();
    this.logger = safeLogger(options.logger ?? CONSOLE_LOGGER);
    this.limits = options.observerLimits ?? new ObserverLimits(options.observerTimeoutMs);
    // Every user tracer is isolated: throwing hooks, rejected promises and throwing getters are caught, hung hooks cut short.
    this.#tracer = options.tracer
      ? SafeTracer.wrap(options.tracer, {
          timeoutMs: this.limits.timeoutMs,
          onError: (error, hook) => {
            if (error instanceof LangGoapError && error.code === "TIMEOUT") this.#dropTracer(hook);
            else this.logger.debug(`tracer hook ${hook} failed: ${String((error as Error)?.message ?? error)}`);
          },
        })
      : undefined;
    this.now = options.now ?? Date.now;
    this.hookTimeoutMs =
      options.hookTimeoutMs === undefined ? DEFAULT_HOOK_TIMEOUT_MS : checkTimeout(options.hookTimeoutMs, "hookTimeoutMs");
  }

  /**
   * Calls a deciding hook (`what` names it for the timeout's message)
   * within {@link hookTimeoutMs}, with a signal that aborts at the limit or
   * with the run (`signal`).
   */
  callHook<T>(what: string, call: (signal: AbortSignal) => T | PromiseLike<T>, signal?: AbortSignal): Promise<T> {
    return callWithin(call, { ms: this.hookTimeoutMs, what, signal });
  }

  /** The live plan for a state's plan data (re-bound once per plan object). */
  plan(data: PlanData): Plan {
    let plan = this.#plans.get(data);
    if (!plan) {
      plan = planFromData(data, this.actionsByName);
      this.#plans.set(data, plan);
    }
    return plan;
  }

  /** The keys a plan for `goal` with these actions reads or writes (computed once per goal object). */
  planningKeys(goal: GoalSpec): readonly string[] {
    let keys = this.#planningKeys.get(goal);
    if (!keys) {
      keys = Object.freeze(planningKeys(goal, this.actions));
      this.#planningKeys.set(goal, keys);
    }
    return keys;
  }

  /** The live action called `name` (an unknown name is an error naming it). */
  action(name: string): ActionSpec {
    return bindAction(name, this.actionsByName);
  }

  /**
   * The tracer for the run being executed (its `forRun` view, so one
   * tracer shared by concurrent runs keeps them apart), made safe.
   */
  get tracer(): PlanningTracer | undefined {
    if (!this.#tracer) return undefined;
    const run = currentTraceRun();
    if (this.limits.isDropped("tracer", runKey(run))) return undefined;
    return run ? tracerForRun(this.#tracer, run) : this.#tracer;
  }

  /** A hook ran out of time: the tracer is left out for the rest of the run (one warning). */
  #dropTracer(hook: string): void {
    if (!this.limits.drop("tracer", runKey(currentTraceRun()))) return;
    this.logger.warn(
      `tracer hook ${hook} did not settle within ${this.limits.timeoutMs} ms; the tracer is dropped for the rest of this run`,
      { hook },
    );
  }

  /** Runs an action's `execute` in the run's tracer scope (e.g. its span active); the outcome is `execute`'s. */
  runAction<T>(action: ActionSpec, execute: () => Promise<T>): Promise<T> {
    return runInTracerScope(this.tracer, action, execute);
  }

  /** Delivers a tracer event; never throws, waits for async hooks. */
  async trace<K extends keyof PlanningTracer>(hook: K, ...args: Parameters<NonNullable<PlanningTracer[K]>>): Promise<void> {
    const tracer = this.tracer;
    if (!tracer) return;
    // A tracer gets copies of states and records: what it does to them never reaches the run or its history.
    await callTracer(tracer, hook, ...(args.map((arg) => copyData(arg)) as typeof args));
  }
}
