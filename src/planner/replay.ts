import type { ActionSpec } from "../core/action.js";
import { LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import { frozenCopy } from "../core/frozen-copy.js";
import type { GoalSpec } from "../core/goal.js";

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
 * @internal A replay that keeps what each step wrote instead of whole
 * states, so its cost is linear in the plan's length (whole states are
 * quadratic: a plan of 8,000 steps over 8,000 facts is 64 million entries).
 */
export interface StepReplay {
  readonly valid: boolean;
  /** The keys each step wrote, with their new values. */
  readonly changes: Readonly<WorldState>[];
  /** The cost of each step, in the state it ran in. */
  readonly stepCosts: number[];
  readonly totalCost: number;
  readonly failedAt: number;
  readonly reachesGoal: boolean;
  /** The state after the last step that ran. */
  readonly finalState: WorldState;
}

/** Writes `key` as an own data property, even for names that plain assignment treats specially (`__proto__`). */
function write(state: WorldState, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(state, key, { value, enumerable: true, writable: true, configurable: true });
  else state[key] = value as WorldState[string];
}

/**
 * @internal Replays `actions` from `start`, updating one state in place.
 * Cost and effect functions get a snapshot, since they may keep what they are given.
 */
export function replaySteps(start: Readonly<WorldState>, actions: readonly ActionSpec[], goal?: GoalSpec): StepReplay {
  // Nested values frozen once: cost and effect functions that scribble on them cannot reach the caller's start state.
  const userReads = actions.some((a) => a.hasDynamicCost || a.hasDynamicEffects);
  const state: WorldState = { ...(userReads ? frozenCopy(start) : start) };
  const changes: Readonly<WorldState>[] = [];
  const stepCosts: number[] = [];
  let totalCost = 0;
  for (let i = 0; i < actions.length; i++) {
    const action = actions[i] as ActionSpec;
    if (!action.isApplicable(state)) {
      return { valid: false, changes, stepCosts, totalCost, failedAt: i, reachesGoal: false, finalState: state };
    }
    const view = action.hasDynamicCost || action.hasDynamicEffects ? { ...state } : state;
    const cost = action.getCost(view);
    const change = action.getEffects(view);
    for (const key of Object.keys(change)) write(state, key, change[key]);
    totalCost += cost;
    stepCosts.push(cost);
    changes.push(change);
  }
  const reachesGoal = goal ? goal.isSatisfied(state) : true;
  return { valid: reachesGoal, changes, stepCosts, totalCost, failedAt: -1, reachesGoal, finalState: state };
}

/** @internal The state after each step, built from a start state and per-step changes. */
export function statesFromChanges(start: Readonly<WorldState>, changes: readonly Readonly<WorldState>[]): WorldState[] {
  const states: WorldState[] = [];
  let state: WorldState = { ...start };
  for (const change of changes) {
    state = { ...state, ...change };
    states.push(state);
  }
  return states;
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
  const { valid, changes, totalCost, failedAt, reachesGoal } = replaySteps(start, actions, goal);
  return { valid, states: statesFromChanges(start, changes), totalCost, failedAt, reachesGoal };
}

function invalidPlan(actions: readonly ActionSpec[], replay: { failedAt: number }): LangGoapError {
  const where =
    replay.failedAt >= 0
      ? `action "${actions[replay.failedAt]?.name}" (step ${replay.failedAt}) is not applicable`
      : "the goal does not hold";
  return new LangGoapError("INVALID_STATE", `internal error: a found plan does not replay: ${where}`, {
    actions: actions.map((a) => a.name),
  });
}

/** Throws unless the actions replay validly to the goal (guards internal invariants). */
export function assertValidPlan(start: Readonly<WorldState>, actions: readonly ActionSpec[], goal: GoalSpec): Replay {
  const replay = replayPlan(start, actions, goal);
  if (!replay.valid) throw invalidPlan(actions, replay);
  return replay;
}

/** @internal {@link assertValidPlan}, linear in the plan's length. */
export function assertValidSteps(start: Readonly<WorldState>, actions: readonly ActionSpec[], goal: GoalSpec): StepReplay {
  const replay = replaySteps(start, actions, goal);
  if (!replay.valid) throw invalidPlan(actions, replay);
  return replay;
}

/** @internal {@link prunePlan} with a linear replay of the result. */
export function pruneSteps(
  start: Readonly<WorldState>,
  actions: readonly ActionSpec[],
  goal: GoalSpec,
  cost: number,
): { actions: ActionSpec[]; replay: StepReplay; pruned: number } {
  let kept = [...actions];
  let best = replaySteps(start, kept, goal);
  let bestCost = cost;
  for (let i = kept.length - 1; i >= 0; i--) {
    const candidate = kept.slice(0, i).concat(kept.slice(i + 1));
    const replay = replaySteps(start, candidate, goal);
    if (replay.valid && replay.totalCost <= bestCost) {
      kept = candidate;
      best = replay;
      bestCost = replay.totalCost;
    }
  }
  return { actions: kept, replay: best, pruned: actions.length - kept.length };
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
  const result = pruneSteps(start, actions, goal, cost);
  const { valid, changes, totalCost, failedAt, reachesGoal } = result.replay;
  return { ...result, replay: { valid, states: statesFromChanges(start, changes), totalCost, failedAt, reachesGoal } };
}
