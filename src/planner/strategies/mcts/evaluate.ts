import type { ActionSpec } from "../../../core/action.js";
import { unsatisfiedKeys } from "../../../core/conditions.js";
import { describeValue, LangGoapError } from "../../../core/errors.js";
import type { WorldState } from "../../../core/facts.js";
import type { GoalSpec } from "../../../core/goal.js";

/**
 * Domain knowledge for MCTS: how promising a non-goal state is, in
 * [-1, 1], higher is better (values outside are clamped). The search maps
 * it onto returns in [0, 1), below the goal's 1.
 *
 * @example
 * ```ts
 * // Closer to the exit is better.
 * const nearExit: ScalarHeuristic = (s) => -(Math.abs(3 - (s.row as number)) + Math.abs(3 - (s.col as number))) / 6;
 * ```
 */
export type ScalarHeuristic = (state: Readonly<WorldState>, goal: GoalSpec) => number;

/**
 * Return of reaching the goal. Returns live in [0, 1] so that the
 * discount always makes delay worse: with negative returns, discounting
 * would make stalling look attractive.
 */
export const GOAL_REWARD = 1;
/** Return of a dead end: the goal does not hold and no action applies. */
export const DEAD_END_REWARD = 0;

/**
 * The return credited to a state that is neither the goal nor a dead end
 * when a rollout stops there, in [0, 1): the scalar heuristic mapped from
 * [-1, 1], or by default half the fraction of goal conditions met.
 * @internal
 */
export function estimateState(state: Readonly<WorldState>, goal: GoalSpec, heuristic: ScalarHeuristic | undefined): number {
  if (heuristic !== undefined) {
    let value: unknown;
    try {
      value = heuristic(state, goal);
    } catch (error) {
      throw new LangGoapError("INVALID_OPTION", `MCTS scalarHeuristic threw: ${(error as Error)?.message ?? error}`, {}, { cause: error });
    }
    if (typeof value !== "number" || Number.isNaN(value)) {
      throw new LangGoapError("INVALID_OPTION", `MCTS scalarHeuristic must return a number in [-1, 1], got ${describeValue(value)}`);
    }
    return (Math.min(0.999, Math.max(-1, value)) + 1) / 2;
  }
  const total = Object.keys(goal.conditions).length;
  return total === 0 ? 0.5 : (0.5 * (total - unsatisfiedKeys(state, goal.conditions).length)) / total;
}

/** Actions that may run in `state`: preconditions hold and not a spent run-once action. @internal */
export function applicableActions(state: Readonly<WorldState>, actions: readonly ActionSpec[], spent: ReadonlySet<string>): ActionSpec[] {
  const out: ActionSpec[] = [];
  for (const action of actions) {
    if (spent.size > 0 && spent.has(action.name)) continue;
    if (action.isApplicable(state)) out.push(action);
  }
  return out;
}

/** `spent` plus `action` when it may run only once. @internal */
export function spendAction(spent: ReadonlySet<string>, action: ActionSpec): ReadonlySet<string> {
  if (action.canRerun) return spent;
  const next = new Set(spent);
  next.add(action.name);
  return next;
}
