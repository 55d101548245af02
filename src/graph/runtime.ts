import { getConfig } from "@langchain/langgraph";
import {
  type ActionSpec,
  callTracer,
  type PlanningTracer,
  runInTracerScope,
  type TraceRun,
  tracerForRun,
  validateActions,
} from "../core/index.js";
import { SafeTracer } from "../tracing/index.js";
import { GoalRegistry } from "./goal-data.js";
import { CONSOLE_LOGGER, type GoapLogger, safeLogger } from "./logger.js";
import { bindAction } from "./plan-data.js";
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

  constructor(actions: readonly ActionSpec[], options: GoapNodeOptions = {}) {
    this.actions = validateActions(actions);
    this.actionsByName = new Map(this.actions.map((a) => [a.name, a]));
    this.goals = options.goalRegistry ?? new GoalRegistry();
    this.logger = safeLogger(options.logger ?? CONSOLE_LOGGER);
    // Every user tracer is isolated: throwing hooks, rejected promises and throwing getters are caught.
    this.#tracer = options.tracer
      ? SafeTracer.wrap(options.tracer, {
          onError: (error, hook) => this.logger.debug(`tracer hook ${hook} failed: ${String((error as Error)?.message ?? error)}`),
        })
      : undefined;
    this.now = options.now ?? Date.now;
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
    return run ? tracerForRun(this.#tracer, run) : this.#tracer;
  }

  /** Runs an action's `execute` in the run's tracer scope (e.g. its span active); the outcome is `execute`'s. */
  runAction<T>(action: ActionSpec, execute: () => Promise<T>): Promise<T> {
    return runInTracerScope(this.tracer, action, execute);
  }

  /** Delivers a tracer event; never throws, waits for async hooks. */
  async trace<K extends keyof PlanningTracer>(hook: K, ...args: Parameters<NonNullable<PlanningTracer[K]>>): Promise<void> {
    await callTracer(this.tracer, hook, ...args);
  }
}
