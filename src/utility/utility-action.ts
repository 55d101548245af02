import { describeValue, type GoalLike, type GoalSpec, LangGoapError, toGoalSpec } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { type Blackboard, Consideration, type ConsiderationOptions } from "./consideration.js";

/**
 * How consideration scores combine. `multiplicative` (the guide's default)
 * lets any zero veto the action; `additive` averages them, so one zero only
 * lowers the score (the guide's remedy for "multiplication kills actions").
 */
export type ScoringMode = "multiplicative" | "additive";

/** Options of {@link UtilityAction}. */
export interface UtilityActionOptions {
  /** Unique name within a brain. */
  readonly name: string;
  /** Multiplies the combined score, to favour or disfavour the action. @defaultValue 1 */
  readonly weight?: number;
  /** The axes the action is judged on (at least one). */
  readonly considerations: readonly (Consideration | ConsiderationOptions)[];
  /** Seconds the action scores 0 after the brain switches away from it. @defaultValue 0 */
  readonly cooldown?: number;
  /** @defaultValue "multiplicative" */
  readonly scoring?: ScoringMode;
  /** Apply the guide's compensation factor to multiplicative scores. @defaultValue true */
  readonly compensate?: boolean;
  /**
   * Bonus for staying with the running choice: its score is multiplied by
   * `1 + momentum`, which damps flip-flopping between near-equal actions.
   * @defaultValue the brain's `momentum`
   */
  readonly momentum?: number;
  /** The goal this choice stands for, when a brain picks goals for a {@link GoapAgent}. */
  readonly goal?: GoalLike;
  readonly description?: string;
}

/** Options of {@link UtilityAction.score}. */
export interface ScoreOptions {
  /** True when this action is the brain's running choice (momentum applies). @defaultValue false */
  readonly running?: boolean;
  /** Momentum used when the action declares none. @defaultValue 0 */
  readonly momentum?: number;
  /** Raw input for blackboard keys that are missing (after each consideration's own `defaultValue`). @defaultValue none: a missing key is an error */
  readonly missingInput?: number;
}

/** One consideration's part in {@link UtilityAction.explain}. */
export interface ConsiderationScore {
  readonly name: string;
  readonly input: number;
  readonly score: number;
}

/** Every number behind an action's score, for debugging tables. */
export interface ActionScoreBreakdown {
  readonly name: string;
  readonly considerations: readonly ConsiderationScore[];
  readonly score: number;
}

function nonNegative(name: string, field: string, value: unknown, fallback: number): number {
  const v = value ?? fallback;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
    throw new LangGoapError("INVALID_OPTION", `utility action "${name}": ${field} must be a finite number >= 0, got ${describeValue(v)}`, {
      action: name,
      field,
      value: v,
    });
  }
  return v;
}

const UTILITY_ACTION_OPTIONS_KEYS = {
  name: true,
  weight: true,
  considerations: true,
  cooldown: true,
  scoring: true,
  compensate: true,
  momentum: true,
  goal: true,
  description: true,
} as const satisfies OptionKeys<UtilityActionOptions>;

const SCORE_OPTIONS_KEYS = { running: true, momentum: true, missingInput: true } as const satisfies OptionKeys<ScoreOptions>;

/**
 * A choice a {@link UtilityBrain} can make, scored from its considerations.
 *
 * Multiplicative scoring follows the guide: the consideration scores are
 * multiplied, stopping at the first zero, then the compensation factor
 * `1 − 1/n` lifts the product back toward 1 by `(1 − p)·(1 − 1/n)·p` so
 * actions with many considerations are not punished for their count.
 *
 * Where the weight goes is a deliberate deviation from the guide's code.
 * With `p` the product of the `n` consideration scores, `m = 1 − 1/n` and
 * weight `w`:
 *
 * - the guide's code starts the product at the weight and compensates
 *   after: `t = w·p`, score `= t + (1 − t)·m·t`;
 * - its prose ("product of all considerations × action weight") and this
 *   library compensate first and weigh last: `c = p + (1 − p)·m·p`,
 *   score `= w·c`.
 *
 * The prose's order is kept because the code's shrinks the weight:
 * compensation lifts small scores more than large ones, so with p = 0.5 and
 * n = 2 a weight of 1.5 raises the code's score only 1.35× (0.625 → 0.844)
 * and a weight of 3 only 1.8× (→ 1.125, where `1 − t` has turned negative);
 * here the weight scales the score exactly (1.5 → 0.9375, 3 → 1.875).
 *
 * The action itself is immutable and holds no timers, so one configuration
 * can serve thousands of agents; cooldowns live in the brain.
 *
 * @example
 * ```ts
 * const eat = new UtilityAction({
 *   name: "eat",
 *   considerations: [
 *     { inputKey: "hunger", curve: { type: "exponential", exponent: 5 } },
 *     { inputKey: "food_nearby", curve: { type: "step", xShift: 0.1 } },
 *   ],
 * });
 * eat.score({ hunger: 0.9, food_nearby: 0.5 }); // 0.604 + (1 − 0.604)·0.5·0.604 = 0.724
 * ```
 */
export class UtilityAction {
  readonly name: string;
  readonly weight: number;
  readonly considerations: readonly Consideration[];
  readonly cooldown: number;
  readonly scoring: ScoringMode;
  readonly compensate: boolean;
  readonly momentum: number | undefined;
  readonly goal: GoalSpec | undefined;
  readonly description: string | undefined;

  constructor(options: UtilityActionOptions) {
    checkOptionKeys(options, UTILITY_ACTION_OPTIONS_KEYS, "new UtilityAction()");
    if (typeof options !== "object" || options === null) {
      throw new LangGoapError("INVALID_OPTION", `UtilityAction: expected an options object, got ${describeValue(options)}`);
    }
    const { name } = options;
    if (typeof name !== "string" || name === "") {
      throw new LangGoapError("INVALID_OPTION", `UtilityAction: name must be a non-empty string, got ${describeValue(name)}`);
    }
    if (!Array.isArray(options.considerations) || options.considerations.length === 0) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `utility action "${name}": considerations must be a non-empty array (for a constant score use { input: () => 1, curve: {} })`,
        { action: name },
      );
    }
    const scoring = options.scoring ?? "multiplicative";
    if (scoring !== "multiplicative" && scoring !== "additive") {
      throw new LangGoapError(
        "INVALID_OPTION",
        `utility action "${name}": scoring must be "multiplicative" or "additive", got ${describeValue(scoring)}`,
      );
    }
    if (options.compensate !== undefined && typeof options.compensate !== "boolean") {
      throw new LangGoapError("INVALID_OPTION", `utility action "${name}": compensate must be a boolean`);
    }
    this.name = name;
    this.weight = nonNegative(name, "weight", options.weight, 1);
    this.considerations = Object.freeze(options.considerations.map((c) => (c instanceof Consideration ? c : new Consideration(c))));
    this.cooldown = nonNegative(name, "cooldown", options.cooldown, 0);
    this.scoring = scoring;
    this.compensate = options.compensate ?? true;
    this.momentum = options.momentum === undefined ? undefined : nonNegative(name, "momentum", options.momentum, 0);
    this.goal = options.goal === undefined ? undefined : toGoalSpec(options.goal);
    this.description = options.description;
    Object.freeze(this);
  }

  /** The action's score (>= 0; at most `weight × (1 + momentum)`). */
  score(blackboard: Blackboard, options: ScoreOptions = {}): number {
    checkOptionKeys(options, SCORE_OPTIONS_KEYS, "UtilityAction.score()");
    const missing = options.missingInput;
    const combined = this.scoring === "additive" ? this.#additive(blackboard, missing) : this.#multiplicative(blackboard, missing);
    if (combined <= 0) return 0;
    const momentum = options.running ? (this.momentum ?? options.momentum ?? 0) : 0;
    return combined * this.weight * (1 + momentum);
  }

  /** The score with every consideration's input and score (no early exit), for debugging. */
  explain(blackboard: Blackboard, options: ScoreOptions = {}): ActionScoreBreakdown {
    checkOptionKeys(options, SCORE_OPTIONS_KEYS, "UtilityAction.explain()");
    const considerations = this.considerations.map((c) => {
      const input = c.read(blackboard, options.missingInput);
      return { name: c.name, input, score: c.curve.evaluate(input) };
    });
    return { name: this.name, considerations, score: this.score(blackboard, options) };
  }

  #multiplicative(blackboard: Blackboard, missing: number | undefined): number {
    let product = 1;
    for (const consideration of this.considerations) {
      product *= consideration.score(blackboard, missing);
      if (product <= 0) return 0;
    }
    if (!this.compensate) return product;
    const modFactor = 1 - 1 / this.considerations.length;
    return product + (1 - product) * modFactor * product;
  }

  #additive(blackboard: Blackboard, missing: number | undefined): number {
    let sum = 0;
    for (const consideration of this.considerations) sum += consideration.score(blackboard, missing);
    return sum / this.considerations.length;
  }

  toString(): string {
    return `UtilityAction(${this.name})`;
  }
}
