/**
 * Duplicate detection of a search: an open-addressing hash table of node
 * ids + 1 (0 is empty), each beside its node's hash (one array of pairs: a
 * probe reads both from one cache line; the hash in a separate array by
 * node id cost a second cache miss per probe, 12 % of blind search's
 * time), indexed by the low bits of the node's hash through a finalizer: a
 * representation's hash may be linear in the state's bits (the float rows'
 * XOR of per-slot keys), and structured state sets would cluster in the
 * table.
 *
 * The table grows incrementally: a grown table starts empty, the old one's
 * nodes move over {@link MOVE_PER_INSERT} per insertion, and until all
 * have moved a lookup probes both. Re-inserting millions of nodes at once
 * paused the event loop for over 100 ms on large searches.
 * @internal
 */

/**
 * Nodes of a grown table's predecessor that move to it per insertion. At 4
 * the move ends when the node count has grown by a quarter, long before the
 * next growth at twice the count.
 */
const MOVE_PER_INSERT = 4;
/** Tables of at least this many numbers (4 MB) have their successor allocated by {@link StateTable.prepare}. */
const PREPARE_MIN = 1 << 20;

/** Compares two stored rows. */
export interface RowEquality {
  sameRow(a: number, b: number): boolean;
  /** True when equal hashes mean equal rows (the hash is the row itself), so a probe compares hashes only. */
  readonly hashIsRow?: boolean;
}

export class StateTable {
  #table: Int32Array;
  #mask: number;
  #old: Int32Array | null = null;
  #oldMask = 0;
  #oldCount = 0;
  #moved = 0;
  /** The next, twice as large table, allocated ahead by {@link prepare}; null when none. */
  #spare: Int32Array | null = null;
  /** Free slot of the current table found by the last {@link find} that found nothing. */
  #free = 0;
  /** Node hashes by id (the node store's; reset when the store replaces it). */
  hashOf: Int32Array;
  readonly #hashIsRow: boolean;
  /**
   * The table grows when the node count times this passes its length: 4, at half the slots in use; 8, a quarter,
   * where hashes are rows (one-word states): shorter probe runs made blind search 4-6 % faster on chain-L/XL, for 16
   * more bytes a node where one takes about 70 (a 4-byte row).
   */
  readonly #growFactor: number;

  constructor(
    table: Int32Array,
    hashOf: Int32Array,
    readonly rows: RowEquality,
  ) {
    this.#table = table;
    this.#mask = (table.length >> 1) - 1;
    this.hashOf = hashOf;
    this.#hashIsRow = rows.hashIsRow === true;
    this.#growFactor = this.#hashIsRow ? 8 : 4;
  }

  /** The array to keep for the next search. */
  get array(): Int32Array {
    return this.#table;
  }

  /** The stored node whose row equals node `node`'s (hash `hsh`), or -1. */
  find(node: number, hsh: number): number {
    const table = this.#table;
    const mask = this.#mask;
    let slot = fmix32(hsh) & mask;
    for (;;) {
      const entry = table[2 * slot] as number;
      if (entry === 0) break;
      if (table[2 * slot + 1] === hsh && (this.#hashIsRow || this.rows.sameRow(entry - 1, node))) return entry - 1;
      slot = (slot + 1) & mask;
    }
    this.#free = slot;
    if (this.#old === null) return -1;
    // Nodes not moved yet are in the old table only (those moved are found above).
    const old = this.#old;
    for (let s = fmix32(hsh) & this.#oldMask; ; s = (s + 1) & this.#oldMask) {
      const entry = old[2 * s] as number;
      if (entry === 0) return -1;
      const other = entry - 1;
      if (other >= this.#moved && old[2 * s + 1] === hsh && (this.#hashIsRow || this.rows.sameRow(other, node))) return other;
    }
  }

  /** Adds node `node` (its hash already in `hashOf`) at the slot the last {@link find} left free; `count` nodes are then stored. */
  add(node: number, count: number): void {
    this.#table[2 * this.#free] = node + 1;
    this.#table[2 * this.#free + 1] = this.hashOf[node] as number;
    if (this.#old !== null) this.#moveSome();
    if (count * this.#growFactor > this.#table.length) this.#grow(count);
  }

  /**
   * Called at a slice's start with the node count: a large table past
   * seven eighths of its growth point allocates its successor now, so that
   * the collection a large allocation may set off falls at the start of a
   * slice (see `PREPARE_AT` in search-store.ts). Only when memory is
   * allocated changes.
   */
  prepare(count: number): void {
    const length = this.#table.length;
    if (this.#spare === null && length >= PREPARE_MIN && count * this.#growFactor * 8 > length * 7)
      this.#spare = new Int32Array(length * 2);
  }

  /** Adds the root (node 0) to an empty table. */
  addRoot(): void {
    const slot = fmix32(this.hashOf[0] as number) & this.#mask;
    this.#table[2 * slot] = 1;
    this.#table[2 * slot + 1] = this.hashOf[0] as number;
  }

  #moveSome(): void {
    const table = this.#table;
    const mask = this.#mask;
    const hashOf = this.hashOf;
    const end = Math.min(this.#oldCount, this.#moved + MOVE_PER_INSERT);
    let moved = this.#moved;
    for (; moved < end; moved++) {
      const hsh = hashOf[moved] as number;
      let slot = fmix32(hsh) & mask;
      while (table[2 * slot] !== 0) slot = (slot + 1) & mask;
      table[2 * slot] = moved + 1;
      table[2 * slot + 1] = hsh;
    }
    this.#moved = moved;
    if (moved === this.#oldCount) this.#old = null;
  }

  #grow(count: number): void {
    while (this.#old !== null) this.#moveSome();
    this.#old = this.#table;
    this.#oldMask = this.#mask;
    this.#oldCount = count;
    this.#moved = 0;
    this.#table = this.#spare ?? new Int32Array(this.#table.length * 2);
    this.#spare = null;
    this.#mask = (this.#table.length >> 1) - 1;
  }
}

/** murmur3's 32-bit finalizer: a cheap, well-mixing hash of one word. */
export function fmix32(h: number): number {
  let x = h;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return x ^ (x >>> 16);
}
