/**
 * The priority queue of the relaxed heuristics (hmax, hadd, hff, LM-cut):
 * (item, cost) pairs on typed arrays, kept across calls. `pop` leaves the
 * removed pair in `poppedItem` / `poppedCost`, so a pop allocates nothing.
 *
 * With integer costs (`integerCosts = true`, when every action cost of the
 * problem is an integer) it is a bucket queue, as Fast Downward's
 * `AdaptiveQueue`: one list per cost value, popped from the lowest
 * non-empty bucket; a push and a pop cost O(1) where the binary heap pays
 * O(log n) comparisons of floats. The explorations it serves are
 * Dijkstra-like (no push below the last pop), so the lowest bucket only
 * moves up. A push far above the lowest bucket (more empty buckets to step
 * over than the exploration's work: large, sparse costs) turns it into
 * the binary heap until the next {@link clear}. Within a cost, buckets pop
 * last in first; the heap pops in its own order: an exploration must not
 * depend on the order of equal costs for its values (hmax does not; LM-cut's
 * precondition choices do, and stay deterministic either way).
 * @internal
 */

/** Empty buckets a pop may step over, per pushed entry, before a bucket queue turns into a heap (see `push`). */
export const MIN_BUCKETS_BEFORE_SWITCH = 100;

export class CostQueue {
  #items: Int32Array;
  #costs: Float64Array;
  size = 0;
  poppedItem = 0;
  poppedCost = 0;
  /** Bucket mode: costs are integers. Set by the owner once per problem (it holds until the next {@link clear}). */
  integerCosts = false;
  /** Bucket mode now (integer costs, and no push has been too far ahead since the last clear). */
  #buckets = false;
  /** Per cost: the last entry pushed with it (-1: empty); entries link to the one pushed before them with that cost. */
  #head: Int32Array = new Int32Array(0);
  #next: Int32Array;
  /** Entries used since the last clear (bucket mode appends; a popped entry's slot is not reused). */
  #used = 0;
  /** The lowest bucket that may be non-empty, and the highest ever filled since the last clear. */
  #low = 0;
  #high = -1;

  constructor(capacity: number) {
    this.#items = new Int32Array(Math.max(16, capacity));
    this.#costs = new Float64Array(this.#items.length);
    this.#next = new Int32Array(this.#items.length);
  }

  /** Empties the queue; it is a bucket queue again when costs are integers. */
  clear(): void {
    if (this.#buckets || this.#high >= 0) {
      const head = this.#head;
      for (let c = this.#low; c <= this.#high; c++) head[c] = -1;
    }
    this.size = 0;
    this.#used = 0;
    this.#low = 0;
    this.#high = -1;
    this.#buckets = this.integerCosts;
  }

  push(item: number, cost: number): void {
    if (this.#buckets) {
      // Stepping over more empty buckets than entries were pushed is worse than a heap's log: switch, as FD does
      // (and on a cost that is no bucket's, which an owner that declared integer costs never pushes).
      const ahead = cost - this.#low;
      if ((cost | 0) !== cost || (ahead > MIN_BUCKETS_BEFORE_SWITCH && ahead > this.#used)) this.#toHeap();
      else {
        this.#bucketPush(item, cost);
        return;
      }
    }
    this.#heapPush(item, cost);
  }

  /** Removes the cheapest pair into `poppedItem` / `poppedCost` (the queue must not be empty). */
  pop(): void {
    if (this.#buckets) this.#bucketPop();
    else this.#heapPop();
  }

  #bucketPush(item: number, cost: number): void {
    if (this.#used === this.#items.length) this.#growEntries();
    if (cost >= this.#head.length) this.#growBuckets(cost);
    const e = this.#used++;
    this.#items[e] = item;
    this.#next[e] = this.#head[cost] as number;
    this.#head[cost] = e;
    if (cost > this.#high) this.#high = cost;
    if (cost < this.#low) this.#low = cost;
    this.size++;
  }

  #bucketPop(): void {
    const head = this.#head;
    let c = this.#low;
    while ((head[c] as number) < 0) c++;
    this.#low = c;
    const e = head[c] as number;
    head[c] = this.#next[e] as number;
    this.poppedItem = this.#items[e] as number;
    this.poppedCost = c;
    this.size--;
  }

  /** Moves the bucketed entries into heap order (the queue stays a heap until the next clear). */
  #toHeap(): void {
    const head = this.#head;
    const count = this.size;
    const items = new Int32Array(count);
    const costs = new Float64Array(count);
    let k = 0;
    for (let c = this.#low; c <= this.#high; c++) {
      for (let e = head[c] as number; e >= 0; e = this.#next[e] as number) {
        items[k] = this.#items[e] as number;
        costs[k] = c;
        k++;
      }
      head[c] = -1;
    }
    this.#buckets = false;
    this.#low = 0;
    this.#high = -1;
    this.size = 0;
    this.#used = 0;
    for (let i = 0; i < count; i++) this.#heapPush(items[i] as number, costs[i] as number);
  }

  #growEntries(): void {
    const length = this.#items.length * 2;
    const items = new Int32Array(length);
    items.set(this.#items);
    const costs = new Float64Array(length);
    costs.set(this.#costs);
    const next = new Int32Array(length);
    next.set(this.#next);
    this.#items = items;
    this.#costs = costs;
    this.#next = next;
  }

  #growBuckets(cost: number): void {
    const head = new Int32Array(Math.max(64, cost + 1, this.#head.length * 2)).fill(-1);
    head.set(this.#head);
    this.#head = head;
  }

  #heapPush(item: number, cost: number): void {
    if (this.size === this.#items.length) this.#growEntries();
    const items = this.#items;
    const costs = this.#costs;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((costs[parent] as number) <= cost) break;
      items[i] = items[parent] as number;
      costs[i] = costs[parent] as number;
      i = parent;
    }
    items[i] = item;
    costs[i] = cost;
  }

  #heapPop(): void {
    const items = this.#items;
    const costs = this.#costs;
    this.poppedItem = items[0] as number;
    this.poppedCost = costs[0] as number;
    const n = --this.size;
    if (n === 0) return;
    const last = items[n] as number;
    const lastCost = costs[n] as number;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && (costs[child + 1] as number) < (costs[child] as number)) child++;
      if ((costs[child] as number) >= lastCost) break;
      items[i] = items[child] as number;
      costs[i] = costs[child] as number;
      i = child;
    }
    items[i] = last;
    costs[i] = lastCost;
  }
}
