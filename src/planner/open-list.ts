/**
 * The A* open list: a binary min-heap of node ids in parallel typed arrays,
 * ordered by f, then h (deeper first), then insertion order (FIFO), so ties
 * resolve by the action order the caller generated successors in.
 * `pop()` leaves the popped entry in `node`, `g` and `f`.
 *
 * Growing never copies the whole heap at once (copying millions of entries
 * paused the event loop for tens of ms): a full heap becomes a "draining"
 * heap, a heap twice as large takes over, and every push or pop moves
 * {@link DRAIN_PER_OP} entries from the draining heap's tail (removing the
 * last entry keeps it a heap) into the new one. Until it is empty, `pop`
 * takes the smaller of the two tops. The order (f, h, insertion number) is
 * total, so the entries come out exactly as from one heap. Nor is the new
 * heap allocated at once: from three quarters full, each push allocates one
 * of its five arrays.
 */

/** Entries moved from the draining heap per push or pop: it empties long before the new heap fills. */
const DRAIN_PER_OP = 4;

/** One heap's parallel arrays. */
class Heap {
  nodes: Int32Array;
  fs: Float64Array;
  hs: Float64Array;
  gs: Float64Array;
  seqs: Float64Array;
  size = 0;

  constructor(capacity: number, parts: readonly (Int32Array | Float64Array)[] = []) {
    this.nodes = (parts[0] as Int32Array | undefined) ?? new Int32Array(capacity);
    this.fs = (parts[1] as Float64Array | undefined) ?? new Float64Array(capacity);
    this.hs = (parts[2] as Float64Array | undefined) ?? new Float64Array(capacity);
    this.gs = (parts[3] as Float64Array | undefined) ?? new Float64Array(capacity);
    this.seqs = (parts[4] as Float64Array | undefined) ?? new Float64Array(capacity);
  }

  push(node: number, f: number, h: number, g: number, s: number): void {
    const { nodes, fs, hs, gs, seqs } = this;
    let i = this.size++;
    while (i > 0) {
      const up = (i - 1) >> 1;
      const uf = fs[up] as number;
      if (uf < f || (uf === f && ((hs[up] as number) < h || ((hs[up] as number) === h && (seqs[up] as number) < s)))) break;
      nodes[i] = nodes[up] as number;
      fs[i] = uf;
      hs[i] = hs[up] as number;
      gs[i] = gs[up] as number;
      seqs[i] = seqs[up] as number;
      i = up;
    }
    nodes[i] = node;
    fs[i] = f;
    hs[i] = h;
    gs[i] = g;
    seqs[i] = s;
  }

  /** Removes the top (the caller has read it). */
  removeTop(): void {
    const { nodes, fs, hs, gs, seqs } = this;
    const n = --this.size;
    if (n === 0) return;
    const lNode = nodes[n] as number;
    const lf = fs[n] as number;
    const lh = hs[n] as number;
    const lg = gs[n] as number;
    const ls = seqs[n] as number;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      const r = c + 1;
      if (r < n) {
        const cf = fs[c] as number;
        const rf = fs[r] as number;
        if (
          rf < cf ||
          (rf === cf &&
            ((hs[r] as number) < (hs[c] as number) ||
              ((hs[r] as number) === (hs[c] as number) && (seqs[r] as number) < (seqs[c] as number))))
        )
          c = r;
      }
      const cf = fs[c] as number;
      if (lf < cf || (lf === cf && (lh < (hs[c] as number) || (lh === (hs[c] as number) && ls < (seqs[c] as number))))) break;
      nodes[i] = nodes[c] as number;
      fs[i] = cf;
      hs[i] = hs[c] as number;
      gs[i] = gs[c] as number;
      seqs[i] = seqs[c] as number;
      i = c;
    }
    nodes[i] = lNode;
    fs[i] = lf;
    hs[i] = lh;
    gs[i] = lg;
    seqs[i] = ls;
  }
}

/** True when heap `a`'s top comes before heap `b`'s (both non-empty). */
function topBefore(a: Heap, b: Heap): boolean {
  const af = a.fs[0] as number;
  const bf = b.fs[0] as number;
  if (af !== bf) return af < bf;
  const ah = a.hs[0] as number;
  const bh = b.hs[0] as number;
  if (ah !== bh) return ah < bh;
  return (a.seqs[0] as number) < (b.seqs[0] as number);
}

/** Arrays of a heap (see {@link Heap}). */
const HEAP_PARTS = 5;

function heapPart(i: number, capacity: number): Int32Array | Float64Array {
  return i === 0 ? new Int32Array(capacity) : new Float64Array(capacity);
}

/** Size at which a heap of `capacity` starts allocating its successor's arrays, one per push. */
const prepareAt = (capacity: number): number => capacity - (capacity >> 2);
/** Heaps of at least this many entries (arrays of 1-2 MB) have their successor's arrays allocated by {@link OpenList.prepare}. */
const PREPARE_MIN = 1 << 17;

export class OpenList {
  #heap = new Heap(64);
  /** The heap being emptied into `#heap` after a growth; `null` when none. */
  #draining: Heap | null = null;
  /** Arrays of the next, twice as large heap, allocated one per push from three quarters full (not all at once when full). */
  #spare: (Int32Array | Float64Array)[] = [];
  /** Heap size at which a push takes the next step of a growth. */
  #growAt = prepareAt(64);
  #seq = 0;
  size = 0;
  node = 0;
  g = 0;
  f = 0;

  /** Entries the arrays hold before they grow. */
  get capacity(): number {
    return this.#heap.nodes.length;
  }

  /** Empties the list, keeping its arrays. */
  clear(): void {
    this.#heap.size = 0;
    this.#draining = null;
    this.#spare = [];
    this.#growAt = prepareAt(this.#heap.nodes.length);
    this.size = 0;
    this.#seq = 0;
  }

  /**
   * Called at a slice's start: a large heap past five eighths full allocates
   * its successor's arrays now rather than one per push from three quarters
   * full, so that the collection a large allocation may set off falls at the
   * start of a slice (see `PREPARE_AT` in search-store.ts). Only when memory
   * is allocated changes.
   */
  prepare(): void {
    const capacity = this.#heap.nodes.length;
    const spare = this.#spare;
    if (capacity < PREPARE_MIN || spare.length === HEAP_PARTS || this.#heap.size < capacity - ((capacity * 3) >> 3)) return;
    while (spare.length < HEAP_PARTS) spare.push(heapPart(spare.length, capacity * 2));
    this.#growAt = capacity;
  }

  push(node: number, f: number, h: number, g: number): void {
    if (this.#draining !== null) this.#drain();
    if (this.#heap.size >= this.#growAt) this.#growStep();
    this.#heap.push(node, f, h, g, this.#seq++);
    this.size++;
  }

  pop(): void {
    const draining = this.#draining;
    let from = this.#heap;
    if (draining !== null) {
      if (from.size === 0 || (draining.size > 0 && topBefore(draining, from))) from = draining;
    }
    this.node = from.nodes[0] as number;
    this.g = from.gs[0] as number;
    this.f = from.fs[0] as number;
    from.removeTop();
    this.size--;
    if (draining !== null) this.#drain();
  }

  /** Moves a few entries of the draining heap's tail into the current heap. */
  #drain(): void {
    const d = this.#draining as Heap;
    const heap = this.#heap;
    for (let k = 0; k < DRAIN_PER_OP && d.size > 0; k++) {
      const i = --d.size;
      heap.push(d.nodes[i] as number, d.fs[i] as number, d.hs[i] as number, d.gs[i] as number, d.seqs[i] as number);
    }
    if (d.size === 0) this.#draining = null;
  }

  /**
   * Below capacity: allocates one more array of the next heap. Full: the heap
   * starts draining into one twice its size (a full heap drained before is at
   * most half full now), built from the arrays allocated so far.
   */
  #growStep(): void {
    const capacity = this.#heap.nodes.length;
    const spare = this.#spare;
    if (this.#heap.size < capacity) {
      if (spare.length < HEAP_PARTS) spare.push(heapPart(spare.length, capacity * 2));
      this.#growAt = spare.length < HEAP_PARTS ? this.#heap.size + 1 : capacity;
      return;
    }
    while (this.#draining !== null) this.#drain();
    while (spare.length < HEAP_PARTS) spare.push(heapPart(spare.length, capacity * 2));
    this.#draining = this.#heap;
    this.#heap = new Heap(capacity * 2, spare);
    this.#spare = [];
    this.#growAt = prepareAt(capacity * 2);
    this.#drain();
  }
}
