import { describe, expect, it } from "vitest";
import { LandmarkStore } from "../../src/planner/landmark-store.js";

const read = (store: LandmarkStore, node: number) => {
  const first = store.firstOf(node);
  if (first < 0) return null;
  return Array.from({ length: store.countOf(node) }, (_, i) => ({
    cost: store.cost[first + i],
    actions: Array.from(store.acts.subarray(store.actStart[first + i], store.actEnd[first + i])),
  }));
};

describe("LandmarkStore", () => {
  it("keeps each node's landmarks through growth, gives a child its parent's landmark, and forgets them at reset", () => {
    const store = new LandmarkStore();
    // 600 nodes of 3 landmarks each: past the initial 1,024 landmarks and 2,048 action slots.
    for (let node = 0; node < 600; node++) {
      store.begin();
      for (let k = 0; k < 3; k++) store.add(node + k / 10, Int32Array.of(node, k, 7), 0, 2 + (k % 2));
      store.commit(node);
    }
    expect(read(store, 0)).toEqual([
      { cost: 0, actions: [0, 0] },
      { cost: 0.1, actions: [0, 1, 7] },
      { cost: 0.2, actions: [0, 2] },
    ]);
    expect(read(store, 599)?.[1]).toEqual({ cost: 599.1, actions: [599, 1, 7] });
    // A child's record may copy its parent's landmark from the store itself.
    const parentFirst = store.firstOf(10);
    store.begin();
    store.add(
      store.cost[parentFirst + 1] as number,
      store.acts,
      store.actStart[parentFirst + 1] as number,
      store.actEnd[parentFirst + 1] as number,
    );
    store.commit(1000);
    expect(read(store, 1000)).toEqual([{ cost: 10.1, actions: [10, 1, 7] }]);
    expect(read(store, 1001)).toBeNull();
    // A record begun and not committed (a dead end) is dropped by the next one, which reuses its space.
    store.begin();
    store.add(99, Int32Array.of(9, 9), 0, 2);
    store.begin();
    store.add(5, Int32Array.of(5), 0, 1);
    store.commit(1001);
    expect(read(store, 1001)).toEqual([{ cost: 5, actions: [5] }]);
    expect(store.firstOf(1001)).toBe(store.firstOf(1000) + 1);
    store.reset();
    expect(read(store, 0)).toBeNull();
    expect(read(store, 1000)).toBeNull();
  });

  it("says when its records reach the cap", () => {
    const store = new LandmarkStore(100);
    store.begin();
    store.add(1, Int32Array.of(1, 2, 3), 0, 3); // 16 + 12 bytes
    store.add(1, Int32Array.of(1, 2, 3), 0, 3);
    store.add(1, Int32Array.of(1, 2, 3), 0, 3);
    expect(store.hasRoom).toBe(true);
    store.add(1, Int32Array.of(1), 0, 1); // 84 + 20 = 104 bytes
    expect(store.hasRoom).toBe(false);
    store.reset();
    expect(store.hasRoom).toBe(true);
  });

  // Most of a child's landmarks are its parent's: a record that copied their actions made the 32 MB cap of the time
  // hold 19,000 of freecell p03's 258,000 evaluations (1.7 KB each); referred to, they cost 16 bytes each.
  it("counts an inherited landmark at 16 bytes: it refers to its parent's actions, with no copy", () => {
    const store = new LandmarkStore(50);
    store.begin();
    store.add(2, Int32Array.of(4, 5, 6), 0, 3); // 16 + 12 = 28 bytes
    store.commit(0);
    const parent = store.firstOf(0);
    store.begin();
    store.add(2, store.acts, store.actStart[parent] as number, store.actEnd[parent] as number); // 44 bytes; a copy: 56
    store.commit(1);
    expect(store.hasRoom).toBe(true);
    expect(read(store, 1)).toEqual([{ cost: 2, actions: [4, 5, 6] }]);
    // New records after it still read their own actions, and the inherited one still reads its parent's.
    store.begin();
    store.add(1, Int32Array.of(9), 0, 1);
    store.commit(2);
    expect(read(store, 2)).toEqual([{ cost: 1, actions: [9] }]);
    expect(read(store, 1)).toEqual([{ cost: 2, actions: [4, 5, 6] }]);
    expect(store.hasRoom).toBe(false);
  });

  it("keeps each node's zero-cost plan through growth, lets children refer to one, counts it against its own cap and forgets it at reset", () => {
    const store = new LandmarkStore();
    const supportOf = (s: number) => Array.from(store.supportItems.subarray(store.supportStart(s), store.supportStart(s + 1)));
    // 300 plans of 6 entries: past the initial 256 plans and 1,024 entries.
    for (let node = 0; node < 300; node++) {
      store.begin();
      const plan = store.addSupport(Int32Array.of(node, 1, node, 2, node, 3, 99), 6);
      store.commit(node, plan);
    }
    expect(supportOf(store.supportOf(0))).toEqual([0, 1, 0, 2, 0, 3]);
    expect(supportOf(store.supportOf(299))).toEqual([299, 1, 299, 2, 299, 3]);
    // A child whose parent's plan still holds refers to it; a node without one says -1.
    store.begin();
    store.commit(300, store.supportOf(7));
    store.begin();
    store.commit(301);
    expect(supportOf(store.supportOf(300))).toEqual([7, 1, 7, 2, 7, 3]);
    expect(store.supportOf(301)).toBe(-1);
    store.reset();
    expect(store.firstOf(0)).toBe(-1);
    store.begin();
    expect(store.addSupport(Int32Array.of(5, 6), 2)).toBe(0);
    // Plans have their own cap (4 bytes an entry), apart from the landmarks': 16 bytes for each here.
    const small = new LandmarkStore(24, 16);
    small.begin();
    small.add(1, Int32Array.of(1), 0, 1); // 20 bytes
    small.addSupport(Int32Array.of(5, 6), 2); // 8 bytes
    expect(small.hasRoom).toBe(true);
    expect(small.hasRoomForSupports).toBe(true);
    small.addSupport(Int32Array.of(5, 6), 2); // 16 bytes
    expect(small.hasRoomForSupports).toBe(false);
    expect(small.hasRoom).toBe(true);
    small.add(1, Int32Array.of(1), 0, 1); // 40 bytes
    expect(small.hasRoom).toBe(false);
    small.reset();
    expect(small.hasRoomForSupports).toBe(true);
  });
});
