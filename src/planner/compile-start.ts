/**
 * Encoding a start state into a compiled problem's row, in slices: on a wide
 * world (tens of thousands of facts) it takes tens of milliseconds, and it
 * runs again each time a cached problem is reused.
 * @internal
 */
import { factOf, type WorldState } from "../core/facts.js";
import { frozenCopy } from "../core/frozen-copy.js";
import type { Slots } from "./compile-slots.js";
import type { ValueCodes } from "./compile-values.js";
import { PACE_EVERY, type Pace } from "./pace.js";

export interface EncodedStart {
  readonly row: Float64Array;
  /** Non-planning keys of the start state, passed to function effects and costs. */
  readonly context: WorldState;
}

/**
 * The start row of `next` (`width` slots, once-bits 0) and its context, or
 * `null` when a value does not fit its slot kind (a string where the
 * domain holds numbers). Nothing is changed before the end, so a stop
 * between two slices leaves the problem as it was.
 * @param userReads whether cost or effect functions read the context: they get frozen copies
 */
export function* encodeStartSteps(
  { keys, keyIndex, factCount, numeric }: Slots,
  codes: ValueCodes,
  width: number,
  userReads: boolean,
  next: Readonly<WorldState>,
  pace: Pace,
): Generator<void, EncodedStart | null, void> {
  for (let i = 0; i < factCount; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const v = factOf(next, keys[i] as string);
    if (numeric[i] && v !== undefined && (typeof v !== "number" || !Number.isFinite(v))) return null;
  }
  const row = new Float64Array(width);
  for (let i = 0; i < factCount; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    row[i] = codes.encode(i, factOf(next, keys[i] as string));
  }
  const context: WorldState = {};
  // Keys, not entries: one array of strings rather than a pair per key of a wide state.
  const names = Object.keys(next);
  for (let i = 0; i < names.length; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const k = names[i] as string;
    // Cost and effect functions read these once per generated state: one frozen copy keeps the caller's objects out of their reach.
    if (!keyIndex.has(k)) context[k] = userReads ? frozenCopy(next[k]) : next[k];
  }
  return { row, context };
}
