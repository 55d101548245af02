import type { ActionSpec, GoalSpec, WorldState } from "../../core/index.js";
import type { TransitionModel } from "../transitions.js";
import { applicableActions, spendAction } from "./evaluate.js";

/** What a search needs to know about one state, computed once per search. */
export interface StateOptions {
  readonly goalReached: boolean;
  /** Applicable actions (run-once actions already spent excluded). */
  readonly actions: readonly ActionSpec[];
  /** The expected successor of each action. */
  readonly expected: readonly WorldState[];
  /**
   * Greedy preference of each action, higher is better: 2 when its expected
   * successor reaches the goal, the successor's estimate otherwise, -2 when
   * it changes nothing, -3 when it walks into a dead end.
   */
  readonly scores: readonly number[];
  /** The state's own estimate (for rollouts cut off by depth). */
  readonly estimate: number;
}

/** Settings of {@link createStateAnalyzer}. @internal */
export interface AnalyzerSettings {
  readonly goal: GoalSpec;
  readonly actions: readonly ActionSpec[];
  readonly model: TransitionModel;
  readonly estimate: (state: Readonly<WorldState>) => number;
  readonly keyOf: (state: Readonly<WorldState>, spent: ReadonlySet<string>) => string;
  /** States remembered before the memo starts over. @defaultValue 100000 */
  readonly capacity?: number;
}

const GOAL_SCORE = 2;
const NO_OP_SCORE = -2;
const DEAD_END_SCORE = -3;

/** True when applying `updates` to `state` would change nothing. @internal */
export function changesNothing(state: Readonly<WorldState>, updates: Readonly<Partial<WorldState>>): boolean {
  for (const key in updates) if (!Object.is(state[key], updates[key])) return false;
  return true;
}

/**
 * Memoizes {@link StateOptions} per state key for one search. Rollouts
 * revisit the same states over and over, and action effects (function
 * effects, validated by `ActionSpec`) are the dominant cost of a rollout.
 * @internal
 */
export function createStateAnalyzer(settings: AnalyzerSettings): (state: Readonly<WorldState>, spent: ReadonlySet<string>) => StateOptions {
  const capacity = settings.capacity ?? 100_000;
  const memo = new Map<string, StateOptions>();
  const { goal, model, estimate, keyOf } = settings;
  return (state, spent) => {
    const key = keyOf(state, spent);
    const known = memo.get(key);
    if (known !== undefined) return known;
    const goalReached = goal.isSatisfied(state);
    const actions = goalReached ? [] : applicableActions(state, settings.actions, spent);
    const expected: WorldState[] = [];
    const scores: number[] = [];
    for (const action of actions) {
      const updates = model.expected(state, action);
      const next = { ...state, ...updates };
      expected.push(next);
      if (changesNothing(state, updates)) scores.push(NO_OP_SCORE);
      else if (goal.isSatisfied(next)) scores.push(GOAL_SCORE);
      else if (applicableActions(next, settings.actions, spendAction(spent, action)).length === 0) scores.push(DEAD_END_SCORE);
      else scores.push(estimate(next));
    }
    const options: StateOptions = { goalReached, actions, expected, scores, estimate: goalReached ? 1 : estimate(state) };
    if (memo.size >= capacity) memo.clear();
    memo.set(key, options);
    return options;
  };
}
