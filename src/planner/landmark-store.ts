/**
 * @internal The landmarks each evaluated search node's LM-cut found (the
 * cost it charged and the actions of each cut), kept so that its children
 * start from them: a landmark of the parent that does not contain the
 * action taken is still a landmark of the child (incremental LM-cut,
 * Pommerening & Helmert 2013), and the child's record refers to the
 * parent's actions rather than copying them. A node whose goal ended at
 * cost 0 may also keep the zero-cost relaxed plan that proved it (its
 * "support"), which its children test before running a pass of their own;
 * a child whose test succeeds refers to the same plan. Records of one
 * search live in typed arrays that grow by doubling; `reset` forgets them
 * for the next search.
 */
export class LandmarkStore {
  /**
   * Bytes of records a search keeps at most by default: past them, nodes are evaluated in full and not remembered.
   * A record costs 16 bytes per landmark and 4 per action of the cuts found at that node (inherited landmarks refer
   * to their parent's actions): freecell p03's whole search (258,000 evaluations) keeps 75 MB.
   */
  static readonly MAX_BYTES = 128 * 1024 * 1024;
  readonly #maxBytes: number;
  /**
   * Bytes of zero-cost plans a search keeps at most by default, apart from the landmarks' cap: past them, children
   * do their first pass again. A plan costs 8 bytes per atom it reaches: openstacks-opt08 p13's whole search
   * (2,443,911 expansions) keeps 90 MB of them, and 3 MB of landmarks.
   */
  static readonly MAX_SUPPORT_BYTES = 64 * 1024 * 1024;
  readonly #maxSupportBytes: number;

  constructor(maxBytes = LandmarkStore.MAX_BYTES, maxSupportBytes = LandmarkStore.MAX_SUPPORT_BYTES) {
    this.#maxBytes = maxBytes;
    this.#maxSupportBytes = maxSupportBytes;
  }

  /** Per landmark: the cost charged, and its actions `acts[actStart[i]] .. acts[actEnd[i] - 1]`. */
  cost = new Float64Array(1024);
  actStart = new Int32Array(1024);
  actEnd = new Int32Array(1024);
  acts = new Int32Array(2048);
  /** Per node: its landmarks are `first[node] .. first[node] + count[node] - 1`, valid when `epochOf[node] === epoch`. */
  #first = new Int32Array(1024);
  #count = new Int32Array(1024);
  #epochOf = new Int32Array(1024);
  /** Per node: the zero-cost support its evaluation ended with (see `addSupport`), or -1. */
  #supportOf = new Int32Array(1024);
  /** Per support: its entries are `supportItems[supportStart[s]] .. [supportStart[s + 1] - 1]`. */
  #supportStart = new Int32Array(256);
  supportItems = new Int32Array(1024);
  #supports = 0;
  #epoch = 1;
  /** Landmarks and action slots in use: committed records, then the one being written. */
  #landmarks = 0;
  #actions = 0;
  /** The end of the committed records: `begin` drops what lies past it (an evaluation that was not committed). */
  #committedLandmarks = 0;
  #committedActions = 0;

  /** Forgets every record (a new search numbers its nodes from 0 again). */
  reset(): void {
    this.#epoch++;
    this.#landmarks = 0;
    this.#actions = 0;
    this.#committedLandmarks = 0;
    this.#committedActions = 0;
    this.#supports = 0;
  }

  /** The first landmark of `node`'s record, or -1 when it has none. */
  firstOf(node: number): number {
    return node >= 0 && node < this.#epochOf.length && this.#epochOf[node] === this.#epoch ? (this.#first[node] as number) : -1;
  }

  countOf(node: number): number {
    return this.#count[node] as number;
  }

  /** Starts writing a record (an earlier uncommitted one is dropped, its space reused). */
  begin(): void {
    this.#landmarks = this.#committedLandmarks;
    this.#actions = this.#committedActions;
  }

  /**
   * Adds a landmark of cost `m` whose actions are `source[from] .. source[to - 1]` to the record being written.
   * A landmark read from the store itself (`source` is `acts`: a parent's, inherited by its child) is referred
   * to, not copied: committed action slots never change, and most of a child's landmarks are its parent's.
   */
  add(m: number, source: Int32Array, from: number, to: number): void {
    const inherited = source === this.acts;
    const size = to - from;
    this.#reserve(1, inherited ? 0 : size);
    const i = this.#landmarks++;
    this.cost[i] = m;
    if (inherited) {
      this.actStart[i] = from;
      this.actEnd[i] = to;
      return;
    }
    this.actStart[i] = this.#actions;
    this.acts.set(source.subarray(from, to), this.#actions);
    this.#actions += size;
    this.actEnd[i] = this.#actions;
  }

  /** The zero-cost support `node`'s evaluation ended with, or -1 (call after `firstOf` said the node has a record). */
  supportOf(node: number): number {
    return this.#supportOf[node] as number;
  }

  /**
   * Keeps a zero-cost support (`items[0 .. count - 1]`: the (atom, action) pairs of a relaxed plan that reaches the
   * goal at cost 0, as `JustificationGraph.findZeroCostSupport` writes them) and returns its number for `commit`.
   * Children that still reach the goal through it refer to it: it is stored once.
   */
  addSupport(items: Int32Array, count: number): number {
    const s = this.#supports;
    if (s + 1 >= this.#supportStart.length) this.#supportStart = grown(this.#supportStart, this.#supportStart.length * 2);
    const from = this.#supportStart[s] as number;
    const end = from + count;
    if (end > this.supportItems.length) this.supportItems = grown(this.supportItems, Math.max(end, this.supportItems.length * 2));
    const to = this.supportItems;
    for (let k = 0; k < count; k++) to[from + k] = items[k] as number;
    this.#supportStart[s + 1] = end;
    this.#supports = s + 1;
    return s;
  }

  /** Where support `s`'s entries start in `supportItems`; they end where `s + 1`'s start. */
  supportStart(s: number): number {
    return this.#supportStart[s] as number;
  }

  /** Gives the record being written to `node`, with the zero-cost support its evaluation ended with (-1 for none). */
  commit(node: number, support = -1): void {
    if (node >= this.#epochOf.length) {
      const length = Math.max(node + 1, this.#epochOf.length * 2);
      this.#first = grown(this.#first, length);
      this.#count = grown(this.#count, length);
      this.#epochOf = grown(this.#epochOf, length);
      this.#supportOf = grown(this.#supportOf, length);
    }
    this.#supportOf[node] = support;
    this.#first[node] = this.#committedLandmarks;
    this.#count[node] = this.#landmarks - this.#committedLandmarks;
    this.#epochOf[node] = this.#epoch;
    this.#committedLandmarks = this.#landmarks;
    this.#committedActions = this.#actions;
  }

  /** True while the landmark records of this search hold less than the store's cap (16 bytes per landmark, 4 per action slot). */
  get hasRoom(): boolean {
    return this.#landmarks * 16 + this.#actions * 4 < this.#maxBytes;
  }

  /** True while the zero-cost plans of this search hold less than their own cap (4 bytes per entry). */
  get hasRoomForSupports(): boolean {
    return (this.#supportStart[this.#supports] as number) * 4 < this.#maxSupportBytes;
  }

  #reserve(landmarks: number, actions: number): void {
    if (this.#landmarks + landmarks > this.cost.length) {
      const length = Math.max(this.cost.length * 2, this.#landmarks + landmarks);
      const cost = new Float64Array(length);
      cost.set(this.cost);
      this.cost = cost;
      this.actStart = grown(this.actStart, length);
      this.actEnd = grown(this.actEnd, length);
    }
    if (this.#actions + actions > this.acts.length) this.acts = grown(this.acts, Math.max(this.acts.length * 2, this.#actions + actions));
  }
}

function grown(old: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const a = new Int32Array(length);
  a.set(old);
  return a;
}
