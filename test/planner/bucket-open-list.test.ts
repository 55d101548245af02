import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/index.js";
import { BucketOpenList, bucketCostBound } from "../../src/planner/bucket-open-list.js";
import { OpenList } from "../../src/planner/open-list.js";

describe("the bucket open list of blind search", () => {
  it.each([
    ["unit costs", 1],
    ["costs up to 3 (chain family)", 3],
    ["costs up to 100, with zero-cost steps", 100],
  ])("pops exactly as the binary heap does with every estimate 0, through pool growths, with %s", (_, maxCost) => {
    const buckets = new BucketOpenList(maxCost);
    const heap = new OpenList();
    const rng = createRng(11);
    const fromBuckets: number[] = [];
    const fromHeap: number[] = [];
    // As in uniform-cost search: each pop pushes children at its cost plus 0..maxCost.
    buckets.push(0, 0, 0, 0);
    heap.push(0, 0, 0, 0);
    let next = 1;
    while (heap.size > 0 && next < 200_000) {
      heap.pop();
      buckets.pop();
      fromHeap.push(heap.node, heap.g);
      fromBuckets.push(buckets.node, buckets.g);
      const children = Math.floor(rng.next() * 4);
      for (let c = 0; c < children; c++) {
        const g = heap.g + Math.floor(rng.next() * (maxCost + 1));
        heap.push(next, g, 0, g);
        buckets.push(next, g, 0, g);
        next++;
      }
      expect(buckets.size).toBe(heap.size);
    }
    while (heap.size > 0) {
      heap.pop();
      buckets.pop();
      fromHeap.push(heap.node, heap.g);
      fromBuckets.push(buckets.node, buckets.g);
    }
    expect(next).toBeGreaterThan(50_000);
    expect(fromBuckets).toEqual(fromHeap);
  });

  it("starts over empty after clear, popping in first-in order within a cost", () => {
    const open = new BucketOpenList(2);
    open.push(5, 2, 0, 2);
    open.pop();
    open.clear();
    for (const [node, g] of [
      [1, 2],
      [2, 0],
      [3, 2],
      [4, 1],
    ] as const)
      open.push(node, g, 0, g);
    const order: number[] = [];
    while (open.size > 0) {
      open.pop();
      order.push(open.node);
    }
    expect(order).toEqual([2, 4, 1, 3]);
  });

  it("is chosen only for small non-negative integer action costs", () => {
    expect(bucketCostBound([{ staticCost: 1 }, { staticCost: 3 }, { staticCost: 0 }])).toBe(3);
    expect(bucketCostBound([{ staticCost: 1.5 }])).toBe(-1);
    // A cost function of the state.
    expect(bucketCostBound([{ staticCost: 1 }, { staticCost: -1 }])).toBe(-1);
    expect(bucketCostBound([{ staticCost: 1e9 }])).toBe(-1);
  });
});
