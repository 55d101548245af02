/**
 * The action list a planning call searches: validated and frozen first, then
 * ordered by specificity for compiling. Both run in slices (see `Pace`), since
 * a domain can hold a million actions. A list seen before (the same actions
 * in the same order: a per-frame planner passes one list every call) is
 * answered from memory; actions are frozen, so what was checked still holds.
 * @internal
 */

import { ActionSpec, checkActionEntry } from "../core/action.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import { PACE_EVERY, type Pace } from "./pace.js";

/**
 * Specificity first: more preconditions earlier, then declaration order. A
 * counting sort (stable, as the comparison sort it replaces), linear and in
 * slices: sorting a million actions by comparison blocks for seconds.
 */
export function* bySpecificity(actions: readonly ActionSpec[], pace: Pace): Generator<void, readonly ActionSpec[], void> {
  const known = knownList(actions);
  if (known?.sorted) return known.sorted;
  const sorted = Object.freeze(yield* sortBySpecificity(actions, pace));
  if (known) known.sorted = sorted;
  else remember(Object.isFrozen(actions) ? actions : Object.freeze([...actions]), sorted);
  return sorted;
}

function* sortBySpecificity(actions: readonly ActionSpec[], pace: Pace): Generator<void, ActionSpec[], void> {
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
  const known = knownList(actions);
  if (known) return known.actions;
  const seen = new Set<string>();
  for (let i = 0; i < actions.length; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    checkActionEntry(actions[i], i, seen);
  }
  const checked = Object.freeze([...actions]);
  remember(checked, undefined);
  return checked;
}

/** A list checked before, and its specificity order once computed. */
interface KnownList {
  /** A frozen copy: the caller's array may change after the call. */
  readonly actions: readonly ActionSpec[];
  sorted: readonly ActionSpec[] | undefined;
}

/** Lists by their first action; a few per head (a blacklist makes another list of the same domain). */
const knownLists = new WeakMap<ActionSpec, KnownList[]>();
const KNOWN_PER_HEAD = 4;

function knownList(actions: readonly unknown[]): KnownList | undefined {
  const head = actions[0];
  if (!(head instanceof ActionSpec)) return undefined;
  for (const known of knownLists.get(head) ?? []) if (sameElements(known.actions, actions)) return known;
  return undefined;
}

function remember(actions: readonly ActionSpec[], sorted: readonly ActionSpec[] | undefined): void {
  const head = actions[0];
  if (!head) return;
  const lists = knownLists.get(head) ?? [];
  lists.unshift({ actions, sorted });
  if (lists.length > KNOWN_PER_HEAD) lists.pop();
  knownLists.set(head, lists);
}

function sameElements(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
