import { describeValue, LangGoapError } from "../../core/index.js";

/**
 * A span of tree time for {@link Cooldown} and {@link Timeout}: a number of
 * ticks, or seconds of tree time (the sum of the ticks' `deltaSeconds`).
 * Both count game time the caller supplies, never the wall clock.
 */
export type BtDuration =
  | { readonly ticks: number; readonly seconds?: undefined }
  | { readonly seconds: number; readonly ticks?: undefined };

/** Float sums of deltas (0.1 + 0.1 + 0.1) must still reach 0.3. */
const EPSILON = 1e-9;

/** @internal Checks a duration option: exactly one of a positive integer `ticks` or a finite `seconds` > 0. */
export function checkDuration(owner: string, value: unknown): BtDuration {
  const d = value as { ticks?: unknown; seconds?: unknown } | null;
  const hasTicks = d?.ticks !== undefined;
  const hasSeconds = d?.seconds !== undefined;
  if (typeof d !== "object" || d === null || hasTicks === hasSeconds) {
    throw new LangGoapError("INVALID_OPTION", `${owner}: give exactly one of { ticks } and { seconds }, got ${describeValue(value)}`, {
      node: owner,
    });
  }
  if (hasTicks && !(Number.isSafeInteger(d.ticks) && (d.ticks as number) >= 1)) {
    throw new LangGoapError("INVALID_OPTION", `${owner}: ticks must be an integer >= 1, got ${describeValue(d.ticks)}`, { node: owner });
  }
  if (hasSeconds && !(typeof d.seconds === "number" && Number.isFinite(d.seconds) && d.seconds > 0)) {
    throw new LangGoapError("INVALID_OPTION", `${owner}: seconds must be a finite number > 0, got ${describeValue(d.seconds)}`, {
      node: owner,
    });
  }
  return Object.freeze(hasTicks ? { ticks: d.ticks as number } : { seconds: d.seconds as number });
}

/** @internal True once `ticks` ticks or `seconds` seconds have passed, as the duration counts. */
export function hasElapsed(duration: BtDuration, ticks: number, seconds: number): boolean {
  return duration.ticks !== undefined ? ticks >= duration.ticks : seconds >= duration.seconds - EPSILON;
}
