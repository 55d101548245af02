import { describeValue, type GoalLike, type GoalSpec, LangGoapError, toGoalSpec, type WorldState } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Plan } from "../planner/index.js";
import type { UtilityBrain } from "./brain.js";
import type { StupSelection, StupSelector } from "./stup.js";

/** What a {@link GoalSelector} sees on each tick. */
export interface GoalSelectionContext {
  readonly state: Readonly<WorldState>;
  readonly deltaSeconds: number;
  /** The agent's goal, or null. */
  readonly goal: GoalSpec | null;
  readonly goalName: string | null;
  /** True when no plan runs: no goal yet, goal achieved, or blocked. */
  readonly idle: boolean;
}

/** A selector's answer: pursue `goal` (with a ready plan, when the selector made one). */
export interface GoalDecision {
  readonly goal: GoalLike;
  readonly name?: string;
  /** A plan for `goal` from the current state, which the agent then uses instead of planning. */
  readonly plan?: Plan | null;
}

/**
 * Chooses the agent's goal, every tick. Returning `undefined` (or null)
 * keeps the current goal; returning the current goal again changes nothing.
 */
export interface GoalSelector {
  select(context: GoalSelectionContext): GoalDecision | null | undefined;
}

/**
 * The guide's hybrid: a {@link UtilityBrain} picks the goal, GOAP plans it.
 * The brain ticks with the agent's world state as its blackboard; its
 * current choice maps to a goal through `goals[name]` or the utility
 * action's own `goal`. When the brain picks nothing, the goal stays.
 *
 * @example
 * ```ts
 * const agent = new GoapAgent({
 *   actions,
 *   selector: brainGoalSelector(brain, { survive: { is_hungry: false }, rest: { is_tired: false } }),
 * });
 * ```
 */
export function brainGoalSelector(brain: UtilityBrain, goals: Readonly<Record<string, GoalLike>> = {}): GoalSelector {
  const byName = new Map<string, GoalSpec>();
  for (const action of brain.actions) {
    const goal = goals[action.name] ?? action.goal;
    if (goal === undefined) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `brainGoalSelector: utility action "${action.name}" has no goal; give it a goal option or map it in goals`,
        { action: action.name },
      );
    }
    byName.set(action.name, toGoalSpec(goal));
  }
  for (const name of Object.keys(goals)) {
    if (!byName.has(name)) {
      throw new LangGoapError("UNKNOWN_ACTION", `brainGoalSelector: goals names "${name}", which is not an action of the brain`, { name });
    }
  }
  return {
    select({ state, deltaSeconds }) {
      const current = brain.tick(deltaSeconds, state);
      return current ? { goal: byName.get(current.name) as GoalSpec, name: current.name } : undefined;
    },
  };
}

/** Options of {@link stupGoalSelector}. */
export interface StupGoalSelectorOptions {
  /** Seconds between selections while a plan runs; Infinity selects only when idle. @defaultValue Infinity */
  readonly reselectInterval?: number;
  /** Never select more often than this, so an idle agent does not plan every goal every frame. @defaultValue 0.25 */
  readonly minInterval?: number;
  /** Receives every selection (e.g. to log the table). */
  readonly onSelect?: (selection: StupSelection) => void;
}

const STUP_GOAL_SELECTOR_OPTIONS_KEYS = {
  reselectInterval: true,
  minInterval: true,
  onSelect: true,
} as const satisfies OptionKeys<StupGoalSelectorOptions>;

/**
 * STUP as the agent's goal source: selects when the agent is idle (and every
 * `reselectInterval` seconds), and hands the agent the chosen goal with its
 * plan, so nothing is planned twice.
 *
 * @example
 * ```ts
 * const agent = new GoapAgent({ actions, selector: stupGoalSelector(stup, { reselectInterval: 5 }) });
 * ```
 */
export function stupGoalSelector(selector: StupSelector, options: StupGoalSelectorOptions = {}): GoalSelector {
  checkOptionKeys(options, STUP_GOAL_SELECTOR_OPTIONS_KEYS, "stupGoalSelector()");
  const reselect = options.reselectInterval ?? Number.POSITIVE_INFINITY;
  const minInterval = options.minInterval ?? 0.25;
  for (const [field, value] of [
    ["reselectInterval", reselect],
    ["minInterval", minInterval],
  ] as const) {
    if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
      throw new LangGoapError("INVALID_OPTION", `stupGoalSelector: ${field} must be a number >= 0, got ${describeValue(value)}`);
    }
  }
  let sinceLast = Number.POSITIVE_INFINITY;
  return {
    select({ state, deltaSeconds, idle }) {
      sinceLast += deltaSeconds;
      if (sinceLast < minInterval || (!idle && sinceLast < reselect)) return undefined;
      sinceLast = 0;
      const selection = selector.select(state);
      options.onSelect?.(selection);
      if (!selection.goal) return undefined;
      return { goal: selection.goal, name: selection.name as string, plan: selection.plan };
    },
  };
}
