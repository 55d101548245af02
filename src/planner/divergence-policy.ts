import { describeValue, LangGoapError } from "../core/errors.js";

/** Why a transition model expects something other than the declared effects. */
export type DivergenceKind = "risk-averse" | "learned" | "hierarchical" | "other";

const KINDS: readonly DivergenceKind[] = ["risk-averse", "learned", "hierarchical", "other"];

/** Options of {@link DivergencePolicy}. */
export interface DivergencePolicyOptions {
  /** Why the model diverges, in words. Must not be blank. */
  readonly reason: string;
  /** @defaultValue "other" */
  readonly kind?: DivergenceKind;
  /**
   * Largest allowed relative deviation of an expected number from the
   * declared one: `|expected - declared| / max(|declared|, 1)`. Omit to
   * leave numbers unbounded. Booleans and strings may never diverge.
   */
  readonly maxRelativeDeviation?: number;
  /** Free-form data for the people reading the policy. @defaultValue {} */
  readonly extra?: Readonly<Record<string, unknown>>;
}

/**
 * A declared, bounded licence for a transition model's `expected` to differ
 * from the actions' declared effects. Routers read `kind`: a risk-averse
 * model sends planning to MCTS.
 *
 * @example
 * ```ts
 * const policy = new DivergencePolicy({
 *   reason: "travel times are learned from past runs",
 *   kind: "learned",
 *   maxRelativeDeviation: 0.25,
 * });
 * ```
 */
export class DivergencePolicy {
  readonly reason: string;
  readonly kind: DivergenceKind;
  readonly maxRelativeDeviation: number | undefined;
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(options: DivergencePolicyOptions) {
    const reason: unknown = options?.reason;
    if (typeof reason !== "string" || reason.trim() === "") {
      throw new LangGoapError(
        "INVALID_OPTION",
        `DivergencePolicy.reason must be a non-blank string saying why the model diverges, got ${describeValue(reason)}`,
        { field: "reason", value: reason },
      );
    }
    const kind = options.kind ?? "other";
    if (!KINDS.includes(kind)) {
      throw new LangGoapError("INVALID_OPTION", `DivergencePolicy.kind must be one of ${KINDS.join(", ")}, got ${describeValue(kind)}`, {
        field: "kind",
        value: kind,
      });
    }
    const bound = options.maxRelativeDeviation;
    if (bound !== undefined && !(typeof bound === "number" && Number.isFinite(bound) && bound >= 0)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `DivergencePolicy.maxRelativeDeviation must be a finite number >= 0, got ${describeValue(bound)}`,
        {
          field: "maxRelativeDeviation",
          value: bound,
        },
      );
    }
    this.reason = reason;
    this.kind = kind;
    this.maxRelativeDeviation = bound;
    this.extra = Object.freeze({ ...(options.extra ?? {}) });
    Object.freeze(this);
  }
}
