/**
 * The packed-bits state representation of the search loop (search-loop.ts)
 * for all-boolean domains (see bit-layout.ts): a row is a few 32-bit
 * words, the goal test and each precondition test compare masked words,
 * an effect clears and sets bits, and the hash folds the words.
 * Heuristics and cost functions read a decoded Float64 row. Tasks with many
 * actions of which few apply list each state's applicable actions from a
 * successor generator (successor-generator.ts) instead of testing every action.
 */
import type { WorldState } from "../core/facts.js";
import { ApplicableActions } from "./applicable-actions.js";
import { type BitLayout, type OneWordActions, type OneWordScan, oneWordActions } from "./bit-layout.js";
import type { CompiledProblem } from "./compiled-problem.js";
import { NO_MORE, NOT_YET, type StateRepresentation, startSearch } from "./search-loop.js";
import type { SearchRun, SearchSetup } from "./search-setup.js";
import type { NodeStore } from "./search-store.js";
import type { StubbornSets } from "./stubborn-sets.js";

export { type BitLayout, bitLayoutOf, packStart } from "./bit-layout.js";

/** Actions (or tree nodes) looked at per call of `next` when none makes a child: the loop reads its clock between calls. */
const SCAN_BATCH = 1024;
const NO_KIDS = new Int32Array(0);

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
  /** The block holding the expanded node's row (rows never change once stored, so a block grown since holds it too). */
  #rows: Int32Array = new Int32Array(0);
  #action = 0;
  #state: WorldState | null = null;
  /** The applicable actions from the successor generator where the setup chose it (see successor-generator.ts). */
  readonly #listed: ApplicableActions | null;
  /** The actions as single words when a state is one word (see {@link OneWordActions}), else null. */
  readonly #one: OneWordActions | null;
  /** One word: the expanding state, and the bits that are facts. */
  #word = 0;
  /** One word: the children of the batch scanned last and their entries in `#one`, `#kidAt` the next to hand out. */
  readonly #kids: Int32Array;
  readonly #kidEntries: Int32Array;
  #kidCount = 0;
  #kidAt = 0;
  readonly #factWord: number;
  /** One word: the hash of a row is the row itself (see {@link StateRepresentation.hashIsRow}). */
  readonly hashIsRow: boolean;
  /** Partial-order pruning (stubborn-sets.ts) when the search asked for it and it applies, else null. */
  readonly #stubborn: StubbornSets | null;
  /** The expanding state's successors are pruned (sets given and still on). */
  #pruning = false;

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
    this.#listed = setup.successors ? new ApplicableActions(setup.successors) : null;
    const oneWord = layout.words === 1 && this.#listed === null ? oneWordOf(setup, layout) : null;
    this.#one = oneWord?.actions ?? null;
    this.#factWord = layout.factMask[0] as number;
    this.#kids = oneWord?.kids ?? NO_KIDS;
    this.#kidEntries = oneWord?.entries ?? NO_KIDS;
    this.hashIsRow = layout.words === 1;
    this.#stubborn = setup.stubborn ?? null;
    this.#stubborn?.begin();
  }

  seedRoot(): number {
    const rows = this.nodes.rows(0);
    rows.set(this.#start, 0);
    return this.#hash(rows, 0);
  }

  isGoal(node: number): boolean {
    const arena = this.nodes.rows(node);
    const { goalMask, goalValue } = this.#layout;
    const base = this.nodes.at(node);
    for (let w = 0; w < this.#words; w++) {
      if (((arena[base + w] as number) & (goalMask[w] as number)) !== goalValue[w]) return false;
    }
    return true;
  }

  sameRow(a: number, b: number): boolean {
    const rowsA = this.nodes.rows(a);
    const rowsB = this.nodes.rows(b);
    const nw = this.#words;
    const ab = this.nodes.at(a);
    const bb = this.nodes.at(b);
    for (let w = 0; w < nw; w++) if (rowsA[ab + w] !== rowsB[bb + w]) return false;
    return true;
  }

  rowOf(node: number): number {
    const arena = this.nodes.rows(node);
    const row = this.row;
    const base = this.nodes.at(node);
    for (let slot = 0; slot < row.length; slot++) row[slot] = ((arena[base + (slot >> 5)] as number) >>> (slot & 31)) & 1;
    return 0;
  }

  decode(node: number): WorldState {
    return this.#p.decodeState(this.row, this.rowOf(node));
  }

  expand(node: number): void {
    this.#node = node;
    this.#base = this.nodes.at(node);
    this.#rows = this.nodes.rows(node);
    this.#action = 0;
    this.#state = null;
    this.#word = this.#rows[this.#base] as number;
    this.#kidCount = 0;
    this.#kidAt = 0;
    this.#listed?.begin();
    const stubborn = this.#stubborn;
    if (stubborn?.active) stubborn.compute(this.#rows, this.#base);
    // Checked once per expansion: once the sets switch off, a successor costs one test of this field.
    this.#pruning = stubborn?.active === true;
  }

  /** False when partial-order pruning drops applicable action `ai` at the expanding state. */
  #kept(ai: number): boolean {
    return (this.#stubborn as StubbornSets).keeps(ai);
  }

  // Frozen: every child's cost and effect functions read this one object, so none may change it for its siblings.
  expandingState(): WorldState {
    this.#state ??= Object.freeze(this.decode(this.#node));
    return this.#state;
  }

  // Where the setup chose no successor generator (successor-generator.ts) every action's masks are tested: with states of one or
  // two words this scan measured faster than gathering candidates from a per-bit index and sorting them back into
  // specificity order (530k vs 330k expansions per second on chain-XL), and than the generator's tree where most
  // actions apply. Only the words an action tests or writes are read, and an action that would change no fact is
  // dropped before its child is written.
  next(child: number): number {
    if (this.#one !== null) return this.#pruning ? this.#nextOneWordPruned() : this.#nextOneWord();
    if (this.#listed !== null) return this.#nextListed(child);
    const arena = this.#rows;
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
      if (!changed || (this.#pruning && !this.#kept(ai))) continue;
      this.#writeChild(child, ai);
      this.#action = ai + 1;
      return ai;
    }
    this.#action = stop;
    return stop === nActions ? NO_MORE : NOT_YET;
  }

  /**
   * {@link next} on states of one word: a batch of actions is tested and applied to the expanding state, held in a
   * number, in one loop without branches (see {@link #scanOneWord}); the calls then hand the children out in action
   * order. A child's hash is its word (as {@link #hash} makes it).
   */
  #nextOneWord(): number {
    if (this.#kidAt === this.#kidCount) {
      const n = (this.#one as OneWordActions).action.length;
      if (this.#action === n) return NO_MORE;
      this.#scanOneWord(n);
      if (this.#kidCount === 0) return this.#action === n ? NO_MORE : NOT_YET;
    }
    const k = this.#kidAt++;
    // The row is the hash: the loop writes it if it keeps the child (see `hashIsRow`).
    this.childHash = this.#kids[k] as number;
    return (this.#one as OneWordActions).action[this.#kidEntries[k] as number] as number;
  }

  /**
   * {@link #nextOneWord} where the expansion prunes: a child outside the state's stubborn set is passed over. Kept
   * apart so that blind search's one-word path, the planner's hottest, stays as it was.
   */
  #nextOneWordPruned(): number {
    const ai = this.#nextOneWord();
    return ai >= 0 && !this.#kept(ai) ? NOT_YET : ai;
  }

  /**
   * Gathers the children of the next batch of actions that apply and change a fact. Every action's child is written
   * and the count moves on only for those: whether an action applies and changes something follows no pattern a
   * branch predictor can learn, and the branches cost more than the stores (a scan of chain-XL's states: 6.0 -> 3.5 ms).
   */
  #scanOneWord(n: number): void {
    const masks = (this.#one as OneWordActions).masks;
    const kids = this.#kids;
    const kidEntries = this.#kidEntries;
    const s = this.#word;
    const facts = this.#factWord;
    const end = 4 * Math.min(n, this.#action + SCAN_BATCH);
    let count = 0;
    for (let m = 4 * this.#action; m < end; m += 4) {
      const c = (s & (masks[m + 2] as number)) | (masks[m + 3] as number);
      // Zero when the action applies; not zero when its child changes a fact.
      const fails = (s & (masks[m] as number)) ^ (masks[m + 1] as number);
      const changes = (c ^ s) & facts;
      kids[count] = c;
      kidEntries[count] = m >> 2;
      // The sign bit of `v | -v` is set when v is not zero.
      count += ((changes | -changes) & ~(fails | -fails)) >>> 31;
    }
    this.#action = end >> 2;
    this.#kidCount = count;
    this.#kidAt = 0;
  }

  /**
   * {@link next} on a task with a successor generator: its tree lists the applicable actions, handed out in ascending
   * index as the scan finds them, so searches make the same children in the same order either way. The walk and the
   * taking each stop after a batch, so the loop reads its clock.
   */
  #nextListed(child: number): number {
    const listed = this.#listed as ApplicableActions;
    if (!listed.walk(this.#rows, this.#base, SCAN_BATCH)) return NOT_YET;
    const { effStart, effWord, factMask } = this.#layout;
    const effClear = this.#effClear;
    const effSet = this.#effSet;
    const arena = this.#rows;
    const base = this.#base;
    for (let taken = 0; taken < SCAN_BATCH; taken++) {
      const ai = listed.take();
      if (ai < 0) return NO_MORE;
      // An action that changes no fact makes no child, as in the scan.
      for (let k = effStart[ai] as number; k < (effStart[ai + 1] as number); k++) {
        const w = effWord[k] as number;
        const before = arena[base + w] as number;
        if (((before ^ ((before & ~(effClear[k] as number)) | (effSet[k] as number))) & (factMask[w] as number)) !== 0) {
          if (this.#pruning && !this.#kept(ai)) break;
          this.#writeChild(child, ai);
          return ai;
        }
      }
    }
    return NOT_YET;
  }

  /** Writes node `child` as the expanding row with action `ai`'s effects applied, and its hash. */
  #writeChild(child: number, ai: number): void {
    const arena = this.#rows;
    const base = this.#base;
    const { effStart, effWord } = this.#layout;
    const effClear = this.#effClear;
    const effSet = this.#effSet;
    const nw = this.#words;
    const childRows = this.nodes.rows(child);
    const cb = this.nodes.at(child);
    if (nw > 8) {
      if (childRows === arena) arena.copyWithin(cb, base, base + nw);
      else childRows.set(arena.subarray(base, base + nw), cb);
    } else for (let w = 0; w < nw; w++) childRows[cb + w] = arena[base + w] as number;
    const effEnd = effStart[ai + 1] as number;
    for (let k = effStart[ai] as number; k < effEnd; k++) {
      const w = cb + (effWord[k] as number);
      childRows[w] = ((childRows[w] as number) & ~(effClear[k] as number)) | (effSet[k] as number);
    }
    this.childHash = this.#hash(childRows, cb);
  }

  /** The words of the row at `base` in `arena` folded into one (the table mixes it further). */
  #hash(arena: Int32Array, base: number): number {
    let x = arena[base] as number;
    for (let w = 1; w < this.#words; w++) x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) ^ (arena[base + w] as number);
    return x;
  }
}

/** The setup's {@link OneWordActions} and scan buffers, kept in its workspace for the next search with the same relevance view. */
function oneWordOf(setup: SearchSetup, layout: BitLayout): OneWordScan {
  const relevant = setup.relevantBits;
  const kept = setup.workspace.oneWord;
  if (kept !== null && kept.layout === layout && kept.relevant === relevant) return kept;
  const actions = oneWordActions(
    layout,
    relevant?.action,
    relevant?.effClear ?? layout.effWordClear,
    relevant?.effSet ?? layout.effWordSet,
  );
  // A batch's children (the scan writes the i-th action's child at a count of at most i).
  const batch = Math.min(SCAN_BATCH, actions.action.length);
  const scan = { layout, relevant, actions, kids: new Int32Array(batch), entries: new Int32Array(batch) };
  setup.workspace.oneWord = scan;
  return scan;
}
