import { describe, expect, it } from "vitest";
import { NodeStore } from "../../src/planner/search-store.js";

const WIDTH = 3;

/** Stores `total` nodes as a search does (`due` when the count reaches `growAt`), changing an older node's g now and then. */
function fill(store: NodeStore<Float64Array>, total: number): { steps: number[] } {
  // Calls of `due` per growth: one growth ends when the version changes.
  const steps: number[] = [];
  let calls = 0;
  let version = store.version;
  for (let count = 0; count < total; count++) {
    if (count >= store.growAt) {
      store.due(count);
      calls++;
      if (store.version !== version) {
        steps.push(calls);
        calls = 0;
        version = store.version;
      }
    }
    for (let i = 0; i < WIDTH; i++) store.arena[count * WIDTH + i] = count * 10 + i;
    store.parent[count] = count - 1;
    store.via[count] = count % 7;
    store.gOf[count] = count;
    store.hOf[count] = -count;
    store.hashOf[count] = count ^ 0x5555;
    // A cheaper path to an older node, as a search records one: written through to the arrays being filled.
    if (count % 5 === 0 && count > 0) {
      const older = count >> 1;
      store.gOf[older] = -older;
      if (older < store.copied) store.mirror(older);
    }
  }
  return { steps };
}

describe("the node store", () => {
  it("grows in many small steps and keeps every node's row and fields", () => {
    const store = new NodeStore(WIDTH, (n) => new Float64Array(n), 64);
    store.begin(Number.POSITIVE_INFINITY);
    const total = 200_000;
    const { steps } = fill(store, total);
    expect(store.cap).toBeGreaterThanOrEqual(total);
    // Once the arrays outgrow a copy step, a growth is spread over several calls: the six arrays are allocated one
    // per call and then copied a chunk per call (the old store allocated all six in one call).
    const large = steps.slice(-3);
    for (const calls of large) expect(calls).toBeGreaterThan(6);
    const g = Float64Array.from({ length: total }, (_, n) => n);
    for (let count = 5; count < total; count += 5) g[count >> 1] = -(count >> 1);
    let wrong = 0;
    for (let n = 0; n < total; n++) {
      for (let i = 0; i < WIDTH; i++) if (store.arena[n * WIDTH + i] !== n * 10 + i) wrong++;
      if (store.parent[n] !== n - 1 || store.via[n] !== n % 7 || store.hOf[n] !== -n) wrong++;
      if (store.hashOf[n] !== (n ^ 0x5555) || store.gOf[n] !== g[n]) wrong++;
    }
    expect(wrong).toBe(0);
  });

  it("keeps wide rows (a copy step of a few rows) through growths that start in small arrays", () => {
    // 4,096 numbers a row: a copy step holds 8 rows, so even the first arrays (64 nodes) grow in steps.
    const width = 4_096;
    const store = new NodeStore(width, (n) => new Float64Array(n), 64);
    store.begin(Number.POSITIVE_INFINITY);
    const total = 600;
    for (let count = 0; count < total; count++) {
      if (count >= store.growAt) store.due(count);
      store.arena[count * width] = count;
      store.arena[count * width + width - 1] = -count;
      store.gOf[count] = count;
    }
    let wrong = 0;
    for (let n = 0; n < total; n++) {
      if (store.arena[n * width] !== n || store.arena[n * width + width - 1] !== -n || store.gOf[n] !== n) wrong++;
    }
    expect(wrong).toBe(0);
  });

  it("stops growing at its limit", () => {
    const store = new NodeStore(WIDTH, (n) => new Float64Array(n), 64);
    store.begin(1_000);
    fill(store, 1_000);
    expect(store.cap).toBe(1_000);
    expect(store.growAt).toBe(Number.POSITIVE_INFINITY);
  });
});
