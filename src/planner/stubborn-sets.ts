/**
 * Strong stubborn sets (Wehrle & Helmert, 2014) on packed boolean states:
 * partial-order pruning that keeps an optimal plan from every state while
 * expanding fewer successors. At a state that is not a goal, the stubborn
 * set starts from the achievers of one unsatisfied goal fact (a
 * disjunctive action landmark) and is closed under two rules: an action of
 * the set that applies brings in every action it interferes with (one
 * disables the other, or both write one fact with different values), and
 * one that does not apply brings in the achievers of one of its
 * unsatisfied preconditions (a necessary enabling set). Only the applicable
 * actions of the set are expanded. A* with an admissible heuristic stays
 * optimal and complete: the pruned space holds an optimal plan from every
 * state it reaches.
 *
 * A fact is one bit, `canRerun: false` markers included; an action is its
 * precondition bits (a bit and the value it must have) and its effect bits
 * (a bit and the value it writes), as the search applies them (the
 * relevance view's effect masks). Actions whose cost is a function are not
 * supported: the exchange argument needs costs that do not depend on the
 * state, so the search does not prune there (see {@link stubbornSetsSteps}).
 *
 * Like Fast Downward's, the pruning switches itself off when it does not
 * pay: after {@link CHECK_AFTER} expansions, if it removed less than
 * {@link MIN_PRUNED_SHARE} of the applicable successors, the search expands
 * every one from then on (and after {@link EARLY_CHECK_AFTER}, if it removed
 * almost none). Counts, not time: the same on every machine.
 * @internal
 */
import type { BitLayout } from "./bit-layout.js";
import type { CompiledProblem } from "./compiled-problem.js";
import { type Pace, runUnpaced, unpaced } from "./pace.js";

/** Expansions after which the pruning checks whether it pays. */
export const CHECK_AFTER = 1000;
/** Share of the applicable successors it must have removed by then to stay on. */
export const MIN_PRUNED_SHARE = 0.2;
/**
 * An earlier check: after this many expansions, pruning that has removed
 * less than {@link EARLY_MIN_PRUNED_SHARE} of the successors switches off.
 * Where nearly every action interferes with every other, computing the
 * sets cost more than the expansion (mprime prob04: 1 successor of 4,386
 * pruned by then, 56 % more time; airport p09: 0.9 %), while the domains
 * it pays on had pruned a fifth or more by then (elevators-opt08 p03 21 %,
 * openstacks-opt08 p05 19 %, parcprinter-08 p04 59 %, woodworking-opt08
 * p05 70 %).
 */
export const EARLY_CHECK_AFTER = 100;
/** See {@link EARLY_CHECK_AFTER}. */
export const EARLY_MIN_PRUNED_SHARE = 0.05;

/** A list per literal (a bit and a value: `2 * bit + value`), as CSR arrays. */
interface LiteralLists {
  readonly start: Int32Array;
  readonly items: Int32Array;
}

/** Actions handled between two looks at the pace while the sets are built. */
const ACTIONS_PER_CHECK = 2048;

function* literalListsSteps(
  literals: number,
  perAction: Int32Array,
  actionStart: Int32Array,
  actions: readonly number[],
  pace: Pace,
): Generator<void, LiteralLists, void> {
  const count = new Int32Array(literals + 1);
  for (let i = 0; i < actions.length; i++) {
    if (i % ACTIONS_PER_CHECK === ACTIONS_PER_CHECK - 1) yield* pace.check();
    const a = actions[i] as number;
    for (let k = actionStart[a] as number; k < (actionStart[a + 1] as number); k++) count[(perAction[k] as number) + 1]++;
  }
  for (let l = 0; l < literals; l++) count[l + 1] = (count[l + 1] as number) + (count[l] as number);
  const items = new Int32Array(count[literals] as number);
  const fill = count.slice(0, literals);
  // Actions in ascending order: each list is too.
  for (let i = 0; i < actions.length; i++) {
    if (i % ACTIONS_PER_CHECK === ACTIONS_PER_CHECK - 1) yield* pace.check();
    const a = actions[i] as number;
    for (let k = actionStart[a] as number; k < (actionStart[a + 1] as number); k++) {
      const l = perAction[k] as number;
      items[fill[l] as number] = a;
      fill[l] = (fill[l] as number) + 1;
    }
  }
  return { start: count, items };
}

/** Each action's literals from CSR word masks: a bit of `bitsOf(k)` has the value `bitValue(k, bit)`. */
function* maskLiteralsSteps(
  nActions: number,
  start: Int32Array,
  word: Int32Array,
  bitsOf: (k: number) => number,
  bitValue: (k: number, bit: number) => number,
  pace: Pace,
): Generator<void, { start: Int32Array; items: Int32Array }, void> {
  const starts = new Int32Array(nActions + 1);
  const items: number[] = [];
  for (let a = 0; a < nActions; a++) {
    if (a % ACTIONS_PER_CHECK === ACTIONS_PER_CHECK - 1) yield* pace.check();
    for (let k = start[a] as number; k < (start[a + 1] as number); k++) {
      const w = word[k] as number;
      let mask = bitsOf(k);
      while (mask !== 0) {
        const low = mask & -mask;
        const b = 31 - Math.clz32(low);
        items.push(2 * (32 * w + b) + bitValue(k, low));
        mask ^= low;
      }
    }
    starts[a + 1] = items.length;
  }
  return { start: starts, items: Int32Array.from(items) };
}

/** What {@link StubbornSets} is made of: per action its literals, per literal its achievers and needers, the goal's literals. */
interface StubbornParts {
  /** Each action's precondition literals, fewest achievers first (see byAchieverCountSteps). */
  readonly pre: { readonly start: Int32Array; readonly items: Int32Array };
  readonly eff: { readonly start: Int32Array; readonly items: Int32Array };
  readonly achievers: LiteralLists;
  readonly needers: LiteralLists;
  readonly goal: Int32Array;
}

/**
 * The stubborn sets of one search's boolean task: built once per layout and
 * relevance view (see {@link stubbornSetsOf}), then {@link compute} at each
 * expansion and {@link keeps} for each applicable action.
 */
export class StubbornSets {
  readonly #preStart: Int32Array;
  readonly #pre: Int32Array;
  readonly #effStart: Int32Array;
  readonly #eff: Int32Array;
  /** Per literal: the actions that write it, and the actions that need it. */
  readonly #achievers: LiteralLists;
  readonly #needers: LiteralLists;
  readonly #goal: Int32Array;
  /** Per action: `#stamp` when it is in the current set. */
  readonly #inSet: Int32Array;
  /** Per literal: `#stamp` once its achievers, or its needers, were added to the current set (see {@link compute}). */
  readonly #achieversAdded: Int32Array;
  readonly #needersAdded: Int32Array;
  #stamp = 0;
  readonly #queue: Int32Array;
  #tail = 0;
  /** Pruning is on (it switches off for good when it does not pay). */
  active = true;
  #expansions = 0;
  #applicable = 0;
  #pruned = 0;

  constructor(parts: StubbornParts) {
    const nActions = parts.pre.start.length - 1;
    this.#preStart = parts.pre.start;
    this.#pre = parts.pre.items;
    this.#effStart = parts.eff.start;
    this.#eff = parts.eff.items;
    this.#achievers = parts.achievers;
    this.#needers = parts.needers;
    this.#goal = parts.goal;
    this.#inSet = new Int32Array(nActions);
    this.#queue = new Int32Array(nActions);
    this.#achieversAdded = new Int32Array(parts.achievers.start.length - 1);
    this.#needersAdded = new Int32Array(parts.needers.start.length - 1);
  }

  /** Starts a search: pruning on, its counts at zero. */
  begin(): void {
    this.active = true;
    this.#expansions = 0;
    this.#applicable = 0;
    this.#pruned = 0;
  }

  /**
   * Computes the stubborn set of the state at `base` in `rows`. At a goal
   * state every action is kept (the set starts from an unsatisfied goal).
   *
   * Atom-centric (Röger, Helmert, Seipp and Sievers, 2020): the rules add
   * whole lists by literal (the achievers of a literal, the actions that
   * need one), and each list is walked at most once per state, however
   * many actions of the set lead to it. The set is the same as adding
   * each applicable action's interference list, action by action, which
   * walks a list again for every action that shares its literal
   * (openstacks-opt08 p08: the sets took more time than LM-cut).
   */
  compute(rows: Int32Array, base: number): void {
    this.#expansions++;
    if (this.#expansions === EARLY_CHECK_AFTER + 1 && this.#pruned < EARLY_MIN_PRUNED_SHARE * this.#applicable) this.active = false;
    if (this.#expansions === CHECK_AFTER + 1 && this.#pruned < MIN_PRUNED_SHARE * this.#applicable) this.active = false;
    if (!this.active) return;
    let landmark = -1;
    for (let g = 0; g < this.#goal.length; g++) {
      if (!holds(rows, base, this.#goal[g] as number)) {
        landmark = this.#goal[g] as number;
        break;
      }
    }
    const stamp = ++this.#stamp;
    if (landmark < 0) {
      // A goal state: nothing is pruned.
      this.#inSet.fill(stamp);
      return;
    }
    const queue = this.#queue;
    const pre = this.#pre;
    const preStart = this.#preStart;
    const eff = this.#eff;
    const effStart = this.#effStart;
    this.#tail = 0;
    this.#addAchievers(landmark, stamp);
    for (let head = 0; head < this.#tail; head++) {
      const a = queue[head] as number;
      const preEnd = preStart[a + 1] as number;
      // Preconditions are in order of how many achievers they have: the first unsatisfied one has the fewest.
      let unmet = -1;
      for (let k = preStart[a] as number; k < preEnd; k++) {
        if (!holds(rows, base, pre[k] as number)) {
          unmet = pre[k] as number;
          break;
        }
      }
      if (unmet >= 0) {
        // Not applicable: a necessary enabling set, the achievers of the unsatisfied precondition that has the fewest
        // (the first of those in its list). Fewest, measured against the first as Fast Downward takes: elevators-opt08
        // p05 26,460 expansions against 28,936, woodworking-opt08 p05 the same 128, parcprinter-08 p04 the same 152.
        this.#addAchievers(unmet, stamp);
        continue;
      }
      // Applicable: every action it interferes with: those that write the other value of a fact it needs (they
      // disable it), those that need the other value of a fact it writes (it disables them) and those that write
      // that other value (they conflict with it).
      for (let k = preStart[a] as number; k < preEnd; k++) this.#addAchievers((pre[k] as number) ^ 1, stamp);
      const effEnd = effStart[a + 1] as number;
      for (let k = effStart[a] as number; k < effEnd; k++) {
        const other = (eff[k] as number) ^ 1;
        if (this.#needersAdded[other] !== stamp) {
          this.#needersAdded[other] = stamp;
          this.#addAll(this.#needers, other, stamp);
        }
        this.#addAchievers(other, stamp);
      }
    }
  }

  /** Queues the achievers of `literal` not in the set yet, unless they were queued at this state already. */
  #addAchievers(literal: number, stamp: number): void {
    if (this.#achieversAdded[literal] === stamp) return;
    this.#achieversAdded[literal] = stamp;
    this.#addAll(this.#achievers, literal, stamp);
  }

  /** Queues the actions of `literal`'s list in `lists` that are not in the set yet. */
  #addAll(lists: LiteralLists, literal: number, stamp: number): void {
    const inSet = this.#inSet;
    const queue = this.#queue;
    const items = lists.items;
    const end = lists.start[literal + 1] as number;
    let tail = this.#tail;
    for (let k = lists.start[literal] as number; k < end; k++) {
      const a = items[k] as number;
      if (inSet[a] !== stamp) {
        inSet[a] = stamp;
        queue[tail++] = a;
      }
    }
    this.#tail = tail;
  }

  /** Whether the search expands applicable action `a` at the state last computed; counts it for the switch-off check. */
  keeps(a: number): boolean {
    this.#applicable++;
    if (this.#inSet[a] === this.#stamp) return true;
    this.#pruned++;
    return false;
  }
}

/** By relevance set, or by layout for searches without one (as the successor generator's cache). */
const cache = new WeakMap<object, StubbornSets | null>();

/**
 * The stubborn sets for a boolean search over the actions `relevant` keeps,
 * with the effect masks the search applies; null where they do not apply
 * (an action whose cost is a function: costs must not depend on the
 * state). Built in slices at the first search that prunes (tidybot-opt11
 * p10's 19,255 actions: 16 ms) and kept for the next.
 */
export function* stubbornSetsSteps(
  p: CompiledProblem,
  layout: BitLayout,
  relevant: Uint8Array | undefined,
  effClear: Int32Array,
  effSet: Int32Array,
  pace: Pace,
): Generator<void, StubbornSets | null, void> {
  const key = relevant ?? layout;
  const kept = cache.get(key);
  if (kept !== undefined) return kept;
  const actions: number[] = [];
  for (const a of p.actions) {
    if (relevant !== undefined && relevant[a.index] === 0) continue;
    if (a.staticCost < 0) {
      cache.set(key, null);
      return null;
    }
    actions.push(a.index);
  }
  const nActions = layout.preStart.length - 1;
  const literals = 2 * 32 * layout.words;
  const pre = yield* maskLiteralsSteps(
    nActions,
    layout.preStart,
    layout.preWord,
    (k) => layout.preWordMask[k] as number,
    (k, bit) => ((layout.preWordValue[k] as number) & bit ? 1 : 0),
    pace,
  );
  // An effect word clears some bits and sets others: a bit in `set` is written 1, one in `clear` only, 0.
  const eff = yield* maskLiteralsSteps(
    nActions,
    layout.effStart,
    layout.effWord,
    (k) => (effClear[k] as number) | (effSet[k] as number),
    (k, bit) => ((effSet[k] as number) & bit ? 1 : 0),
    pace,
  );
  const achievers = yield* literalListsSteps(literals, eff.items, eff.start, actions, pace);
  const needers = yield* literalListsSteps(literals, pre.items, pre.start, actions, pace);
  yield* byAchieverCountSteps(pre, achievers.start, pace);
  const goal: number[] = [];
  for (let w = 0; w < layout.words; w++) {
    let mask = layout.goalMask[w] as number;
    while (mask !== 0) {
      const low = mask & -mask;
      goal.push(2 * (32 * w + 31 - Math.clz32(low)) + ((layout.goalValue[w] as number) & low ? 1 : 0));
      mask ^= low;
    }
  }
  const sets = new StubbornSets({ pre, eff, achievers, needers, goal: Int32Array.from(goal) });
  cache.set(key, sets);
  return sets;
}

/** {@link stubbornSetsSteps} in one go, not kept: for tests. */
export function stubbornSetsOf(
  p: CompiledProblem,
  layout: BitLayout,
  relevant: Uint8Array | undefined,
  effClear: Int32Array,
  effSet: Int32Array,
): StubbornSets | null {
  const sets = runUnpaced(stubbornSetsSteps(p, layout, relevant, effClear, effSet, unpaced()));
  cache.delete(relevant ?? layout);
  return sets;
}

/** Longest precondition list {@link byAchieverCountSteps} sorts by insertion. */
const INSERTION_SORT_MAX = 16;

/**
 * Orders each action's precondition literals by how many actions achieve
 * them, fewest first (stable: among equals, the action's own order), so
 * that the first unsatisfied one is the necessary enabling set
 * {@link StubbornSets.compute} takes, found without scanning the rest. In
 * place: an insertion sort for the handful of preconditions most actions
 * have, the array sort (stable, n log n) for longer lists.
 */
function* byAchieverCountSteps(
  pre: { readonly start: Int32Array; readonly items: Int32Array },
  achieverStart: Int32Array,
  pace: Pace,
): Generator<void, void, void> {
  const items = pre.items;
  const achievers = (literal: number) => (achieverStart[literal + 1] as number) - (achieverStart[literal] as number);
  let sorted = 0;
  for (let a = 0; a + 1 < pre.start.length; a++) {
    const from = pre.start[a] as number;
    const to = pre.start[a + 1] as number;
    sorted += to - from + 1;
    if (sorted >= ACTIONS_PER_CHECK) {
      sorted = 0;
      yield* pace.check();
    }
    if (to - from > INSERTION_SORT_MAX) {
      const own = Array.from(items.subarray(from, to));
      own.sort((x, y) => achievers(x) - achievers(y));
      items.set(own, from);
      continue;
    }
    for (let i = from + 1; i < to; i++) {
      const literal = items[i] as number;
      const size = achievers(literal);
      let j = i - 1;
      for (; j >= from && achievers(items[j] as number) > size; j--) items[j + 1] = items[j] as number;
      items[j + 1] = literal;
    }
  }
}

/** Whether `literal` (a bit and a value) holds in the packed state at `base` in `rows`. */
function holds(rows: Int32Array, base: number, literal: number): boolean {
  const bit = literal >> 1;
  return (((rows[base + (bit >> 5)] as number) >>> (bit & 31)) & 1) === (literal & 1);
}
