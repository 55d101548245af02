import type { ActionSpec, GoalSpec, WorldState } from "../core/index.js";
import type { Plan, SearchStatus } from "../planner/index.js";

/**
 * What one `execute` call reports: `true` / `"done"` (finished), `false` /
 * `"running"` (call again next tick), or `"failed"`.
 */
export type ActionOutcome = boolean | "running" | "done" | "failed";

/** Why an action's `exit` is called. */
export type ExitReason = "completed" | "interrupted" | "failed";

/** What an action's hooks receive. */
export interface ActionTickContext {
  readonly action: ActionSpec;
  /** Index of the action in the running plan. */
  readonly step: number;
  /** The agent's live world state (change it with `update`). */
  readonly state: Readonly<WorldState>;
  /** Seconds since the action was entered. */
  readonly elapsed: number;
  /** Merges facts into the agent's world state. */
  update(patch: Readonly<WorldState>): void;
}

/**
 * How a planned action plays out over ticks — the guide's `GoapAction`
 * hooks. Every hook is optional; an action without `execute` finishes on
 * its first tick.
 *
 * @example
 * ```ts
 * const chop: ActionBehaviour = {
 *   isValid: () => world.trees.length > 0,
 *   enter: () => animation.play("chop"),
 *   execute: (ctx) => ctx.elapsed >= 1.5,
 *   exit: () => animation.play("idle"),
 * };
 * ```
 */
export interface ActionBehaviour {
  /** Runtime check beyond preconditions; an invalid action is not planned and interrupts the plan when running. */
  isValid?(context: ActionTickContext): boolean;
  /** Called when the action starts. */
  enter?(context: ActionTickContext): void;
  /** Called every tick while the action runs. */
  execute?(context: ActionTickContext, deltaSeconds: number): ActionOutcome;
  /** Called when the action finishes, fails or is interrupted. */
  exit?(context: ActionTickContext, reason: ExitReason): void;
}

/**
 * Reads the game world into facts at the start of every tick. Synchronous,
 * unlike the graph's async `Sensor`, because it runs inside a frame.
 *
 * @example
 * ```ts
 * const proximity: TickSensor = { name: "proximity", sense: () => ({ near_tree: distanceTo(tree) < 3 }) };
 * ```
 */
export interface TickSensor {
  readonly name: string;
  sense(state: Readonly<WorldState>, deltaSeconds: number): Readonly<WorldState> | undefined | void;
}

/** A sensor, or just its `sense` function (named `sensor#<index>`). */
export type TickSensorLike = TickSensor | TickSensor["sense"];

/** Which user hook failed, in a `hookFailed` event. */
export type AgentHookName = "sensor" | "isValid" | "enter" | "execute" | "exit" | "planner";

/**
 * Where a {@link GoapAgent} stands: no goal (`idle`), a plan is due
 * (`pending`: on the next tick, or at the next validation when an achieved
 * goal was undone), a plan runs (`running`), the goal holds (`achieved`), or
 * no plan could be made, an action failed or a plan broke on its own
 * (`blocked`, retried at the next validation).
 */
export type AgentStatus = "idle" | "pending" | "running" | "achieved" | "blocked";

/** Events of {@link GoapAgent} and their payloads. */
export interface GoapAgentEvents {
  goalChanged: { readonly previous: GoalSpec | null; readonly goal: GoalSpec | null; readonly name: string | null };
  planFound: { readonly goal: GoalSpec; readonly plan: Plan; readonly fromCache: boolean };
  planFailed: { readonly goal: GoalSpec; readonly status: SearchStatus; readonly reason: string };
  /** The running plan was dropped: a precondition broke, an action became invalid, or the plan ended short of the goal. */
  planInvalidated: { readonly goal: GoalSpec; readonly plan: Plan; readonly step: number; readonly reason: string };
  actionStarted: { readonly action: ActionSpec; readonly step: number; readonly plan: Plan };
  actionCompleted: { readonly action: ActionSpec; readonly step: number; readonly plan: Plan };
  actionFailed: { readonly action: ActionSpec; readonly step: number; readonly reason: string; readonly error?: unknown };
  goalAchieved: { readonly goal: GoalSpec; readonly name: string | null };
  /** A user hook threw; the agent carried on (see each hook for what that means). */
  hookFailed: { readonly hook: AgentHookName; readonly name: string; readonly error: unknown };
}
