import type { ActionSpec } from "../core/action.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import type { Rng } from "../core/rng.js";
import type { DivergencePolicy } from "./divergence-policy.js";
import type { ResolvedOutcome, TransitionModel } from "./transitions.js";

/** Updates an outcome writes, or a function of the state computing them. */
export type OutcomeEffects = Readonly<Partial<WorldState>> | ((state: Readonly<WorldState>) => Readonly<Partial<WorldState>>);

/**
 * One possible outcome of an action. Give `effects`, or `as` (another
 * action's declared effects happen instead, e.g. slipping sideways), or
 * neither (the declared effects).
 */
export interface TransitionOutcome {
  /** In [0, 1]. */
  readonly probability: number;
  readonly effects?: OutcomeEffects;
  readonly as?: ActionSpec;
  /** A name for logs and tests. @defaultValue "declared", "as:<name>" or "outcome:<index>" */
  readonly label?: string;
}

/** An action's outcomes: a fixed list, or a function of the state. */
export type OutcomeDistribution =
  | readonly TransitionOutcome[]
  | ((state: Readonly<WorldState>, action: ActionSpec) => readonly TransitionOutcome[]);

/** Options of {@link StochasticTransitionModel}. */
export interface StochasticTransitionModelOptions {
  /**
   * Outcome distributions by action name. When an action's probabilities
   * add up to less than 1, the rest goes to its declared effects. Actions
   * without an entry are deterministic.
   */
  readonly outcomes: Readonly<Record<string, OutcomeDistribution>>;
  /**
   * What planners expect: the declared effects, or the most likely outcome
   * (which needs a {@link DivergencePolicy} when it differs). @defaultValue "declared"
   */
  readonly expectation?: "declared" | "most-likely";
  readonly divergencePolicy?: DivergencePolicy;
  /** When given, every key of `outcomes` must name one of these actions (catches typos). */
  readonly actions?: readonly ActionSpec[];
}

const EPSILON = 1e-9;

/**
 * A transition model with per-action outcome distributions: the common
 * case of actions that usually do what they declare and sometimes do
 * something else. `sample` consumes exactly one draw of the generator.
 *
 * @example
 * ```ts
 * // Moving east slips north or south with probability 0.1 each.
 * const model = new StochasticTransitionModel({
 *   outcomes: { east: slipOutcomes(0.2, [north, south]) },
 * });
 * model.sample(state, east, createRng(7)); // usually east's effects
 * ```
 */
export class StochasticTransitionModel implements TransitionModel {
  readonly stochastic = true;
  readonly divergencePolicy: DivergencePolicy | undefined;
  readonly expectation: "declared" | "most-likely";
  readonly #outcomes: ReadonlyMap<string, OutcomeDistribution>;

  constructor(options: StochasticTransitionModelOptions) {
    const outcomes: unknown = options?.outcomes;
    if (typeof outcomes !== "object" || outcomes === null || Array.isArray(outcomes)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `StochasticTransitionModel.outcomes must be an object keyed by action name, got ${describeValue(outcomes)}`,
      );
    }
    const expectation = options.expectation ?? "declared";
    if (expectation !== "declared" && expectation !== "most-likely") {
      throw new LangGoapError(
        "INVALID_OPTION",
        `StochasticTransitionModel.expectation must be "declared" or "most-likely", got ${describeValue(expectation)}`,
      );
    }
    const known = options.actions ? new Set(options.actions.map((a) => a.name)) : undefined;
    const map = new Map<string, OutcomeDistribution>();
    for (const [name, distribution] of Object.entries(outcomes as Record<string, OutcomeDistribution>)) {
      if (known && !known.has(name)) {
        throw new LangGoapError(
          "UNKNOWN_ACTION",
          `StochasticTransitionModel.outcomes: no action named "${name}"; known actions are [${[...known].join(", ")}]`,
          { action: name },
        );
      }
      if (typeof distribution !== "function") validateOutcomes(distribution, name);
      map.set(name, distribution);
    }
    this.#outcomes = map;
    this.expectation = expectation;
    this.divergencePolicy = options.divergencePolicy;
    Object.freeze(this);
  }

  /**
   * Every outcome of `action` in `state` with its probability and updates;
   * the declared remainder, if any, comes last. Probabilities add up to 1.
   */
  distribution(state: Readonly<WorldState>, action: ActionSpec): ResolvedOutcome[] {
    const list = this.#outcomesOf(state, action);
    if (list === undefined) return [{ probability: 1, label: "declared", updates: action.getEffects(state) }];
    let total = 0;
    const resolved: ResolvedOutcome[] = list.map((outcome, i) => {
      total += outcome.probability;
      return { probability: outcome.probability, label: labelOf(outcome, i), updates: resolveUpdates(outcome, state, action) };
    });
    if (total < 1 - EPSILON) resolved.push({ probability: 1 - total, label: "declared", updates: action.getEffects(state) });
    return resolved;
  }

  expected(state: Readonly<WorldState>, action: ActionSpec): Readonly<Partial<WorldState>> {
    if (this.expectation === "declared") return action.getEffects(state);
    const outcomes = this.distribution(state, action);
    let best = outcomes[outcomes.length - 1] as ResolvedOutcome;
    for (const o of outcomes) if (o.probability > best.probability + EPSILON) best = o;
    return best.updates;
  }

  sample(state: Readonly<WorldState>, action: ActionSpec, rng: Rng): Readonly<Partial<WorldState>> {
    const draw = rng.next();
    const list = this.#outcomesOf(state, action);
    if (list === undefined) return action.getEffects(state);
    // Only the drawn outcome is resolved: effects can be costly to compute.
    let cumulative = 0;
    for (const outcome of list) {
      cumulative += outcome.probability;
      if (draw < cumulative) return resolveUpdates(outcome, state, action);
    }
    if (cumulative < 1 - EPSILON || list.length === 0) return action.getEffects(state);
    return resolveUpdates(list[list.length - 1] as TransitionOutcome, state, action);
  }

  #outcomesOf(state: Readonly<WorldState>, action: ActionSpec): readonly TransitionOutcome[] | undefined {
    const spec = this.#outcomes.get(action.name);
    if (spec === undefined || typeof spec !== "function") return spec;
    return validateOutcomes(spec(state, action), action.name);
  }
}

/**
 * Outcomes for "slips with probability `probability`, to one of
 * `alternatives` uniformly" (the rest of the time the declared effects
 * happen): FrozenLake's slippery ice.
 *
 * @example
 * ```ts
 * slipOutcomes(0.2, [west, east]); // west 0.1, east 0.1 (north itself 0.8)
 * ```
 */
export function slipOutcomes(probability: number, alternatives: readonly ActionSpec[]): TransitionOutcome[] {
  if (!(typeof probability === "number" && probability >= 0 && probability <= 1)) {
    throw new LangGoapError("INVALID_OPTION", `slipOutcomes: probability must be in [0, 1], got ${describeValue(probability)}`);
  }
  if (alternatives.length === 0) {
    throw new LangGoapError("INVALID_OPTION", "slipOutcomes: give at least one action to slip into");
  }
  return alternatives.map((as) => ({ probability: probability / alternatives.length, as, label: `slip:${as.name}` }));
}

function labelOf(outcome: TransitionOutcome, index: number): string {
  if (outcome.label !== undefined) return outcome.label;
  if (outcome.as !== undefined) return `as:${outcome.as.name}`;
  return outcome.effects === undefined ? "declared" : `outcome:${index}`;
}

function resolveUpdates(outcome: TransitionOutcome, state: Readonly<WorldState>, action: ActionSpec): Readonly<Partial<WorldState>> {
  if (outcome.as !== undefined) return outcome.as.getEffects(state);
  if (outcome.effects === undefined) return action.getEffects(state);
  if (typeof outcome.effects !== "function") return outcome.effects;
  const updates: unknown = outcome.effects(state);
  if (typeof updates !== "object" || updates === null || Array.isArray(updates)) {
    throw new LangGoapError(
      "INVALID_EFFECT",
      `action "${action.name}": an outcome's effects function must return an object, got ${describeValue(updates)}`,
      { action: action.name },
    );
  }
  return updates as Readonly<Partial<WorldState>>;
}

function validateOutcomes(list: unknown, actionName: string): readonly TransitionOutcome[] {
  const where = `StochasticTransitionModel.outcomes["${actionName}"]`;
  if (!Array.isArray(list)) throw new LangGoapError("INVALID_OPTION", `${where} must be an array of outcomes, got ${describeValue(list)}`);
  let total = 0;
  list.forEach((outcome: TransitionOutcome, i) => {
    const p: unknown = outcome?.probability;
    if (typeof p !== "number" || !(p >= 0 && p <= 1)) {
      throw new LangGoapError("INVALID_OPTION", `${where}[${i}].probability must be a number in [0, 1], got ${describeValue(p)}`, {
        action: actionName,
      });
    }
    if (outcome.as !== undefined && outcome.effects !== undefined) {
      throw new LangGoapError("INVALID_OPTION", `${where}[${i}] gives both "as" and "effects"; give one`, { action: actionName });
    }
    const effects: unknown = outcome.effects;
    if (
      effects !== undefined &&
      typeof effects !== "function" &&
      (typeof effects !== "object" || effects === null || Array.isArray(effects))
    ) {
      throw new LangGoapError("INVALID_OPTION", `${where}[${i}].effects must be an object or a function, got ${describeValue(effects)}`, {
        action: actionName,
      });
    }
    total += p;
  });
  if (total > 1 + EPSILON) {
    throw new LangGoapError("INVALID_OPTION", `${where}: probabilities add up to ${total}; they must not exceed 1`, { action: actionName });
  }
  return list as readonly TransitionOutcome[];
}
