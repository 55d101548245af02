import { describe, expect, it } from "vitest";
import { NodeStore, PREPARE_AT } from "../../src/planner/search-store.js";

const WIDTH = 3;

/** Stores `total` nodes as a search does (`due` when the count reaches `growAt`), changing an older node's g now and then. */
function fill(store: NodeStore<Float64Array>, total: number, sliceEvery = 0): { steps: number[] } {
  // Calls of `due` per growth: one growth ends when the version changes.
  const steps: number[] = [];
  let calls = 0;
  let version = store.version;
  for (let count = 0; count < total; count++) {
    // A slice starts every `sliceEvery` nodes (0: never), as the search loop calls `prepare`.
    if (sliceEvery > 0 && count % sliceEvery === 0) store.prepare(count);
    if (count >= store.growAt) {
      store.due(count);
      calls++;
      if (store.version !== version) {
        steps.push(calls);
        calls = 0;
        version = store.version;
      }
    }
    for (let i = 0; i < WIDTH; i++) store.rows(count)[store.at(count) + i] = count * 10 + i;
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

/** Nodes whose row or fields differ from what {@link fill} wrote (g is overwritten by later improvements, as fill does). */
function wrongNodes(store: NodeStore<Float64Array>, total: number): number {
  const g = Float64Array.from({ length: total }, (_, n) => n);
  for (let count = 5; count < total; count += 5) g[count >> 1] = -(count >> 1);
  let wrong = 0;
  for (let n = 0; n < total; n++) {
    for (let i = 0; i < WIDTH; i++) if (store.rows(n)[store.at(n) + i] !== n * 10 + i) wrong++;
    if (store.parent[n] !== n - 1 || store.via[n] !== n % 7 || store.hOf[n] !== -n) wrong++;
    if (store.hashOf[n] !== (n ^ 0x5555) || store.gOf[n] !== g[n]) wrong++;
  }
  return wrong;
}

describe("the node store", () => {
  it("grows in many small steps and keeps every node's row and fields", () => {
    const store = new NodeStore(WIDTH, (n) => new Float64Array(n), 64);
    store.begin(Number.POSITIVE_INFINITY);
    const total = 200_000;
    const { steps } = fill(store, total);
    expect(store.cap).toBeGreaterThanOrEqual(total);
    // Once the field arrays outgrow a copy step, a growth is spread over several calls: the five arrays are allocated
    // one per call and then copied a chunk per call (the old store allocated them all in one call).
    const large = steps.slice(-2);
    for (const calls of large) expect(calls).toBeGreaterThan(6);
    expect(wrongNodes(store, total)).toBe(0);
  });

  it("keeps wide rows in blocks that are never copied once whole", () => {
    // 4,096 numbers a row (32 KB): 32 rows a block, so 600 nodes take 19 blocks.
    const width = 4_096;
    const store = new NodeStore(width, (n) => new Float64Array(n), 64);
    store.begin(Number.POSITIVE_INFINITY);
    expect(store.rowsPerBlock).toBe(32);
    const total = 600;
    // Each block as it was when it became whole (its last row written): the store must still hold that very array.
    const whole: Float64Array[] = [];
    for (let count = 0; count < total; count++) {
      if (count >= store.growAt) store.due(count);
      const rows = store.rows(count);
      rows[store.at(count)] = count;
      rows[store.at(count) + width - 1] = -count;
      store.gOf[count] = count;
      if ((count + 1) % store.rowsPerBlock === 0) whole.push(rows);
    }
    expect(store.blocks.length).toBe(Math.ceil(total / 32));
    expect(whole.length).toBe(Math.floor(total / 32));
    for (const [b, block] of whole.entries()) expect(store.blocks[b]).toBe(block);
    for (const block of store.blocks) expect(block.length).toBe(32 * width);
    let wrong = 0;
    for (let n = 0; n < total; n++) {
      const rows = store.rows(n);
      if (rows[store.at(n)] !== n || rows[store.at(n) + width - 1] !== -n || store.gOf[n] !== n) wrong++;
    }
    expect(wrong).toBe(0);
  });

  it("keeps four blocks of rows free at a slice's start once it has outgrown its first block, never moving a row", () => {
    const width = 4_096;
    const store = new NodeStore(width, (n) => new Float64Array(n), 64);
    store.begin(1_000);
    // 32 rows a block: a slice's start within the first block allocates nothing ahead (a small search stays small).
    store.prepare(0);
    store.prepare(31);
    expect(store.blocks.length).toBe(1);
    const whole: Float64Array[] = [];
    for (let count = 0; count < 900; count++) {
      if (count % 10 === 0) {
        store.prepare(count);
        if (count > 32) expect(store.rowCap - count).toBeGreaterThanOrEqual(Math.min(4 * 32, 1_000 - count));
      }
      if (count >= store.growAt) store.due(count);
      const rows = store.rows(count);
      rows[store.at(count)] = count;
      if ((count + 1) % store.rowsPerBlock === 0) whole.push(rows);
    }
    // Never past the limit, and every whole block is the array it was when filled.
    expect(store.rowCap).toBe(1_000);
    for (const [b, block] of whole.entries()) expect(store.blocks[b]).toBe(block);
    let wrong = 0;
    for (let n = 0; n < 900; n++) if (store.rows(n)[store.at(n)] !== n) wrong++;
    expect(wrong).toBe(0);
  });

  it("starts with a small first block that grows to a whole one, then adds blocks", () => {
    // 3 numbers a row (24 bytes): a whole block is 32,768 rows (768 KB); a small search allocates 64 rows.
    const store = new NodeStore(WIDTH, (n) => new Float64Array(n), 64);
    store.begin(Number.POSITIVE_INFINITY);
    expect(store.blocks.length).toBe(1);
    expect(store.blocks[0]?.length).toBe(64 * WIDTH);
    fill(store, 100_000);
    expect(store.rowsPerBlock).toBe(32_768);
    expect(store.blocks.map((b) => b.length / WIDTH)).toEqual([32_768, 32_768, 32_768, 32_768]);
    // Kept for the next search: the first block only.
    store.trim();
    expect(store.blocks.length).toBe(1);
    expect(store.rowCap).toBe(32_768);
  });

  it("allocates large field arrays' successors at a slice's start from five eighths full", () => {
    const store = new NodeStore(WIDTH, (n) => new Float64Array(n), 64);
    store.begin(Number.POSITIVE_INFINITY);
    const early = Math.floor(262_144 * PREPARE_AT);
    fill(store, early);
    expect(store.cap).toBe(262_144);
    store.prepare(early - 1);
    expect(store.filling).toBe(false);
    store.prepare(early);
    // All five arrays at once: the copy starts with the next node stored.
    expect(store.filling).toBe(true);
    expect(store.growAt).toBeLessThanOrEqual(early + 1);
  });

  it("leaves small field arrays to grow when full", () => {
    const store = new NodeStore(WIDTH, (n) => new Float64Array(n), 64);
    store.begin(Number.POSITIVE_INFINITY);
    fill(store, 25_000);
    expect(store.cap).toBe(32_768);
    store.prepare(25_000);
    expect(store.filling).toBe(false);
  });

  it("keeps every node's row and fields when slices prepare the growths", () => {
    const store = new NodeStore(WIDTH, (n) => new Float64Array(n), 64);
    store.begin(Number.POSITIVE_INFINITY);
    const total = 300_000;
    fill(store, total, 777);
    expect(store.cap).toBeGreaterThanOrEqual(total);
    expect(wrongNodes(store, total)).toBe(0);
  });

  it("stops growing at its limit", () => {
    const store = new NodeStore(WIDTH, (n) => new Float64Array(n), 64);
    store.begin(1_000);
    fill(store, 1_000);
    expect(store.cap).toBe(1_000);
    expect(store.growAt).toBe(Number.POSITIVE_INFINITY);
  });
});
