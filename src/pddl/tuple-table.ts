/** @internal A growable list of 32-bit integers. */
export class IntVec {
  data: Int32Array;
  length = 0;

  constructor(capacity = 16) {
    this.data = new Int32Array(Math.max(capacity, 4));
  }

  push(value: number): number {
    if (this.length === this.data.length) this.grow(this.length + 1);
    this.data[this.length] = value;
    return this.length++;
  }

  /** Makes room for `size` values. */
  grow(size: number): void {
    if (size <= this.data.length) return;
    let capacity = this.data.length * 2;
    while (capacity < size) capacity *= 2;
    const data = new Int32Array(capacity);
    data.set(this.data.subarray(0, this.length));
    this.data = data;
  }
}

/**
 * @internal A set of integer tuples of one arity, numbered in insertion
 * order: the tuples sit in one flat array, an open-addressing hash table
 * maps a tuple to its number. Grounding stores every reached atom and
 * every action binding here, so it avoids strings and `Map`s.
 */
export class TupleTable {
  readonly tuples: IntVec;
  size = 0;
  #slots: Int32Array;
  #mask: number;

  constructor(
    readonly arity: number,
    capacity = 16,
  ) {
    this.tuples = new IntVec(Math.max(capacity * arity, 4));
    let slots = 16;
    while (slots < capacity * 2) slots *= 2;
    this.#slots = new Int32Array(slots).fill(-1);
    this.#mask = slots - 1;
  }

  /** The number of the tuple `values[offset … offset+arity)`, or -1. */
  find(values: ArrayLike<number>, offset = 0): number {
    const arity = this.arity;
    const data = this.tuples.data;
    let slot = hashTuple(values, offset, arity) & this.#mask;
    for (;;) {
      const index = this.#slots[slot] as number;
      if (index < 0) return -1;
      let same = true;
      const base = index * arity;
      for (let i = 0; i < arity; i++) {
        if (data[base + i] !== values[offset + i]) {
          same = false;
          break;
        }
      }
      if (same) return index;
      slot = (slot + 1) & this.#mask;
    }
  }

  /** Adds the tuple unless present; returns its number, or `-(number + 1)` when it was already there. */
  insert(values: ArrayLike<number>, offset = 0): number {
    const arity = this.arity;
    let data = this.tuples.data;
    let slot = hashTuple(values, offset, arity) & this.#mask;
    for (;;) {
      const index = this.#slots[slot] as number;
      if (index < 0) break;
      let same = true;
      const base = index * arity;
      for (let i = 0; i < arity; i++) {
        if (data[base + i] !== values[offset + i]) {
          same = false;
          break;
        }
      }
      if (same) return -index - 1;
      slot = (slot + 1) & this.#mask;
    }
    const index = this.size++;
    this.#slots[slot] = index;
    const tuples = this.tuples;
    tuples.grow(tuples.length + arity);
    data = tuples.data;
    for (let i = 0; i < arity; i++) data[tuples.length++] = values[offset + i] as number;
    if (this.size * 2 > this.#mask) this.#rehash();
    return index;
  }

  #rehash(): void {
    const slots = new Int32Array(this.#slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    const data = this.tuples.data;
    for (let index = 0; index < this.size; index++) {
      let slot = hashTuple(data, index * this.arity, this.arity) & mask;
      while ((slots[slot] as number) >= 0) slot = (slot + 1) & mask;
      slots[slot] = index;
    }
    this.#slots = slots;
    this.#mask = mask;
  }
}

function hashTuple(values: ArrayLike<number>, offset: number, arity: number): number {
  let h = 0x811c9dc5 ^ arity;
  for (let i = 0; i < arity; i++) {
    h = Math.imul(h ^ (values[offset + i] as number), 0x01000193);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 0;
}
