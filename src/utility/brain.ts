import { describeValue, LangGoapError } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Blackboard } from "./consideration.js";
import { TypedEmitter } from "./emitter.js";
import { type ActionScore, scoreActions, type UtilityEvaluation } from "./score-actions.js";
import { UtilityAction, type UtilityActionOptions } from "./utility-action.js";

/** Options of {@link UtilityBrain}. */
export interface UtilityBrainOptions {
  /** The choices (names must be unique). */
  readonly actions: readonly (UtilityAction | UtilityActionOptions)[];
  /** Seconds between evaluations; 0 evaluates on every tick. @defaultValue 0.2 */
  readonly evaluationInterval?: number;
  /** Momentum for actions that declare none (see {@link UtilityActionOptions.momentum}). @defaultValue 0 */
  readonly momentum?: number;
  /** Initial blackboard. @defaultValue {} */
  readonly blackboard?: Blackboard;
  /**
   * Raw input read for a blackboard key that is missing, for considerations
   * without their own `defaultValue`. The guide's brain reads a missing key
   * as 0.0; this library's default is stricter: a missing key is an error
   * naming the key, because a typo would otherwise silently score 0. Set
   * `0` for the guide's behaviour.
   * @defaultValue none (a missing key is an error)
   */
  readonly missingInput?: number;
}

/** Payload of the brain's `changed` event. */
export interface UtilityChange {
  readonly previous: UtilityAction | null;
  readonly current: UtilityAction | null;
  readonly score: number;
  readonly scores: readonly ActionScore[];
}

/** Events of {@link UtilityBrain}. */
export interface UtilityBrainEvents {
  /** The best choice changed (to another action, or to none). */
  changed: UtilityChange;
  /** After every evaluation, changed or not. */
  evaluated: UtilityEvaluation;
}

const UTILITY_BRAIN_OPTIONS_KEYS = {
  actions: true,
  evaluationInterval: true,
  momentum: true,
  blackboard: true,
  missingInput: true,
} as const satisfies OptionKeys<UtilityBrainOptions>;

/**
 * The guide's decision maker: scores every {@link UtilityAction} on an
 * interval and keeps the best. The highest score strictly above 0 wins;
 * ties go to the action declared first. When the choice changes, the action
 * left behind starts its cooldown and `changed` fires. The first tick always
 * evaluates, so a new brain decides at once.
 *
 * @example
 * ```ts
 * const brain = new UtilityBrain({ actions: [eat, sleep, flee], evaluationInterval: 0.25 });
 * brain.on("changed", ({ current }) => console.log("now:", current?.name ?? "idle"));
 * brain.update({ hunger: 0.9, energy: 0.7, threat: 0 });
 * brain.tick(1 / 60); // logs "now: eat"
 * ```
 */
export class UtilityBrain extends TypedEmitter<UtilityBrainEvents> {
  readonly actions: readonly UtilityAction[];
  readonly evaluationInterval: number;
  readonly momentum: number;
  readonly missingInput: number | undefined;
  #blackboard: Record<string, unknown>;
  #current: UtilityAction | null = null;
  #currentScore = 0;
  #cooldowns: Float64Array;
  #timer: number;
  #last: UtilityEvaluation | null = null;

  constructor(options: UtilityBrainOptions) {
    super();
    checkOptionKeys(options, UTILITY_BRAIN_OPTIONS_KEYS, "new UtilityBrain()");
    if (typeof options !== "object" || options === null || !Array.isArray(options.actions) || options.actions.length === 0) {
      throw new LangGoapError("INVALID_OPTION", "UtilityBrain: actions must be a non-empty array of UtilityAction (or their options)");
    }
    const actions = options.actions.map((a) => (a instanceof UtilityAction ? a : new UtilityAction(a)));
    const seen = new Set<string>();
    for (const a of actions) {
      if (seen.has(a.name)) {
        throw new LangGoapError("DUPLICATE_ACTION", `UtilityBrain: duplicate action name "${a.name}"; names must be unique`, {
          action: a.name,
        });
      }
      seen.add(a.name);
    }
    for (const field of ["evaluationInterval", "momentum"] as const) {
      const v = options[field];
      if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0)) {
        throw new LangGoapError("INVALID_OPTION", `UtilityBrain: ${field} must be a finite number >= 0, got ${describeValue(v)}`);
      }
    }
    this.actions = Object.freeze(actions);
    this.evaluationInterval = options.evaluationInterval ?? 0.2;
    this.momentum = options.momentum ?? 0;
    if (options.missingInput !== undefined && (typeof options.missingInput !== "number" || !Number.isFinite(options.missingInput))) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `UtilityBrain: missingInput must be a finite number, got ${describeValue(options.missingInput)}`,
      );
    }
    this.missingInput = options.missingInput;
    this.#blackboard = { ...(options.blackboard ?? {}) };
    this.#cooldowns = new Float64Array(actions.length);
    this.#timer = this.evaluationInterval;
  }

  /** The running choice (null before the first evaluation or when nothing scores). */
  get current(): UtilityAction | null {
    return this.#current;
  }

  /** The running choice's score at the last evaluation. */
  get currentScore(): number {
    return this.#currentScore;
  }

  /** The last evaluation, for debugging ("log scores each evaluation"). */
  get lastEvaluation(): UtilityEvaluation | null {
    return this.#last;
  }

  /** A read-only view of the blackboard. */
  get blackboard(): Blackboard {
    return this.#blackboard;
  }

  /** Sets one blackboard value. */
  set(key: string, value: unknown): void {
    this.#blackboard[key] = value;
  }

  /** Sets several blackboard values. */
  update(values: Blackboard): void {
    Object.assign(this.#blackboard, values);
  }

  /** The action named `name`. */
  action(name: string): UtilityAction {
    const found = this.actions.find((a) => a.name === name);
    if (!found) {
      throw new LangGoapError("UNKNOWN_ACTION", `UtilityBrain: no action "${name}"; known: ${this.actions.map((a) => a.name).join(", ")}`);
    }
    return found;
  }

  /** Seconds of cooldown `name` has left. */
  cooldownRemaining(name: string): number {
    return this.#cooldowns[this.actions.indexOf(this.action(name))] as number;
  }

  /** Starts (or restarts) an action's cooldown, e.g. when it finished on its own. */
  startCooldown(name: string): void {
    const action = this.action(name);
    this.#cooldowns[this.actions.indexOf(action)] = action.cooldown;
  }

  /**
   * Advances time: ticks cooldowns, and evaluates when the interval has
   * passed. `blackboard`, when given, is merged into the brain's first.
   * Returns the running choice.
   */
  tick(deltaSeconds: number, blackboard?: Blackboard): UtilityAction | null {
    if (typeof deltaSeconds !== "number" || !Number.isFinite(deltaSeconds) || deltaSeconds < 0) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `UtilityBrain.tick: deltaSeconds must be a finite number >= 0, got ${describeValue(deltaSeconds)}`,
      );
    }
    if (blackboard) this.update(blackboard);
    for (let i = 0; i < this.#cooldowns.length; i++) {
      this.#cooldowns[i] = Math.max(0, (this.#cooldowns[i] as number) - deltaSeconds);
    }
    this.#timer += deltaSeconds;
    if (this.#timer >= this.evaluationInterval) {
      this.#timer = 0;
      this.evaluate();
    }
    return this.#current;
  }

  /** Scores every action now and switches to the best (see the class summary). */
  evaluate(): UtilityEvaluation {
    const evaluation = scoreActions(this.actions, this.#blackboard, {
      running: this.#current,
      momentum: this.momentum,
      missingInput: this.missingInput,
      cooldowns: this.#cooldowns,
    });
    const { best, bestScore, scores } = evaluation;
    this.#last = evaluation;
    const previous = this.#current;
    this.#current = best;
    this.#currentScore = bestScore;
    if (best !== previous) {
      if (previous) this.#cooldowns[this.actions.indexOf(previous)] = previous.cooldown;
      this.emit("changed", { previous, current: best, score: bestScore, scores });
    }
    this.emit("evaluated", evaluation);
    return evaluation;
  }
}
