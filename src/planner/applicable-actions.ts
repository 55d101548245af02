/**
 * The shape of a successor generator's tree (built by successor-generator.ts)
 * and the applicable actions of one state, listed by walking it and handed out in ascending
 * action index, the order the scan of search-bits.ts tests them in, so a
 * search makes the same children in the same order either way. One per
 * search: it keeps the walk's stack and the bitset of found actions, and
 * allocates nothing per state.
 * @internal
 */
/** A decision tree over precondition bits, in flat arrays (no object per node). */
export interface SuccessorGenerator {
  /** Actions the tree can list: the bitset of applicable actions has `ceil(actionCount / 32)` words. */
  readonly actionCount: number;
  /** Per node: the state word its children test, or -1 for a node without children (its length is the node count). */
  readonly nodeWord: Int32Array;
  /** Per node: the child for actions whose next literal lies in a later word, or -1. */
  readonly dontCare: Int32Array;
  /** Per node: the bits of its word with a child for actions that want them 1, and for those that want them 0. */
  readonly nodeOnes: Int32Array;
  readonly nodeZeros: Int32Array;
  /**
   * CSR by node over children: first one per bit of `nodeOnes`, then one per bit of `nodeZeros`, each in bit order,
   * so a walk finds the child of a set bit by its rank among the node's bits and never looks at a branch it skips.
   */
  readonly childStart: Int32Array;
  readonly child: Int32Array;
  /**
   * CSR by node over the actions whose every literal is checked by the time a walk reaches the node: each action of
   * the tree is a leaf once, so `leaves.length` is the number of actions it lists.
   */
  readonly leafStart: Int32Array;
  readonly leaves: Int32Array;
}

export class ApplicableActions {
  readonly #g: SuccessorGenerator;
  /** Tree nodes still to visit (a tree: each node is pushed at most once per walk). */
  readonly #stack: Int32Array;
  #top = 0;
  /** The actions found and not taken yet, as a bitset over action indices. */
  readonly #found: Int32Array;
  /** The bitset's lowest and past-highest words that may hold an action not taken yet. */
  #from = 0;
  #to = 0;

  constructor(g: SuccessorGenerator) {
    this.#g = g;
    this.#stack = new Int32Array(g.nodeWord.length);
    this.#found = new Int32Array((g.actionCount + 31) >> 5);
  }

  /** Starts listing the actions that apply to a state: the one {@link walk} reads. */
  begin(): void {
    // A state left before its end (the search stopped among its children) left actions in the bitset.
    if (this.#from < this.#to) this.#found.fill(0, this.#from, this.#to);
    this.#from = this.#found.length;
    this.#to = 0;
    this.#stack[0] = 0;
    this.#top = 1;
  }

  /**
   * Visits up to `budget` more nodes of the tree for the state at `base` in
   * `rows` (the same state until the walk is done): true when the walk is
   * done (at once if it was), false when the caller should read its clock and
   * call again. Actions are listed only when every node is visited.
   */
  walk(rows: Int32Array, base: number, budget: number): boolean {
    let top = this.#top;
    if (top === 0) return true;
    const { nodeWord, nodeOnes, nodeZeros, childStart, child, dontCare, leafStart, leaves } = this.#g;
    const stack = this.#stack;
    const found = this.#found;
    let from = this.#from;
    let to = this.#to;
    for (let visited = 0; top > 0 && visited < budget; visited++) {
      const n = stack[--top] as number;
      const leafEnd = leafStart[n + 1] as number;
      for (let k = leafStart[n] as number; k < leafEnd; k++) {
        const ai = leaves[k] as number;
        const w = ai >> 5;
        found[w] = (found[w] as number) | (1 << (ai & 31));
        if (w < from) from = w;
        if (w >= to) to = w + 1;
      }
      const word = nodeWord[n] as number;
      if (word < 0) continue;
      const bits = rows[base + word] as number;
      const ones = nodeOnes[n] as number;
      const first = childStart[n] as number;
      // Only the branches the state satisfies: a set bit's child is found by the bit's rank among the node's bits.
      for (let x = bits & ones; x !== 0; x &= x - 1) stack[top++] = child[first + popcount(ones & ((x & -x) - 1))] as number;
      const zeros = nodeZeros[n] as number;
      if (zeros !== 0) {
        const past = first + popcount(ones);
        for (let x = ~bits & zeros; x !== 0; x &= x - 1) stack[top++] = child[past + popcount(zeros & ((x & -x) - 1))] as number;
      }
      const later = dontCare[n] as number;
      if (later >= 0) stack[top++] = later;
    }
    this.#from = from;
    this.#to = to;
    this.#top = top;
    return top === 0;
  }

  /** The lowest applicable action not taken yet, taken now; -1 when none is left. Only after {@link walk} is done. */
  take(): number {
    const found = this.#found;
    const to = this.#to;
    for (let w = this.#from; w < to; w++) {
      const bits = found[w] as number;
      if (bits === 0) continue;
      const lowest = bits & -bits;
      found[w] = bits ^ lowest;
      this.#from = w;
      return (w << 5) | (31 - Math.clz32(lowest));
    }
    this.#from = to;
    return -1;
  }
}

/** Set bits of `x` (as a 32-bit integer). */
function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}
