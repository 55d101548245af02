/**
 * A successor generator for the packed-bits search (search-bits.ts), after
 * Fast Downward's: a decision tree over the precondition bits of the
 * actions, so an expansion visits the branches its state satisfies instead
 * of testing every action. Each action's preconditions are literals (a bit
 * that must be 1 or 0) in slot order; a node tests the next literal of the
 * actions that reach it, in the lowest word any of them still tests, with
 * one child per (bit, value) and a don't-care child for the actions whose
 * next literal lies in a later word. An action is listed at the node where
 * its last literal was checked, so every action a walk reaches applies.
 * Grouping a node's literals by word lets one node stand for a whole word
 * (FD's per-variable switch): the walk reads the word once and follows only
 * the bits the state satisfies.
 *
 * The tree is built once per bit layout and relevance set, in slices by the
 * search's setup (run-search.ts), and kept while the layout lives (the
 * compiled-problem cache holds layouts). Where most actions apply, testing
 * each in turn is faster, and the search does that instead.
 * @internal
 */
import { ApplicableActions, type SuccessorGenerator } from "./applicable-actions.js";
import type { BitLayout } from "./bit-layout.js";
import { PACE_EVERY, type Pace, runUnpaced, unpaced } from "./pace.js";

export type { SuccessorGenerator } from "./applicable-actions.js";

/**
 * When the tree replaces the scan of every action's word masks.
 * - `minActions`: no tree for fewer actions: game agents' handful of
 *   actions, where the walk's node visits and its bitset cost about what
 *   the tests they save do.
 * - `actionsPerChild`: no tree unless the task has at least this many
 *   actions (after relevance) per action that applies, as measured on the
 *   64 states of a random walk from the start. The tree pays where few actions apply
 *   (IPC tasks: 8 to 60 actions per applicable one; the tree saved 6 to 60%
 *   of a blind search's CPU time); where most do (the chain family: 2 per
 *   applicable one) the scan was 1 to 9% faster.
 * Tests force either path: `minActions` and `actionsPerChild` 0 take the
 * tree, `minActions` Infinity the scan.
 * @internal
 */
export const successorGeneratorTuning = { minActions: 48, actionsPerChild: 4 };

/**
 * Bounds past which no tree is built and the task keeps the scan, so a huge
 * task cannot exhaust memory. The tree has at most one child per literal
 * (each child checks a literal of every action under it) and one
 * don't-care node per child plus the root, so 1M literals bound it to 2M
 * nodes, about 60 MB with a search's walk stack. The build's own lists hold
 * each action once per node on its path, which the don't-care chains can
 * make a word-count times longer than its literals: 8M such entries (64 MB
 * of pending lists at most).
 */
const MAX_LITERALS = 1 << 20;
const MAX_BUILD_WORK = 1 << 23;

interface CacheEntry {
  /** The tree; null when past the memory bounds. */
  readonly tree: SuccessorGenerator | null;
  /** Actions that apply per state of the sample walk, once walked. */
  perState?: number;
}

/** By relevance set, or by layout for searches without one: a relevance set belongs to one compiled problem's layout. */
const cache = new WeakMap<object, CacheEntry>();

const ints = (values: ArrayLike<number>): Int32Array => Int32Array.from(values);

/**
 * The successor generator of `layout` over the actions `relevant` keeps
 * (`relevant` as in `SearchSetup.relevantBits.action`), built in slices at
 * the first search of a task with `minActions` actions or more and kept
 * whichever path it chooses, or `null` when the scan is used instead:
 * too few actions, too many of them applying (measured once per layout and
 * relevance set, from the first search's `start`), or too many literals to
 * build it within its memory bound. Decided before the search, so the
 * search runs one path from its start (a switch in the middle made V8
 * recompile the search loop: 5 to 15 ms on short searches).
 */
export function* successorGeneratorSteps(
  layout: BitLayout,
  relevant: Uint8Array | undefined,
  start: Int32Array,
  pace: Pace,
): Generator<void, SuccessorGenerator | null, void> {
  // Before anything is built: game agents' handful of actions stop here.
  if (layout.preStart.length - 1 < successorGeneratorTuning.minActions) return null;
  let entry = cache.get(relevant ?? layout);
  if (entry === undefined) {
    entry = { tree: yield* buildSteps(layout, relevant, pace, MAX_LITERALS) };
    cache.set(relevant ?? layout, entry);
  }
  const tree = entry.tree;
  if (tree === null) return null;
  entry.perState ??= applicablePerState(tree, layout, start);
  return tree.leaves.length >= successorGeneratorTuning.actionsPerChild * entry.perState ? tree : null;
}

/**
 * The mean number of actions that apply on the states of a walk of 64
 * pseudo-random steps from `start` (back to the start at a dead end): the
 * same every time, so the choice of path never depends on the clock.
 */
function applicablePerState(tree: SuccessorGenerator, layout: BitLayout, start: Int32Array): number {
  const { effStart, effWord, effWordClear, effWordSet } = layout;
  const list = new ApplicableActions(tree);
  const state = start.slice();
  let seed = 0x9e3779b9;
  let total = 0;
  for (let step = 0; step < 64; step++) {
    list.begin();
    list.walk(state, 0, tree.nodeWord.length);
    // One of the applicable actions, each as likely (reservoir sampling).
    let n = 0;
    let chosen = -1;
    for (let ai = list.take(); ai >= 0; ai = list.take()) {
      seed = (Math.imul(seed, 1103515245) + 12345) | 0;
      if ((seed >>> 8) % ++n === 0) chosen = ai;
    }
    total += n;
    if (chosen < 0) {
      state.set(start);
      continue;
    }
    for (let k = effStart[chosen] as number; k < (effStart[chosen + 1] as number); k++) {
      const w = effWord[k] as number;
      state[w] = ((state[w] as number) & ~(effWordClear[k] as number)) | (effWordSet[k] as number);
    }
  }
  return total / 64;
}

/** {@link successorGeneratorSteps} without slices or the action threshold, and not kept: for tests. */
export function buildSuccessorGenerator(
  layout: BitLayout,
  relevant: Uint8Array | undefined,
  maxLiterals = MAX_LITERALS,
): SuccessorGenerator | null {
  return runUnpaced(buildSteps(layout, relevant, unpaced(), maxLiterals));
}

/**
 * Builds the tree breadth first, so node ids follow build order and every
 * per-node list is a CSR. `null` past `maxLiterals` literals or
 * {@link MAX_BUILD_WORK}.
 */
function* buildSteps(
  layout: BitLayout,
  relevant: Uint8Array | undefined,
  pace: Pace,
  maxLiterals: number,
): Generator<void, SuccessorGenerator | null, void> {
  const { preStart, preWord, preWordMask, preWordValue } = layout;
  const actionCount = preStart.length - 1;
  // Each action's literals, as slot * 2 + wanted value, in slot order (the layout's words come sorted).
  const literals: number[] = [];
  const litStart = new Int32Array(actionCount + 1);
  // Unpaced: a few ns a literal (45,000 in tidybot-opt11 p05); the nodes below cost microseconds each.
  for (let ai = 0; ai < actionCount; ai++) {
    for (let k = preStart[ai] as number; relevant?.[ai] !== 0 && k < (preStart[ai + 1] as number); k++) {
      for (let bit = 0; bit < 32; bit++) {
        if ((((preWordMask[k] as number) >>> bit) & 1) === 1) {
          literals.push(((((preWord[k] as number) << 5) | bit) << 1) | (((preWordValue[k] as number) >>> bit) & 1));
        }
      }
    }
    litStart[ai + 1] = literals.length;
    if (literals.length > maxLiterals) return null;
  }
  const literal = ints(literals);

  const nodeWord: number[] = [];
  const dontCare: number[] = [];
  const nodeOnes: number[] = [];
  const nodeZeros: number[] = [];
  const childStart: number[] = [0];
  const child: number[] = [];
  const leafStart: number[] = [0];
  const leaves: number[] = [];

  const rootActions: number[] = [];
  for (let ai = 0; ai < actionCount; ai++) if (relevant?.[ai] !== 0) rootActions.push(ai);
  // Nodes waiting to be built: the actions that reach each and how many of each one's literals are checked.
  const pendingActions: (Int32Array | undefined)[] = [ints(rootActions)];
  const pendingChecked: (Int32Array | undefined)[] = [new Int32Array(rootActions.length)];
  /** Queues a node for the actions `actions[i]` of the node being built, `step` more literals checked; returns its id. */
  const pend = (actions: Int32Array, checked: Int32Array, group: number[], step: number): number => {
    pendingActions.push(Int32Array.from(group, (i) => actions[i] as number));
    pendingChecked.push(Int32Array.from(group, (i) => (checked[i] as number) + step));
    return pendingActions.length - 1;
  };
  let work = 0;
  for (let head = 0; head < pendingActions.length; head++) {
    if (head % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const actions = pendingActions[head] as Int32Array;
    const checked = pendingChecked[head] as Int32Array;
    // Built: let its lists go.
    pendingActions[head] = undefined;
    pendingChecked[head] = undefined;
    work += actions.length;
    if (work > MAX_BUILD_WORK) return null;
    // Actions with literals left by their next one, and the lowest word any of them tests.
    const next: number[] = [];
    let word = -1;
    for (let i = 0; i < actions.length; i++) {
      const ai = actions[i] as number;
      const at = (litStart[ai] as number) + (checked[i] as number);
      if (at === litStart[ai + 1]) leaves.push(ai);
      else {
        next[i] = literal[at] as number;
        if (word < 0 || next[i] >>> 6 < word) word = next[i] >>> 6;
      }
    }
    leafStart.push(leaves.length);
    nodeWord.push(word);
    // Those whose next literal is in `word` by literal (bit, then value), and the rest.
    const byLiteral = new Map<number, number[]>();
    const later: number[] = [];
    next.forEach((lit, i) => {
      if (lit >>> 6 !== word) later.push(i);
      else {
        const group = byLiteral.get(lit);
        if (group) group.push(i);
        else byLiteral.set(lit, [i]);
      }
    });
    // Wanting 1 before wanting 0, each in bit order: the order `childStart` promises.
    let ones = 0;
    let zeros = 0;
    for (const lit of [...byLiteral.keys()].sort((a, b) => (b & 1) - (a & 1) || a - b)) {
      const group = byLiteral.get(lit) as number[];
      const bit = 1 << ((lit >>> 1) & 31);
      if ((lit & 1) === 1) ones |= bit;
      else zeros |= bit;
      child.push(pend(actions, checked, group, 1));
    }
    nodeOnes.push(ones);
    nodeZeros.push(zeros);
    childStart.push(child.length);
    dontCare.push(later.length === 0 ? -1 : pend(actions, checked, later, 0));
  }
  return {
    actionCount,
    nodeWord: ints(nodeWord),
    dontCare: ints(dontCare),
    nodeOnes: ints(nodeOnes),
    nodeZeros: ints(nodeZeros),
    childStart: ints(childStart),
    child: ints(child),
    leafStart: ints(leafStart),
    leaves: ints(leaves),
  };
}
