import { type ActionSpec, describeValue, type GoalLike, LangGoapError, validateActions, type WorldState } from "../core/index.js";
import { AGENT_PLAN_BUDGET, type PlanOptions } from "../planner/index.js";
import type { ActionBehaviour, TickSensor, TickSensorLike } from "./agent-types.js";
import { UtilityBrain } from "./brain.js";
import { brainGoalSelector, type GoalSelector, stupGoalSelector } from "./goal-selectors.js";
import type { AsyncPlanner, PlanCache } from "./plan-cache.js";
import { StupSelector } from "./stup.js";

/** Options of {@link GoapAgent}. */
export interface GoapAgentOptions {
  readonly actions: readonly ActionSpec[];
  /** The initial world state. @defaultValue {} */
  readonly state?: Readonly<WorldState>;
  /**
   * Use `state` itself as the live world state instead of a copy, so the
   * agent, a behaviour tree's blackboard and game code read and write the
   * same facts object ({@link PlanNode} does this).
   * @defaultValue false
   */
  readonly shareState?: boolean;
  /** Tick-level hooks by action name (see {@link ActionBehaviour}). @defaultValue {} (every action is instant) */
  readonly behaviours?: Readonly<Record<string, ActionBehaviour>>;
  /** Update the world state at the start of every tick. @defaultValue [] */
  readonly sensors?: readonly TickSensorLike[];
  /** A fixed goal (give this or `selector`, or call `setGoal`). */
  readonly goal?: GoalLike;
  /** Where goals come from: a brain (hybrid), STUP, a {@link GoalSelector}, or its `select` function. */
  readonly selector?: UtilityBrain | StupSelector | GoalSelector | GoalSelector["select"];
  /** Seconds between plan validations (and retries after a failure); 0 validates every tick. @defaultValue 1 */
  readonly replanInterval?: number;
  /** Shared plan cache (agents with equal relevant state reuse plans). @defaultValue none */
  readonly planCache?: PlanCache;
  /**
   * Plans off the game loop's thread: a `PlannerPool` from `langgoap/node`
   * (domains without effect or cost functions). A plan that is due is
   * requested instead of searched; the agent stays `pending` until the
   * answer arrives (between ticks) and runs it from the next tick. An answer
   * for a goal the agent has since left is dropped. A planner that throws
   * (e.g. `WORKER_CRASHED`) is reported as a `hookFailed` event with hook
   * `planner`, and the agent asks again at its next validation. With
   * `planCache`, only misses reach the planner.
   * @defaultValue none (plans synchronously in `tick`)
   */
  readonly planner?: AsyncPlanner;
  /**
   * Options of every planner call. Budgets not given default to a frame's
   * worth: `{ maxNodes: 100_000, timeBudgetMs: 100 }` ({@link AGENT_PLAN_BUDGET});
   * a search that runs out of them fails with status `budget_exhausted`.
   * @defaultValue { maxNodes: 100000, timeBudgetMs: 100 }
   */
  readonly planOptions?: PlanOptions;
  /** Apply a completed action's declared effects to the world state (sensors may overrule them). @defaultValue true */
  readonly applyEffects?: boolean;
  /** Label for logs. @defaultValue "agent" */
  readonly name?: string;
}

function toSensor(sensor: TickSensorLike, index: number): TickSensor {
  if (typeof sensor === "function") return { name: `sensor#${index}`, sense: sensor };
  if (typeof sensor?.sense !== "function") {
    throw new LangGoapError(
      "INVALID_OPTION",
      `GoapAgent: sensors[${index}] must be a function or { name, sense }, got ${describeValue(sensor)}`,
    );
  }
  return sensor;
}

function toSelector(selector: NonNullable<GoapAgentOptions["selector"]>): GoalSelector {
  if (selector instanceof UtilityBrain) return brainGoalSelector(selector);
  if (selector instanceof StupSelector) return stupGoalSelector(selector);
  if (typeof selector === "function") return { select: selector };
  if (typeof selector?.select !== "function") {
    throw new LangGoapError("INVALID_OPTION", "GoapAgent: selector must be a UtilityBrain, a StupSelector, or { select(context) }");
  }
  return selector;
}

/** @internal Validated options with defaults filled in. */
export interface ResolvedAgentOptions {
  readonly name: string;
  readonly actions: readonly ActionSpec[];
  readonly state: Readonly<WorldState>;
  readonly shareState: boolean;
  readonly behaviours: ReadonlyMap<string, ActionBehaviour>;
  readonly sensors: readonly TickSensor[];
  readonly selector: GoalSelector | undefined;
  readonly replanInterval: number;
  readonly planCache: PlanCache | undefined;
  readonly planner: AsyncPlanner | undefined;
  readonly planOptions: PlanOptions;
  readonly applyEffects: boolean;
}

/** @internal Checks a {@link GoapAgentOptions} and fills in its defaults. */
export function resolveAgentOptions(options: GoapAgentOptions): ResolvedAgentOptions {
  if (typeof options !== "object" || options === null) {
    throw new LangGoapError("INVALID_OPTION", `GoapAgent: expected an options object, got ${describeValue(options)}`);
  }
  const actions = validateActions(options.actions);
  const names = new Set(actions.map((a) => a.name));
  const behaviours = new Map<string, ActionBehaviour>();
  for (const [name, behaviour] of Object.entries(options.behaviours ?? {})) {
    if (!names.has(name)) {
      throw new LangGoapError("UNKNOWN_ACTION", `GoapAgent: behaviours names "${name}", which is not one of the actions`, { action: name });
    }
    if (typeof behaviour !== "object" || behaviour === null) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `GoapAgent: behaviour of "${name}" must be an object of hooks, got ${describeValue(behaviour)}`,
      );
    }
    behaviours.set(name, behaviour);
  }
  const replanInterval = options.replanInterval ?? 1;
  if (typeof replanInterval !== "number" || !Number.isFinite(replanInterval) || replanInterval < 0) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `GoapAgent: replanInterval must be a finite number >= 0, got ${describeValue(replanInterval)}`,
    );
  }
  if (options.goal !== undefined && options.selector !== undefined) {
    throw new LangGoapError("INVALID_OPTION", "GoapAgent: give either a fixed goal or a selector, not both");
  }
  if (options.planner !== undefined && typeof options.planner?.planDetailed !== "function") {
    throw new LangGoapError(
      "INVALID_OPTION",
      `GoapAgent: planner must have a planDetailed method (e.g. a PlannerPool), got ${describeValue(options.planner)}`,
    );
  }
  const state = options.state ?? {};
  if (typeof state !== "object" || state === null || Array.isArray(state)) {
    throw new LangGoapError("INVALID_STATE", `GoapAgent: state must be an object, got ${describeValue(state)}`);
  }
  return {
    name: options.name ?? "agent",
    actions,
    state,
    shareState: options.shareState === true,
    behaviours,
    sensors: (options.sensors ?? []).map(toSensor),
    selector: options.selector === undefined ? undefined : toSelector(options.selector),
    replanInterval,
    planCache: options.planCache,
    planner: options.planner,
    planOptions: { ...AGENT_PLAN_BUDGET, ...options.planOptions },
    applyEffects: options.applyEffects ?? true,
  };
}
