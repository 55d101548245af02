/**
 * A binary min-heap of (item, cost) pairs on typed arrays, kept across
 * calls: the priority queue of the relaxed heuristics (hmax, hadd, hff,
 * LM-cut). `pop` leaves the removed pair in `poppedItem` / `poppedCost`,
 * so a pop allocates nothing.
 * @internal
 */
export class CostHeap {
  #items: Int32Array;
  #costs: Float64Array;
  size = 0;
  poppedItem = 0;
  poppedCost = 0;

  constructor(capacity: number) {
    this.#items = new Int32Array(Math.max(16, capacity));
    this.#costs = new Float64Array(this.#items.length);
  }

  push(item: number, cost: number): void {
    if (this.size === this.#items.length) {
      const items = new Int32Array(this.#items.length * 2);
      items.set(this.#items);
      const costs = new Float64Array(items.length);
      costs.set(this.#costs);
      this.#items = items;
      this.#costs = costs;
    }
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

  /** Removes the cheapest pair into `poppedItem` / `poppedCost` (the heap must not be empty). */
  pop(): void {
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
