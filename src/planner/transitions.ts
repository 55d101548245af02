/**
 * Transition models: what an action does to the world, as the planner
 * expects it and as execution samples it. The declared effects of an
 * {@link ActionSpec} are the default model everywhere.
 */
import type { ActionSpec } from "../core/action.js";
import type { WorldState } from "../core/facts.js";
import type { Rng } from "../core/rng.js";
import type { DivergencePolicy } from "./divergence-policy.js";

/**
 * Predicts and samples the outcome of an action. Both methods return the
 * updates the action writes (merged over the state, like an `execute`
 * result), never the whole next state.
 *
 * `expected` is what planners search over; `sample` is what execution (and
 * the stochastic parts of MCTS) draws with a seeded generator. When
 * `expected` is not the declared effects, a {@link DivergencePolicy} must say
 * why (see {@link assertExpectedMatchesDeclared}).
 *
 * @example
 * ```ts
 * const coinFlip: TransitionModel = {
 *   stochastic: true,
 *   expected: (state, action) => action.getEffects(state),
 *   sample: (state, action, rng) => (rng.next() < 0.5 ? action.getEffects(state) : {}),
 * };
 * ```
 */
export interface TransitionModel {
  /** Why `expected` may differ from the declared effects; absent means it must not. */
  readonly divergencePolicy?: DivergencePolicy | undefined;
  /**
   * Whether `sample` is random. Strategies use chance nodes only for
   * stochastic models. @defaultValue true, except for {@link DeterministicTransitionModel}
   */
  readonly stochastic?: boolean;
  /** The updates the planner should expect from `action` in `state`. */
  expected(state: Readonly<WorldState>, action: ActionSpec): Readonly<Partial<WorldState>>;
  /** One random outcome of `action` in `state`, drawn with `rng`. */
  sample(state: Readonly<WorldState>, action: ActionSpec, rng: Rng): Readonly<Partial<WorldState>>;
  /**
   * Optional: every outcome with its probability (adding up to 1). Models
   * that can list their outcomes let MCTS memoize them per state and draw
   * from the list instead of calling `sample`.
   */
  distribution?(state: Readonly<WorldState>, action: ActionSpec): readonly ResolvedOutcome[];
}

/** One outcome of an action in a given state, with its probability and updates. */
export interface ResolvedOutcome {
  readonly probability: number;
  readonly label: string;
  readonly updates: Readonly<Partial<WorldState>>;
}

/**
 * The declared effects, always: `expected` and `sample` both return
 * `action.getEffects(state)` and ignore the generator. The default model
 * of every strategy and of the graph.
 *
 * @example
 * ```ts
 * const model = new DeterministicTransitionModel();
 * model.expected({ wood: 1 }, chop); // { wood: 3 }
 * ```
 */
export class DeterministicTransitionModel implements TransitionModel {
  readonly stochastic = false;
  readonly divergencePolicy: DivergencePolicy | undefined;

  constructor(options: { readonly divergencePolicy?: DivergencePolicy } = {}) {
    this.divergencePolicy = options.divergencePolicy;
    Object.freeze(this);
  }

  expected(state: Readonly<WorldState>, action: ActionSpec): Readonly<Partial<WorldState>> {
    return action.getEffects(state);
  }

  sample(state: Readonly<WorldState>, action: ActionSpec, _rng: Rng): Readonly<Partial<WorldState>> {
    return action.getEffects(state);
  }

  distribution(state: Readonly<WorldState>, action: ActionSpec): readonly ResolvedOutcome[] {
    return [{ probability: 1, label: "declared", updates: action.getEffects(state) }];
  }
}

/** The shared default model. */
export const DETERMINISTIC_MODEL: TransitionModel = new DeterministicTransitionModel();

/**
 * True when `model` draws random outcomes: its `stochastic` flag, or (when
 * it has none) anything but a {@link DeterministicTransitionModel}.
 *
 * @example
 * ```ts
 * isStochasticModel(new DeterministicTransitionModel()); // false
 * isStochasticModel(new StochasticTransitionModel({ outcomes: {} })); // true
 * ```
 */
export function isStochasticModel(model: TransitionModel | undefined): boolean {
  if (model === undefined) return false;
  return model.stochastic ?? !(model instanceof DeterministicTransitionModel);
}

/**
 * The state after `action` as `model` expects it (a new object).
 *
 * @example
 * ```ts
 * expectedSuccessor(DETERMINISTIC_MODEL, { wood: 1 }, chop); // { wood: 3 }
 * ```
 */
export function expectedSuccessor(model: TransitionModel, state: Readonly<WorldState>, action: ActionSpec): WorldState {
  return { ...state, ...model.expected(state, action) };
}

/**
 * The state after one sampled outcome of `action` (a new object).
 *
 * @example
 * ```ts
 * sampledSuccessor(slippery, { row: 0, col: 0 }, east, createRng(3)); // usually { row: 0, col: 1, ... }
 * ```
 */
export function sampledSuccessor(model: TransitionModel, state: Readonly<WorldState>, action: ActionSpec, rng: Rng): WorldState {
  return { ...state, ...model.sample(state, action, rng) };
}
