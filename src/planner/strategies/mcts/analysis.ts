import type { ActionSpec } from "../../../core/action.js";
import type { WorldState } from "../../../core/facts.js";
import type { GoalSpec } from "../../../core/goal.js";
import type { Rng } from "../../../core/rng.js";
import type { TransitionModel } from "../../transitions.js";
import { applicableActions, spendAction } from "./evaluate.js";

/** What a search needs to know about one state, computed once per search. */
export interface StateOptions {
  readonly goalReached: boolean;
  /** Applicable actions (run-once actions already spent excluded). */
  readonly actions: readonly ActionSpec[];
  /** The expected successor of each action. */
  readonly expected: readonly WorldState[];
  /** Whether each action is expected to change nothing. */
  readonly noOp: readonly boolean[];
  /**
   * Greedy preference of each action, higher is better: 2 when its expected
   * successor reaches the goal, the successor's estimate otherwise, -2 when
   * it changes nothing, -3 when it walks into a dead end.
   */
  readonly scores: readonly number[];
  /** The state's own estimate (for rollouts cut off by depth). */
  readonly estimate: number;
  /**
   * Each action's outcomes with their probabilities, when the search is
   * stochastic and the model lists them (`distribution`); otherwise the
   * search calls the model's `sample`.
   */
  readonly outcomes: ReadonlyArray<readonly WeightedState[]> | undefined;
}

/** A successor state and its probability. */
export interface WeightedState {
  readonly probability: number;
  readonly state: WorldState;
}

/** Draws one of `outcomes` (probabilities adding up to 1) with one draw of `rng`. @internal */
export function drawOutcome(outcomes: readonly WeightedState[], rng: Rng): WorldState {
  const draw = rng.next();
  let cumulative = 0;
  for (const outcome of outcomes) {
    cumulative += outcome.probability;
    if (draw < cumulative) return outcome.state;
  }
  return (outcomes[outcomes.length - 1] as WeightedState).state;
}

/** Settings of {@link createStateAnalyzer}. @internal */
export interface AnalyzerSettings {
  readonly goal: GoalSpec;
  readonly actions: readonly ActionSpec[];
  readonly model: TransitionModel;
  readonly estimate: (state: Readonly<WorldState>) => number;
  readonly keyOf: (state: Readonly<WorldState>, spent: ReadonlySet<string>) => string;
  /** List outcome distributions (when the model has `distribution`). */
  readonly stochastic: boolean;
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
    const noOp: boolean[] = [];
    for (const action of actions) {
      const updates = model.expected(state, action);
      const next = { ...state, ...updates };
      expected.push(next);
      noOp.push(changesNothing(state, updates));
      if (noOp[noOp.length - 1]) scores.push(NO_OP_SCORE);
      else if (goal.isSatisfied(next)) scores.push(GOAL_SCORE);
      else if (applicableActions(next, settings.actions, spendAction(spent, action)).length === 0) scores.push(DEAD_END_SCORE);
      else scores.push(estimate(next));
    }
    const listOutcomes = settings.stochastic && typeof model.distribution === "function";
    const outcomes = listOutcomes
      ? actions.map((action) =>
          (model.distribution as NonNullable<TransitionModel["distribution"]>)(state, action).map((o) => ({
            probability: o.probability,
            state: { ...state, ...o.updates },
          })),
        )
      : undefined;
    const options: StateOptions = { goalReached, actions, expected, noOp, scores, estimate: goalReached ? 1 : estimate(state), outcomes };
    if (memo.size >= capacity) memo.clear();
    memo.set(key, options);
    return options;
  };
}
