/**
 * The open list of blind search on integer action costs: one first-in
 * first-out queue per cost value, as Fast Downward's bucket-based open list
 * for uniform-cost search. Every estimate is 0 there, so the binary heap's
 * order (f, then h, then first in) is f then first in, which is exactly
 * the lowest bucket's oldest entry: the searches make the same expansions
 * in the same order, without the heap's O(log n) comparisons per push and
 * pop.
 *
 * Live entries' costs lie between the last popped cost and that plus the
 * largest action cost (a child costs its parent's g plus one action), so
 * the buckets are a ring of {@link BucketOpenList.ring} queues, a power of
 * two above the largest action cost. The queues are linked lists through
 * one pool of entries in chunks of {@link CHUNK} (a growth allocates one
 * chunk, never copies), and popped entries are reused.
 * @internal
 */

const SHIFT = 14;
/** Entries per chunk of the pool. */
const CHUNK = 1 << SHIFT;
const MASK = CHUNK - 1;
/** Largest action cost a ring of buckets is made for; dearer actions leave blind search to the heap. */
export const MAX_BUCKET_COST = 1 << 12;

export class BucketOpenList {
  /** Buckets in the ring, a power of two. */
  readonly ring: number;
  size = 0;
  node = 0;
  g = 0;
  f = 0;
  readonly #ringMask: number;
  /** Per bucket: its oldest and newest entry (-1: empty). */
  readonly #head: Int32Array;
  readonly #tail: Int32Array;
  /** The pool: per entry its node and the next entry of its bucket (or of the free list). */
  readonly #nodes: Int32Array[] = [];
  readonly #links: Int32Array[] = [];
  /** Entries of the pool ever handed out, and the head of the list of popped ones (-1: none). */
  #used = 0;
  #free = -1;
  /** The bucket of cost {@link #lowCost}, where the next pop starts looking. */
  #low = 0;
  #lowCost = 0;

  /** A ring for action costs up to `maxCost` (an integer of at most {@link MAX_BUCKET_COST}). */
  constructor(maxCost: number) {
    let ring = 2;
    while (ring <= maxCost) ring *= 2;
    this.ring = ring;
    this.#ringMask = ring - 1;
    this.#head = new Int32Array(ring).fill(-1);
    this.#tail = new Int32Array(ring).fill(-1);
  }

  /** Entries the pool holds before it takes another chunk. */
  get capacity(): number {
    return this.#nodes.length * CHUNK;
  }

  /** Empties the list, keeping its pool. */
  clear(): void {
    this.#head.fill(-1);
    this.#tail.fill(-1);
    this.#used = 0;
    this.#free = -1;
    this.#low = 0;
    this.#lowCost = 0;
    this.size = 0;
  }

  /** The pool grows a chunk at a time, when full: nothing to prepare at a slice's start. */
  prepare(): void {}

  /**
   * Queues `node` at cost `g` (an integer, at least the last popped cost and at most that plus the ring's largest
   * action cost). `f` and `h` are the heap's keys: `f` equals `g` and `h` is 0 in blind search.
   */
  push(node: number, _f: number, _h: number, g: number): void {
    let e = this.#free;
    if (e >= 0) this.#free = this.#links[e >>> SHIFT]![e & MASK] as number;
    else {
      e = this.#used++;
      if (e >>> SHIFT === this.#nodes.length) {
        this.#nodes.push(new Int32Array(CHUNK));
        this.#links.push(new Int32Array(CHUNK));
      }
    }
    this.#nodes[e >>> SHIFT]![e & MASK] = node;
    this.#links[e >>> SHIFT]![e & MASK] = -1;
    const b = (this.#low + (g - this.#lowCost)) & this.#ringMask;
    const tail = this.#tail[b] as number;
    if (tail < 0) this.#head[b] = e;
    else this.#links[tail >>> SHIFT]![tail & MASK] = e;
    this.#tail[b] = e;
    this.size++;
  }

  /** Removes the oldest entry of the cheapest bucket into `node`, `g` and `f` (the list must not be empty). */
  pop(): void {
    const head = this.#head;
    let b = this.#low;
    let cost = this.#lowCost;
    while ((head[b] as number) < 0) {
      b = (b + 1) & this.#ringMask;
      cost++;
    }
    this.#low = b;
    this.#lowCost = cost;
    const e = head[b] as number;
    const links = this.#links[e >>> SHIFT] as Int32Array;
    const next = links[e & MASK] as number;
    head[b] = next;
    if (next < 0) this.#tail[b] = -1;
    links[e & MASK] = this.#free;
    this.#free = e;
    this.node = this.#nodes[e >>> SHIFT]![e & MASK] as number;
    this.g = cost;
    this.f = cost;
    this.size--;
  }
}

/**
 * The largest action cost of `costs` when blind search may queue by cost in a {@link BucketOpenList}: every cost a
 * known integer from 0 to {@link MAX_BUCKET_COST}; -1 otherwise.
 */
export function bucketCostBound(costs: readonly { readonly staticCost: number }[]): number {
  let max = 0;
  for (const { staticCost } of costs) {
    if (!(staticCost >= 0 && staticCost <= MAX_BUCKET_COST && Number.isInteger(staticCost))) return -1;
    if (staticCost > max) max = staticCost;
  }
  return max;
}
