import { type ActionSpec, type GoalSpec, LangGoapError, type WorldState } from "../core/index.js";

/** Result of replaying actions from a state with their declared effects. */
export interface Replay {
  /** True when every precondition held (and the goal, when one was given). */
  readonly valid: boolean;
  /** State after each action that ran. */
  readonly states: WorldState[];
  readonly totalCost: number;
  /** Index of the first action whose preconditions failed, or -1. */
  readonly failedAt: number;
  readonly reachesGoal: boolean;
}

/**
 * Replays `actions` from `start` with their declared effects and costs.
 *
 * @example
 * ```ts
 * replayPlan({ wood: 0 }, [chop, chop], goal).reachesGoal; // true
 * ```
 */
export function replayPlan(start: Readonly<WorldState>, actions: readonly ActionSpec[], goal?: GoalSpec): Replay {
  let state: WorldState = { ...start };
  const states: WorldState[] = [];
  let totalCost = 0;
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i] as ActionSpec;
    if (!action.isApplicable(state)) {
      return { valid: false, states, totalCost, failedAt: i, reachesGoal: false };
    }
    totalCost += action.getCost(state);
    state = action.apply(state);
    states.push(state);
  }
  const reachesGoal = goal ? goal.isSatisfied(state) : true;
  return { valid: reachesGoal, states, totalCost, failedAt: -1, reachesGoal };
}

/** Throws unless the actions replay validly to the goal (guards internal invariants). */
export function assertValidPlan(start: Readonly<WorldState>, actions: readonly ActionSpec[], goal: GoalSpec): Replay {
  const replay = replayPlan(start, actions, goal);
  if (!replay.valid) {
    const where =
      replay.failedAt >= 0
        ? `action "${actions[replay.failedAt]?.name}" (step ${replay.failedAt}) is not applicable`
        : "the goal does not hold";
    throw new LangGoapError("INVALID_STATE", `internal error: a found plan does not replay: ${where}`, {
      actions: actions.map((a) => a.name),
    });
  }
  return replay;
}

/**
 * The relevance and redundancy passes: drops actions whose removal keeps the
 * plan valid and not more expensive (backward, so late useless steps go
 * first), which also removes steps that change nothing. A candidate is
 * accepted only after a full replay, so pruning never makes a plan invalid.
 * Returns the kept actions and how many were dropped.
 */
export function prunePlan(
  start: Readonly<WorldState>,
  actions: readonly ActionSpec[],
  goal: GoalSpec,
  cost: number,
): { actions: ActionSpec[]; replay: Replay; pruned: number } {
  let kept = [...actions];
  let best = replayPlan(start, kept, goal);
  let bestCost = cost;
  for (let i = kept.length - 1; i >= 0; i--) {
    const candidate = kept.slice(0, i).concat(kept.slice(i + 1));
    const replay = replayPlan(start, candidate, goal);
    if (replay.valid && replay.totalCost <= bestCost) {
      kept = candidate;
      best = replay;
      bestCost = replay.totalCost;
    }
  }
  return { actions: kept, replay: best, pruned: actions.length - kept.length };
}
