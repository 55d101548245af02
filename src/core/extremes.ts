/**
 * @internal The largest of `values`: `Math.max(...values)` without passing
 * them as arguments, which overflows the stack past about 120,000 values.
 * The same result in every case: NaN if any is NaN, `-Infinity` for none.
 */
export function maxOf(values: Iterable<number>): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const value of values) max = Math.max(max, value);
  return max;
}

/** @internal The smallest of `values`: `Math.min(...values)` without the spread (see {@link maxOf}); `Infinity` for none. */
export function minOf(values: Iterable<number>): number {
  let min = Number.POSITIVE_INFINITY;
  for (const value of values) min = Math.min(min, value);
  return min;
}
