import { describeValue, LangGoapError } from "../core/index.js";

/**
 * STUP's cut-off rule over utility-per-cost values: values below
 * `highest × ratio` are removed, unless together they add up to more than
 * `highest × ratio` (then every value stays). Returns which values stay.
 *
 * The seed's sniper: a leader at 10 and 20 soldiers at 0.5, ratio 0.2. The
 * threshold is 2; each soldier is below it, but together they make 10 > 2,
 * so all stay. With 2 soldiers they make 1 and are removed.
 *
 * @example
 * ```ts
 * cutOff([10, ...Array(20).fill(0.5)], 0.2).every(Boolean); // true
 * cutOff([10, 0.5, 0.5], 0.2);                              // [true, false, false]
 * ```
 */
export function cutOff(values: readonly number[], ratio: number): boolean[] {
  if (typeof ratio !== "number" || !(ratio >= 0 && ratio <= 1)) {
    throw new LangGoapError("INVALID_OPTION", `cutOff: ratio must be a number between 0 and 1, got ${describeValue(ratio)}`);
  }
  let highest = 0;
  for (const v of values) {
    if (typeof v !== "number" || !(v >= 0) || !Number.isFinite(v)) {
      throw new LangGoapError("INVALID_OPTION", `cutOff: values must be finite numbers >= 0, got ${describeValue(v)}`);
    }
    if (v > highest) highest = v;
  }
  const threshold = highest * ratio;
  let belowTotal = 0;
  for (const v of values) if (v < threshold) belowTotal += v;
  if (belowTotal > threshold) return values.map(() => true);
  return values.map((v) => v >= threshold);
}
