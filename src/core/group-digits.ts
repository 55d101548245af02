/**
 * @internal A whole number with its digits grouped by commas, as
 * `toLocaleString("en-US")` writes it (`1234567` -> `"1,234,567"`), without
 * `Intl`: a process's first locale-aware format loads ICU's number data, 30-150 ms
 * on the event loop (it fell at the end of a process's first search stopped
 * by its budget, or on importing the core barrel).
 */
export function groupDigits(n: number): string {
  const digits = String(Math.abs(Math.round(n)));
  if (!/^\d+$/.test(digits)) return Math.round(n).toLocaleString("en-US");
  const grouped = digits.replace(/\B(?=(\d{3})+$)/g, ",");
  return n < 0 && Math.round(n) !== 0 ? `-${grouped}` : grouped;
}
