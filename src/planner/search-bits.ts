/**
 * The packed-bits state representation of the search loop (search-loop.ts)
 * for all-boolean domains (see bit-layout.ts): a row is a few 32-bit
 * words, the goal test and each precondition test compare masked words,
 * an effect clears and sets bits, and the hash folds the words.
 * Heuristics and cost functions read a decoded Float64 row.
 */
import type { WorldState } from "../core/facts.js";
import type { BitLayout } from "./bit-layout.js";
import type { CompiledProblem } from "./compiled-problem.js";
import { NO_MORE, NOT_YET, type StateRepresentation, startSearch } from "./search-loop.js";
import type { SearchRun, SearchSetup } from "./search-setup.js";
import type { NodeStore } from "./search-store.js";

export { type BitLayout, bitLayoutOf, packStart } from "./bit-layout.js";

/** Actions looked at per call of `next` when none applies: the loop reads its clock between calls. */
const SCAN_BATCH = 1024;

/** Runs A* on packed boolean states to the end. */
export function searchBits(setup: SearchSetup, layout: BitLayout, start: Int32Array): ReturnType<SearchRun["step"]> {
  return startBitsSearch(setup, layout, start).step(Number.POSITIVE_INFINITY);
}

/** Starts A* on packed boolean states; the returned run searches in slices (see {@link SearchRun}). */
export function startBitsSearch(setup: SearchSetup, layout: BitLayout, start: Int32Array): SearchRun {
  return startSearch(setup, new BitsRepresentation(setup, layout, start));
}

class BitsRepresentation implements StateRepresentation<Int32Array> {
  readonly nodes: NodeStore<Int32Array>;
  readonly rowBytes: number;
  row: Float64Array;
  childHash = 0;
  readonly #p: CompiledProblem;
  readonly #layout: BitLayout;
  readonly #start: Int32Array;
  readonly #words: number;
  /** Per action: 0 when relevance analysis left it out (undefined: none is). */
  readonly #relevant: Uint8Array | undefined;
  /** Effect masks, without the bits of irrelevant facts when relevance analysis ran. */
  readonly #effClear: Int32Array;
  readonly #effSet: Int32Array;
  #node = -1;
  #base = 0;
  #action = 0;
  #state: WorldState | null = null;

  constructor(setup: SearchSetup, layout: BitLayout, start: Int32Array) {
    const { p, workspace } = setup;
    this.#p = p;
    this.#layout = layout;
    this.#start = start;
    this.#words = layout.words;
    this.#relevant = setup.relevantBits?.action;
    this.#effClear = setup.relevantBits?.effClear ?? layout.effWordClear;
    this.#effSet = setup.relevantBits?.effSet ?? layout.effWordSet;
    this.nodes = workspace.takeIntNodes(layout.words);
    this.rowBytes = layout.words * 4;
    if (workspace.bitsRow?.length !== p.width) workspace.bitsRow = new Float64Array(p.width);
    this.row = workspace.bitsRow;
  }

  seedRoot(): number {
    this.nodes.arena.set(this.#start, 0);
    return this.#hash(0);
  }

  isGoal(node: number): boolean {
    const arena = this.nodes.arena;
    const { goalMask, goalValue } = this.#layout;
    const base = node * this.#words;
    for (let w = 0; w < this.#words; w++) {
      if (((arena[base + w] as number) & (goalMask[w] as number)) !== goalValue[w]) return false;
    }
    return true;
  }

  sameRow(a: number, b: number): boolean {
    const arena = this.nodes.arena;
    const nw = this.#words;
    const ab = a * nw;
    const bb = b * nw;
    for (let w = 0; w < nw; w++) if (arena[ab + w] !== arena[bb + w]) return false;
    return true;
  }

  rowOf(node: number): number {
    const arena = this.nodes.arena;
    const row = this.row;
    const base = node * this.#words;
    for (let slot = 0; slot < row.length; slot++) row[slot] = ((arena[base + (slot >> 5)] as number) >>> (slot & 31)) & 1;
    return 0;
  }

  decode(node: number): WorldState {
    return this.#p.decodeState(this.row, this.rowOf(node));
  }

  expand(node: number): void {
    this.#node = node;
    this.#base = node * this.#words;
    this.#action = 0;
    this.#state = null;
  }

  // Frozen: every child's cost and effect functions read this one object, so none may change it for its siblings.
  expandingState(): WorldState {
    this.#state ??= Object.freeze(this.decode(this.#node));
    return this.#state;
  }

  // Every action's masks are tested: with states of one or two words this scan measured faster than gathering
  // candidates from a per-bit index and sorting them back into specificity order (530k vs 330k expansions per second
  // on chain-XL, and slower still with 600 actions). Only the words an action tests or writes are read, and an
  // action that would change no fact is dropped before its child is written.
  next(child: number): number {
    const arena = this.nodes.arena;
    const { preStart, preWord, preWordMask, preWordValue, effStart, effWord, factMask } = this.#layout;
    const effClear = this.#effClear;
    const effSet = this.#effSet;
    const relevant = this.#relevant;
    const base = this.#base;
    const nActions = preStart.length - 1;
    const stop = Math.min(nActions, this.#action + SCAN_BATCH);
    actionLoop: for (let ai = this.#action; ai < stop; ai++) {
      if (relevant !== undefined && relevant[ai] === 0) continue;
      const preEnd = preStart[ai + 1] as number;
      for (let k = preStart[ai] as number; k < preEnd; k++) {
        if (((arena[base + (preWord[k] as number)] as number) & (preWordMask[k] as number)) !== preWordValue[k]) continue actionLoop;
      }
      const effEnd = effStart[ai + 1] as number;
      let changed = false;
      for (let k = effStart[ai] as number; k < effEnd; k++) {
        const w = effWord[k] as number;
        const before = arena[base + w] as number;
        const after = (before & ~(effClear[k] as number)) | (effSet[k] as number);
        if (((before ^ after) & (factMask[w] as number)) !== 0) {
          changed = true;
          break;
        }
      }
      if (!changed) continue;
      const nw = this.#words;
      const cb = child * nw;
      if (nw > 8) arena.copyWithin(cb, base, base + nw);
      else for (let w = 0; w < nw; w++) arena[cb + w] = arena[base + w] as number;
      for (let k = effStart[ai] as number; k < effEnd; k++) {
        const w = cb + (effWord[k] as number);
        arena[w] = ((arena[w] as number) & ~(effClear[k] as number)) | (effSet[k] as number);
      }
      this.childHash = this.#hash(child);
      this.#action = ai + 1;
      return ai;
    }
    this.#action = stop;
    return stop === nActions ? NO_MORE : NOT_YET;
  }

  /** The row's words folded into one (the table mixes it further). */
  #hash(node: number): number {
    const arena = this.nodes.arena;
    const base = node * this.#words;
    let x = arena[base] as number;
    for (let w = 1; w < this.#words; w++) x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) ^ (arena[base + w] as number);
    return x;
  }
}
