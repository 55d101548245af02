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
import type { BitLayout } from "./bit-layout.js";
import { PACE_EVERY, type Pace, runUnpaced, unpaced } from "./pace.js";

/** A decision tree over precondition bits, in flat arrays (no object per node). */
export interface SuccessorGenerator {
  /** Actions the tree can list: the bitset of applicable actions has `ceil(actionCount / 32)` words. */
  readonly actionCount: number;
  /** Actions in the tree (relevant ones only when relevance analysis ran). */
  readonly listed: number;
  readonly nodeCount: number;
  /** Per node: the state word its children test, or -1 for a node without children. */
  readonly nodeWord: Int32Array;
  /** Per node: the child for actions whose next literal lies in a later word, or -1. */
  readonly nodeDontCare: Int32Array;
  /** Per node: the bits of its word with a child for actions that want them 1, and for those that want them 0. */
  readonly nodeOnes: Int32Array;
  readonly nodeZeros: Int32Array;
  /**
   * CSR by node over children: first one per bit of `nodeOnes`, then one per bit of `nodeZeros`, each in bit order,
   * so a walk finds the child of a set bit by its rank among the node's bits and never looks at a branch it skips.
   */
  readonly nodeChildStart: Int32Array;
  readonly child: Int32Array;
  /** CSR by node over the actions whose every literal is checked by the time a walk reaches the node. */
  readonly nodeLeafStart: Int32Array;
  readonly leafAction: Int32Array;
}

/**
 * When the tree replaces the scan of every action's word masks.
 * - `minActions`: no tree for fewer actions (after relevance): game agents'
 *   handful of actions, where the walk's node visits and its bitset cost
 *   about what the tests they save do.
 * - `actionsPerChild`: no tree unless the task has at least this many
 *   actions per action that applies, as measured on `sampleSteps` states of
 *   a random walk from the start. The tree pays where few actions apply
 *   (IPC tasks: 8 to 60 actions per applicable one; the tree saved 6 to 60%
 *   of a blind search's CPU time); where most do (the chain family: 2 per
 *   applicable one) the scan was 1 to 9% faster.
 * Tests force either path: `minActions` and `actionsPerChild` 0 take the
 * tree, `minActions` Infinity the scan.
 * @internal
 */
export const successorGeneratorTuning = { minActions: 48, actionsPerChild: 4, sampleSteps: 64 };

/**
 * Bounds past which no tree is built and the task keeps the scan, so a huge
 * task cannot exhaust memory. The tree has at most one child per literal
 * (each child checks a literal of every action under it) and one
 * don't-care node per child plus the root, so 1M literals bound it to 2M
 * nodes, about 60 MB with a search's walk stack. The build's own lists hold each action once per node on its path,
 * which the don't-care chains can make a word-count times longer than its
 * literals: 8M such entries (64 MB of pending lists at most).
 */
const MAX_LITERALS = 1 << 20;
const MAX_BUILD_WORK = 1 << 23;

interface CacheEntry {
  /** The tree, once built; null when past the memory bounds. */
  tree?: SuccessorGenerator | null;
  /** Actions that apply per state of the sample walk, once walked. */
  applicablePerState?: number;
}

/** By relevance set, or by layout for searches without one: a relevance set belongs to one compiled problem's layout. */
const cache = new WeakMap<object, CacheEntry>();

/** Actions `relevant` keeps (all of the layout's when undefined). */
function listedCount(layout: BitLayout, relevant: Uint8Array | undefined): number {
  const n = layout.preStart.length - 1;
  if (relevant === undefined) return n;
  let listed = 0;
  for (let ai = 0; ai < n; ai++) if (relevant[ai] !== 0) listed++;
  return listed;
}

/**
 * The successor generator of `layout` over the actions `relevant` keeps
 * (`relevant` as in `SearchSetup.relevantBits.action`), built in slices at
 * the first search that wants it, or `null` when the scan is used instead:
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
  // Before any counting: a task with fewer actions in all has fewer after relevance (per-frame plans stop here).
  if (layout.preStart.length - 1 < successorGeneratorTuning.minActions) return null;
  const listed = listedCount(layout, relevant);
  if (listed < successorGeneratorTuning.minActions) return null;
  let entry = cache.get(relevant ?? layout);
  if (entry === undefined) {
    entry = {};
    cache.set(relevant ?? layout, entry);
  }
  entry.applicablePerState ??= applicablePerState(layout, relevant, start, successorGeneratorTuning.sampleSteps);
  if (listed < successorGeneratorTuning.actionsPerChild * Math.max(1, entry.applicablePerState)) return null;
  entry.tree ??= yield* buildSteps(layout, relevant, pace, MAX_LITERALS);
  return entry.tree;
}

/**
 * The mean number of actions that apply on the states of a walk of `steps`
 * pseudo-random steps from `start` (back to the start at a dead end): the
 * same every time, so the choice of path never depends on the clock.
 */
function applicablePerState(layout: BitLayout, relevant: Uint8Array | undefined, start: Int32Array, steps: number): number {
  const { preStart, preWord, preWordMask, preWordValue, effStart, effWord, effWordClear, effWordSet } = layout;
  const state = start.slice();
  const applicable = new Int32Array(preStart.length - 1);
  let seed = 0x9e3779b9;
  let total = 0;
  for (let step = 0; step < steps; step++) {
    let n = 0;
    actions: for (let ai = 0; ai < applicable.length; ai++) {
      if (relevant !== undefined && relevant[ai] === 0) continue;
      for (let k = preStart[ai] as number; k < (preStart[ai + 1] as number); k++) {
        if (((state[preWord[k] as number] as number) & (preWordMask[k] as number)) !== preWordValue[k]) continue actions;
      }
      applicable[n++] = ai;
    }
    total += n;
    if (n === 0) {
      state.set(start);
      continue;
    }
    seed = (Math.imul(seed, 1103515245) + 12345) | 0;
    const ai = applicable[(seed >>> 8) % n] as number;
    for (let k = effStart[ai] as number; k < (effStart[ai + 1] as number); k++) {
      const w = effWord[k] as number;
      state[w] = ((state[w] as number) & ~(effWordClear[k] as number)) | (effWordSet[k] as number);
    }
  }
  return total / Math.max(1, steps);
}

/** {@link successorGeneratorSteps} without slices or the action threshold, and not kept: for tests. */
export function buildSuccessorGenerator(
  layout: BitLayout,
  relevant: Uint8Array | undefined,
  maxLiterals = MAX_LITERALS,
): SuccessorGenerator | null {
  return runUnpaced(buildSteps(layout, relevant, unpaced(), maxLiterals));
}

/** A node waiting to be built: the actions that reach it and how many of each one's literals are checked. */
interface PendingNode {
  readonly actions: Int32Array;
  readonly checked: Int32Array;
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
  for (let ai = 0; ai < actionCount; ai++) {
    if (ai % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
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
  const literal = Int32Array.from(literals);

  const nodeWord: number[] = [];
  const nodeDontCare: number[] = [];
  const nodeOnes: number[] = [];
  const nodeZeros: number[] = [];
  const nodeChildStart: number[] = [0];
  const child: number[] = [];
  const nodeLeafStart: number[] = [0];
  const leafAction: number[] = [];

  const rootActions: number[] = [];
  for (let ai = 0; ai < actionCount; ai++) if (relevant?.[ai] !== 0) rootActions.push(ai);
  const queue: (PendingNode | undefined)[] = [{ actions: Int32Array.from(rootActions), checked: new Int32Array(rootActions.length) }];
  let work = 0;
  for (let head = 0; head < queue.length; head++) {
    if (head % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const { actions, checked } = queue[head] as PendingNode;
    queue[head] = undefined; // built: let its lists go
    work += actions.length;
    if (work > MAX_BUILD_WORK) return null;
    // The lowest word any action here still tests.
    let word = -1;
    for (let i = 0; i < actions.length; i++) {
      const ai = actions[i] as number;
      const at = (litStart[ai] as number) + (checked[i] as number);
      if (at === litStart[ai + 1]) leafAction.push(ai);
      else {
        const w = (literal[at] as number) >>> 6;
        if (word < 0 || w < word) word = w;
      }
    }
    nodeLeafStart.push(leafAction.length);
    nodeWord.push(word);
    if (word < 0) {
      nodeOnes.push(0);
      nodeZeros.push(0);
      nodeDontCare.push(-1);
      nodeChildStart.push(child.length);
      continue;
    }
    // Actions by their next literal in `word` (in literal order: bit, then value), and the rest.
    const byLiteral = new Map<number, number[]>();
    const later: number[] = [];
    for (let i = 0; i < actions.length; i++) {
      const ai = actions[i] as number;
      const at = (litStart[ai] as number) + (checked[i] as number);
      if (at === litStart[ai + 1]) continue;
      const lit = literal[at] as number;
      if (lit >>> 6 !== word) later.push(i);
      else {
        const group = byLiteral.get(lit);
        if (group) group.push(i);
        else byLiteral.set(lit, [i]);
      }
    }
    // Wanting 1 before wanting 0, each in bit order: the order `nodeChildStart` promises.
    let ones = 0;
    let zeros = 0;
    for (const lit of [...byLiteral.keys()].sort((a, b) => (b & 1) - (a & 1) || a - b)) {
      const group = byLiteral.get(lit) as number[];
      const bit = 1 << ((lit >>> 1) & 31);
      if ((lit & 1) === 1) ones |= bit;
      else zeros |= bit;
      child.push(queue.length);
      queue.push({
        actions: Int32Array.from(group, (i) => actions[i] as number),
        checked: Int32Array.from(group, (i) => (checked[i] as number) + 1),
      });
    }
    nodeOnes.push(ones);
    nodeZeros.push(zeros);
    nodeChildStart.push(child.length);
    if (later.length === 0) nodeDontCare.push(-1);
    else {
      nodeDontCare.push(queue.length);
      queue.push({
        actions: Int32Array.from(later, (i) => actions[i] as number),
        checked: Int32Array.from(later, (i) => checked[i] as number),
      });
    }
  }
  return {
    actionCount,
    listed: rootActions.length,
    nodeCount: nodeWord.length,
    nodeWord: Int32Array.from(nodeWord),
    nodeDontCare: Int32Array.from(nodeDontCare),
    nodeOnes: Int32Array.from(nodeOnes),
    nodeZeros: Int32Array.from(nodeZeros),
    nodeChildStart: Int32Array.from(nodeChildStart),
    child: Int32Array.from(child),
    nodeLeafStart: Int32Array.from(nodeLeafStart),
    leafAction: Int32Array.from(leafAction),
  };
}
