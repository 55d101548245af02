import { describeValue, LangGoapError } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";

/**
 * Shapes of {@link ResponseCurve}. The first five are the guide's; `logit`,
 * `normal` and `sine` are the Infinite Axis Utility System's (Dave Mark).
 */
export type CurveType = "linear" | "quadratic" | "exponential" | "logistic" | "step" | "logit" | "normal" | "sine";

/** Every curve type, in a stable order. */
export const CURVE_TYPES: readonly CurveType[] = Object.freeze([
  "linear",
  "quadratic",
  "exponential",
  "logistic",
  "step",
  "logit",
  "normal",
  "sine",
]);

/** Options of {@link ResponseCurve}. */
export interface ResponseCurveOptions {
  /** The curve's shape. @defaultValue "linear" */
  readonly type?: CurveType;
  /** Vertical scale (m). @defaultValue 1 */
  readonly slope?: number;
  /** Steepness or power (k). @defaultValue 2 */
  readonly exponent?: number;
  /** Horizontal shift (c); the threshold of `step`. @defaultValue 0 */
  readonly xShift?: number;
  /** Vertical shift (b). @defaultValue 0 */
  readonly yShift?: number;
  /** Raw input mapped to x = 0. @defaultValue 0 */
  readonly min?: number;
  /** Raw input mapped to x = 1. @defaultValue 1 */
  readonly max?: number;
  /** Use 1 − x instead of x (e.g. "low health" from a health value). @defaultValue false */
  readonly invert?: boolean;
}

/** One point of {@link ResponseCurve.sample}: a raw input and the curve's score. */
export interface CurvePoint {
  readonly x: number;
  readonly y: number;
}

function finiteOption(options: ResponseCurveOptions, field: keyof ResponseCurveOptions, fallback: number): number {
  const value = options[field] ?? fallback;
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new LangGoapError("INVALID_OPTION", `ResponseCurve: ${field} must be a finite number, got ${describeValue(value)}`, {
      field,
      value,
    });
  }
  return value;
}

/** Clamps to [0, 1]; NaN (an undefined point of the curve, e.g. log of a negative) scores 0. */
function clampUnit(value: number): number {
  if (Number.isNaN(value)) return 0;
  return Math.min(Math.max(value, 0), 1);
}

const RESPONSE_CURVE_OPTIONS_KEYS = {
  type: true,
  slope: true,
  exponent: true,
  xShift: true,
  yShift: true,
  min: true,
  max: true,
  invert: true,
} as const satisfies OptionKeys<ResponseCurveOptions>;

/**
 * Maps a raw input to a utility score in [0, 1]. The input is first
 * normalised to x in [0, 1] (`(raw − min) / (max − min)`, clamped, then
 * `1 − x` when inverted), then shaped:
 *
 * | type        | formula                                                   |
 * |-------------|-----------------------------------------------------------|
 * | linear      | m·(x − c) + b                                             |
 * | quadratic   | m·(x − c)^k + b                                           |
 * | exponential | m·(e^(k·x) − 1) / (e^k − 1) + b (m·x + b when k = 0)      |
 * | logistic    | m / (1 + e^(−k·(x − c))) + b                              |
 * | step        | 1 when x ≥ c, else 0                                      |
 * | logit       | m·ln((x − c) / (1 − (x − c))) / 5 + 0.5 + b               |
 * | normal      | m·e^(−30·k·(x − c − 0.5)²) + b                            |
 * | sine        | 0.5·m·sin(2π·(x − c)) + 0.5 + b                           |
 *
 * and the result is clamped to [0, 1]. Where a formula is undefined (a
 * negative base under a fractional power, the log of a negative) the score
 * is 0; where it diverges (logit at its ends) the clamp gives 0 or 1.
 *
 * @example
 * ```ts
 * const starving = new ResponseCurve({ type: "exponential", exponent: 5 });
 * starving.evaluate(0.5); // 0.076
 * starving.evaluate(0.9); // 0.604
 * const lowHealth = new ResponseCurve({ type: "quadratic", invert: true, min: 0, max: 100 });
 * lowHealth.evaluate(25); // 0.5625
 * ```
 */
export class ResponseCurve {
  readonly type: CurveType;
  readonly slope: number;
  readonly exponent: number;
  readonly xShift: number;
  readonly yShift: number;
  readonly min: number;
  readonly max: number;
  readonly invert: boolean;

  constructor(options: ResponseCurveOptions = {}) {
    checkOptionKeys(options, RESPONSE_CURVE_OPTIONS_KEYS, "new ResponseCurve()");
    if (typeof options !== "object" || options === null) {
      throw new LangGoapError("INVALID_OPTION", `ResponseCurve: expected an options object, got ${describeValue(options)}`);
    }
    const type = options.type ?? "linear";
    if (!CURVE_TYPES.includes(type)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `ResponseCurve: type must be one of ${CURVE_TYPES.join(", ")}, got ${describeValue(type)}`,
        {
          field: "type",
          value: type,
        },
      );
    }
    this.type = type;
    this.slope = finiteOption(options, "slope", 1);
    this.exponent = finiteOption(options, "exponent", 2);
    this.xShift = finiteOption(options, "xShift", 0);
    this.yShift = finiteOption(options, "yShift", 0);
    this.min = finiteOption(options, "min", 0);
    this.max = finiteOption(options, "max", 1);
    if (!(this.max > this.min)) {
      throw new LangGoapError("INVALID_OPTION", `ResponseCurve: max (${this.max}) must be greater than min (${this.min})`, {
        min: this.min,
        max: this.max,
      });
    }
    if (options.invert !== undefined && typeof options.invert !== "boolean") {
      throw new LangGoapError("INVALID_OPTION", `ResponseCurve: invert must be a boolean, got ${describeValue(options.invert)}`);
    }
    this.invert = options.invert ?? false;
    Object.freeze(this);
  }

  /** The raw input as x in [0, 1]: normalised, clamped, inverted when asked. */
  normalize(raw: number): number {
    if (typeof raw !== "number" || Number.isNaN(raw)) {
      throw new LangGoapError("INVALID_STATE", `ResponseCurve.evaluate: input must be a number, got ${describeValue(raw)}`, { value: raw });
    }
    const x = clampUnit((raw - this.min) / (this.max - this.min));
    return this.invert ? 1 - x : x;
  }

  /** The score in [0, 1] of a raw input. */
  evaluate(raw: number): number {
    return clampUnit(this.shape(this.normalize(raw)));
  }

  /** The unclamped formula at a normalised x. */
  private shape(x: number): number {
    const { slope: m, exponent: k, xShift: c, yShift: b } = this;
    switch (this.type) {
      case "linear":
        return m * (x - c) + b;
      case "quadratic":
        return m * (x - c) ** k + b;
      case "exponential":
        // expm1 keeps tiny exponents accurate; k = 0 is the formula's limit (0/0), a straight line.
        return k === 0 ? m * x + b : (m * Math.expm1(k * x)) / Math.expm1(k) + b;
      case "logistic":
        return m / (1 + Math.exp(-k * (x - c))) + b;
      case "step":
        return x >= c ? 1 : 0;
      case "logit": {
        const u = x - c;
        return (m * Math.log(u / (1 - u))) / 5 + 0.5 + b;
      }
      case "normal":
        return m * Math.exp(-30 * k * (x - c - 0.5) ** 2) + b;
      case "sine":
        return 0.5 * m * Math.sin(2 * Math.PI * (x - c)) + 0.5 + b;
    }
  }

  /**
   * `points` evenly spaced samples over the raw input range [min, max], for
   * plotting or tuning.
   *
   * @example
   * ```ts
   * new ResponseCurve({ type: "step", xShift: 0.5 }).sample(3); // [{x:0,y:0},{x:0.5,y:1},{x:1,y:1}]
   * ```
   */
  sample(points = 11): CurvePoint[] {
    if (!Number.isInteger(points) || points < 2) {
      throw new LangGoapError("INVALID_OPTION", `ResponseCurve.sample: points must be an integer >= 2, got ${describeValue(points)}`);
    }
    const out: CurvePoint[] = [];
    for (let i = 0; i < points; i++) {
      const x = i === points - 1 ? this.max : this.min + ((this.max - this.min) * i) / (points - 1);
      out.push({ x, y: this.evaluate(x) });
    }
    return out;
  }

  /** The options this curve was built from (every field explicit). */
  toJSON(): Required<ResponseCurveOptions> {
    const { type, slope, exponent, xShift, yShift, min, max, invert } = this;
    return { type, slope, exponent, xShift, yShift, min, max, invert };
  }
}
