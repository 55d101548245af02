/**
 * Equality of numbers in conditions. `0.1 + 0.1 + 0.1` is
 * `0.30000000000000004`, so a goal `x: 0.3` after three `x += 0.1` would
 * never hold under `===`. Conditions (`{ x: 0.3 }`, `eq`, `ne`, `in`)
 * therefore compare numbers with a relative tolerance, the same in the
 * planner's compiled tests, its heuristics, the graph's checks and plan
 * validation. States themselves are never rounded: two states whose values
 * differ by 1e-17 stay two states; only whether a condition holds uses the
 * tolerance.
 */

/**
 * Relative tolerance of numeric equality in conditions: `a` equals `b` when
 * `|a - b| <= NUMERIC_EQUALITY_TOLERANCE × max(|a|, |b|)`, unless both are
 * integers, which compare exactly. About 4,500 units in the last place: far
 * more than rounding in any plausible run of additions, far less than any
 * difference a domain means (1e-12 of a million is a millionth).
 *
 * @example
 * ```ts
 * NUMERIC_EQUALITY_TOLERANCE; // 1e-12
 * ```
 */
export const NUMERIC_EQUALITY_TOLERANCE = 1e-12;

/**
 * True when two numbers are equal for a condition: identical, or (unless
 * both are integers) within {@link NUMERIC_EQUALITY_TOLERANCE} of the larger
 * magnitude. Integers compare exactly, so `1_000_000_000` never equals
 * `1_000_000_001`; zero is only equal to zero (no absolute tolerance: write
 * `{ lte: 1e-9 }` for "about zero"). NaN and infinities equal nothing else.
 *
 * @example
 * ```ts
 * numbersEqual(0.1 + 0.1 + 0.1, 0.3); // true
 * numbersEqual(0.3, 0.3000001);       // false
 * numbersEqual(2 ** 53, 2 ** 53 + 2); // false: integers compare exactly
 * ```
 */
export function numbersEqual(a: number, b: number): boolean {
  if (a === b) return true;
  if (Number.isInteger(a) && Number.isInteger(b)) return false;
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
  return Math.abs(a - b) <= NUMERIC_EQUALITY_TOLERANCE * Math.max(Math.abs(a), Math.abs(b));
}

/**
 * True when two fact values are equal for a condition: numbers by
 * {@link numbersEqual}, everything else by `===`.
 *
 * @example
 * ```ts
 * factsEqual(0.1 + 0.2, 0.3); // true
 * factsEqual("a", "a");       // true
 * factsEqual(1, "1");         // false
 * ```
 */
export function factsEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return typeof a === "number" && typeof b === "number" && numbersEqual(a, b);
}

/**
 * How far from `value` a number may be and still equal it
 * ({@link numbersEqual}): the half-width of the range a relaxation must
 * keep open so it never rules out a state that satisfies `= value`.
 *
 * @example
 * ```ts
 * equalitySlack(0.3); // ≈ 3e-13
 * ```
 */
export function equalitySlack(value: number): number {
  return (NUMERIC_EQUALITY_TOLERANCE * Math.abs(value)) / (1 - NUMERIC_EQUALITY_TOLERANCE);
}
