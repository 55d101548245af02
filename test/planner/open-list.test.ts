import { describe, expect, it } from "vitest";
import { createRng } from "../../src/core/index.js";
import { OpenList } from "../../src/planner/open-list.js";

describe("the open list", () => {
  it.each([
    ["no slice starts", 0],
    ["a slice start every 1,000 operations (large heaps allocate their successors there)", 1_000],
  ])("pops in (f, h, first in) order through many growths, pushes and pops interleaved, with %s", (_, sliceEvery) => {
    const open = new OpenList();
    const rng = createRng(7);
    // The reference: a FIFO queue per (f, h), f < 50 and h < 5, popped from the lowest key.
    const queues: number[][] = Array.from({ length: 250 }, () => []);
    let pending = 0;
    const popped: number[] = [];
    const expected: number[] = [];
    const popOne = () => {
      const queue = queues.find((q) => q.length > 0) as number[];
      expected.push(queue.shift() as number);
      pending--;
      open.pop();
      popped.push(open.node);
    };
    const rounds = sliceEvery > 0 ? 400_000 : 40_000;
    for (let round = 0; round < rounds; round++) {
      if (sliceEvery > 0 && round % sliceEvery === 0) open.prepare();
      const f = Math.floor(rng.next() * 50);
      const h = Math.floor(rng.next() * 5);
      open.push(round, f, h, f - h);
      (queues[f * 5 + h] as number[]).push(round);
      pending++;
      if (round % 3 === 2 && rng.next() < 0.5) popOne();
    }
    while (pending > 0 && popped.length < rounds * 0.75) popOne();
    expect(popped).toEqual(expected);
    expect(open.size).toBe(pending);
  });
});
