import { describeValue, LangGoapError } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { ResponseCurve, type ResponseCurveOptions } from "./curve.js";

/** What considerations read: the agent's blackboard, or its world state. */
export type Blackboard = Readonly<Record<string, unknown>>;

/** Options of {@link Consideration}: give exactly one of `inputKey` and `input`. */
export interface ConsiderationOptions {
  /** Blackboard key holding the raw input (a number; booleans read as 1 / 0). */
  readonly inputKey?: string;
  /** Computes the raw input from the blackboard, for derived inputs. */
  readonly input?: (blackboard: Blackboard) => number;
  /** The curve, or its options. */
  readonly curve: ResponseCurve | ResponseCurveOptions;
  /** Raw input used when `inputKey` is missing; without it a missing key is an error. */
  readonly defaultValue?: number;
  /** Label for debugging tables. @defaultValue the input key, or "input" */
  readonly name?: string;
  /** What the consideration measures, in words. */
  readonly description?: string;
}

const CONSIDERATION_OPTIONS_KEYS = {
  inputKey: true,
  input: true,
  curve: true,
  defaultValue: true,
  name: true,
  description: true,
} as const satisfies OptionKeys<ConsiderationOptions>;

/**
 * One axis of a utility decision: a raw input from the blackboard shaped by
 * a {@link ResponseCurve} into a score in [0, 1].
 *
 * @example
 * ```ts
 * const hunger = new Consideration({ inputKey: "hunger", curve: { type: "exponential", exponent: 5 } });
 * hunger.score({ hunger: 0.9 }); // 0.604
 * const threat = new Consideration({
 *   name: "threat",
 *   input: (bb) => 1 - Math.min((bb.enemy_distance as number) / 20, 1),
 *   curve: { type: "logistic", exponent: 10, xShift: 0.5 },
 * });
 * ```
 */
export class Consideration {
  readonly name: string;
  readonly inputKey: string | undefined;
  readonly input: ((blackboard: Blackboard) => number) | undefined;
  readonly curve: ResponseCurve;
  readonly defaultValue: number | undefined;
  readonly description: string | undefined;

  constructor(options: ConsiderationOptions) {
    checkOptionKeys(options, CONSIDERATION_OPTIONS_KEYS, "new Consideration()");
    if (typeof options !== "object" || options === null) {
      throw new LangGoapError("INVALID_OPTION", `Consideration: expected an options object, got ${describeValue(options)}`);
    }
    const { inputKey, input } = options;
    if ((inputKey === undefined) === (input === undefined)) {
      throw new LangGoapError("INVALID_OPTION", "Consideration: give exactly one of inputKey (a blackboard key) and input (a function)", {
        inputKey,
      });
    }
    if (inputKey !== undefined && (typeof inputKey !== "string" || inputKey === "")) {
      throw new LangGoapError("INVALID_OPTION", `Consideration: inputKey must be a non-empty string, got ${describeValue(inputKey)}`);
    }
    if (input !== undefined && typeof input !== "function") {
      throw new LangGoapError("INVALID_OPTION", `Consideration: input must be a function of the blackboard, got ${describeValue(input)}`);
    }
    const name = options.name ?? inputKey ?? "input";
    if (options.defaultValue !== undefined && (typeof options.defaultValue !== "number" || Number.isNaN(options.defaultValue))) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `Consideration "${name}": defaultValue must be a number, got ${describeValue(options.defaultValue)}`,
      );
    }
    this.name = name;
    this.inputKey = inputKey;
    this.input = input;
    this.curve = options.curve instanceof ResponseCurve ? options.curve : new ResponseCurve(options.curve);
    this.defaultValue = options.defaultValue;
    this.description = options.description;
    Object.freeze(this);
  }

  /** The raw input read from the blackboard (booleans as 1 / 0). */
  read(blackboard: Blackboard, missingInput?: number): number {
    let raw: unknown;
    if (this.input) {
      try {
        raw = this.input(blackboard);
      } catch (error) {
        throw new LangGoapError(
          "INVALID_STATE",
          `consideration "${this.name}": input function threw: ${(error as Error)?.message ?? error}`,
          { consideration: this.name },
          { cause: error },
        );
      }
    } else {
      const key = this.inputKey as string;
      // Own keys only: a blackboard's inherited members are not inputs.
      raw = Object.hasOwn(blackboard, key) ? blackboard[key] : undefined;
      if (raw === undefined) {
        if (this.defaultValue !== undefined) return this.defaultValue;
        if (missingInput !== undefined) return missingInput;
        throw new LangGoapError(
          "UNKNOWN_FACT",
          `consideration "${this.name}": blackboard has no "${this.inputKey}"; set it or give the consideration a defaultValue`,
          { consideration: this.name, key: this.inputKey },
        );
      }
    }
    if (typeof raw === "boolean") return raw ? 1 : 0;
    if (typeof raw !== "number" || Number.isNaN(raw)) {
      throw new LangGoapError(
        "INVALID_STATE",
        `consideration "${this.name}": input must be a number or a boolean, got ${describeValue(raw)}`,
        { consideration: this.name, value: raw },
      );
    }
    return raw;
  }

  /** The consideration's score in [0, 1]. */
  score(blackboard: Blackboard, missingInput?: number): number {
    return this.curve.evaluate(this.read(blackboard, missingInput));
  }
}
