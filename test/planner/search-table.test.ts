import { describe, expect, it } from "vitest";
import { StateTable } from "../../src/planner/search-table.js";

/**
 * Looks up and stores `total` rows through a table's growths (node n's row is n when n is even, else n >> 1, which
 * an even node stored before when it is even), and reports the node each lookup found. `sliceEvery` > 0 calls `prepare` every so
 * many nodes, as the search loop does at each slice's start.
 */
function run(total: number, sliceEvery: number, hashIsRow = false): number[] {
  const key = new Int32Array(total);
  const hashOf = new Int32Array(total);
  // A hash that collides often (the row still decides), as wide rows' hashes may; or the row itself.
  const hashOfKey = hashIsRow ? (k: number) => k : (k: number) => (k * 2654435761) & 0xffff;
  const table = new StateTable(new Int32Array(128), hashOf, { sameRow: (a, b) => key[a] === key[b], hashIsRow });
  const found: number[] = [];
  hashOf[0] = hashOfKey(0);
  table.addRoot();
  let count = 1;
  for (let n = 1; n < total; n++) {
    if (sliceEvery > 0 && n % sliceEvery === 0) table.prepare(count);
    // The child is written at id `count` (scratch until stored), as the search does.
    const k = n % 2 === 0 ? n : n >> 1;
    key[count] = k;
    const hsh = hashOfKey(k);
    const other = table.find(count, hsh);
    found.push(other);
    if (other >= 0) continue;
    hashOf[count] = hsh;
    count++;
    table.add(count - 1, count);
  }
  return found;
}

describe("the state table", () => {
  it("finds the same nodes whether or not slices allocate its next table ahead", () => {
    // 800,000 lookups, 600,000 stored nodes: the table grows twice past the 4 MB from which `prepare` allocates ahead.
    const plain = run(800_000, 0);
    const prepared = run(800_000, 500);
    expect(prepared).toEqual(plain);
    // An odd node whose row (n >> 1) is even repeats the row an even node stored: a quarter of the lookups.
    expect(plain.filter((x) => x >= 0).length).toBe(200_000);
  });

  it("finds the same nodes where the hash is the row (it grows at a quarter full then), with and without slices", () => {
    const plain = run(800_000, 0);
    expect(run(800_000, 0, true)).toEqual(plain);
    expect(run(800_000, 500, true)).toEqual(plain);
  });

  it("compares hashes only when the representation says the hash is the row", () => {
    const hashOf = new Int32Array(16);
    let compared = 0;
    const sameRow = () => {
      compared++;
      return true;
    };
    for (const hashIsRow of [false, true]) {
      compared = 0;
      const table = new StateTable(new Int32Array(128), hashOf, { sameRow, hashIsRow });
      hashOf[0] = 42;
      table.addRoot();
      expect(table.find(1, 42)).toBe(0);
      expect(table.find(1, 43)).toBe(-1);
      expect(compared).toBe(hashIsRow ? 0 : 1);
    }
  });
});
