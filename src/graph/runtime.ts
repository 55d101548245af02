import { type ActionSpec, callTracer, type PlanningTracer, validateActions } from "../core/index.js";
import { GoalRegistry } from "./goal-data.js";
import { CONSOLE_LOGGER, type GoapLogger, safeLogger } from "./logger.js";
import { bindAction } from "./plan-data.js";

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
  readonly tracer: PlanningTracer | undefined;
  readonly now: () => number;

  constructor(actions: readonly ActionSpec[], options: GoapNodeOptions = {}) {
    this.actions = validateActions(actions);
    this.actionsByName = new Map(this.actions.map((a) => [a.name, a]));
    this.goals = options.goalRegistry ?? new GoalRegistry();
    this.logger = safeLogger(options.logger ?? CONSOLE_LOGGER);
    this.tracer = options.tracer;
    this.now = options.now ?? Date.now;
  }

  /** The live action called `name` (an unknown name is an error naming it). */
  action(name: string): ActionSpec {
    return bindAction(name, this.actionsByName);
  }

  /** Delivers a tracer event; never throws, waits for async hooks. */
  async trace<K extends keyof PlanningTracer>(hook: K, ...args: Parameters<NonNullable<PlanningTracer[K]>>): Promise<void> {
    await callTracer(this.tracer, hook, ...args);
  }
}
