/**
 * The action list a planning call searches: validated and frozen first, then
 * ordered by specificity for compiling. Both run in slices (see `Pace`), since
 * a domain can hold a million actions.
 * @internal
 */

import { checkActionEntry } from "../core/action.js";
import { type ActionSpec, describeValue, LangGoapError } from "../core/index.js";
import { PACE_EVERY, type Pace } from "./pace.js";

/**
 * Specificity first: more preconditions earlier, then declaration order. A
 * counting sort (stable, as the comparison sort it replaces), linear and in
 * slices: sorting a million actions by comparison blocks for seconds.
 */
export function* bySpecificity(actions: readonly ActionSpec[], pace: Pace): Generator<void, ActionSpec[], void> {
  const n = actions.length;
  const count = new Int32Array(n);
  let most = 0;
  for (let i = 0; i < n; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const c = Object.keys((actions[i] as ActionSpec).preconditions).length;
    count[i] = c;
    if (c > most) most = c;
  }
  // Bucket `most - c` holds the actions with c preconditions: the most specific first.
  const next = new Int32Array(most + 2);
  for (let i = 0; i < n; i++) next[most - (count[i] as number) + 1]++;
  for (let b = 1; b <= most + 1; b++) next[b] = (next[b] as number) + (next[b - 1] as number);
  const sorted: ActionSpec[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const b = most - (count[i] as number);
    sorted[next[b] as number] = actions[i] as ActionSpec;
    next[b] = (next[b] as number) + 1;
  }
  return sorted;
}

/** The actions validated in slices: a frozen copy, or a coded error naming the bad entry. */
export function* validatedActions(actions: readonly ActionSpec[], pace: Pace): Generator<void, readonly ActionSpec[], void> {
  if (!Array.isArray(actions)) {
    throw new LangGoapError("INVALID_ACTION", `expected an array of ActionSpec, got ${describeValue(actions)}`);
  }
  const seen = new Set<string>();
  for (let i = 0; i < actions.length; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    checkActionEntry(actions[i], i, seen);
  }
  return Object.freeze([...actions]);
}
