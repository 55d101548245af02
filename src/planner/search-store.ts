/**
 * Where a search keeps its nodes: parallel typed arrays indexed by node id
 * (the state rows in `arena`, `width` numbers a node), and the workspace
 * that hands small ones from one search of a problem to the next.
 * @internal
 */
import { OpenList } from "./open-list.js";

/** A state row store: packed bits (Int32) or floats (Float64). */
export type RowArray = Float64Array | Int32Array;

/**
 * Bytes copied per step of a growth (see {@link NodeStore}). The copy's cost is
 * mostly the first touch of fresh pages (about 4 ms per MB on a loaded VM), so
 * a step stays well under a millisecond only at a fraction of a MB.
 */
const COPY_STEP_BYTES = 1 << 17;
/**
 * Arrays holding up to this many bytes of nodes grow when full, all at once
 * (a few ms): growing them in steps from three quarters full made
 * searches of 10,000–30,000 states 15–35 % slower (blind search on chain-L:
 * 11 -> 13-15 ms) for pauses that were short anyway.
 */
const ONE_GO_BYTES = 1 << 20;
/**
 * A growth starts when the arrays are this full, and copies a chunk per
 * chunk / COPY_SPEEDUP nodes stored: from three quarters full, the copy
 * is over at about 86 % (it gains 7 nodes per node stored).
 */
const GROW_AT = 0.75;
const COPY_SPEEDUP = 8;

interface Arrays<R extends RowArray> {
  arena: R;
  parent: Int32Array;
  via: Int32Array;
  gOf: Float64Array;
  hOf: Float64Array;
  hashOf: Int32Array;
}

/**
 * Search nodes in parallel typed arrays: state row, parent, action, g, h
 * and hash per node id.
 *
 * The arrays double in steps up to the node budget, and a growth never
 * allocates or copies them all at once (copying millions of rows paused
 * the event loop for 100–200 ms): from three quarters full on, arrays twice
 * as large are allocated one per step, then filled a chunk of
 * {@link COPY_STEP_BYTES} at a time while nodes go on being stored, and
 * replace the old ones once every node is copied (arrays of nodes up to
 * {@link ONE_GO_BYTES} are allocated and copied at once when full). Rows and
 * hashes never change after a node is stored; the fields that do (parent,
 * action, g, h) are written through to the copy with {@link mirror} for
 * nodes already copied. The search calls {@link due} when the node count
 * reaches {@link growAt} (one comparison per child) and reloads its array
 * references when {@link version} changes.
 */
export class NodeStore<R extends RowArray> implements Arrays<R> {
  cap: number;
  arena: R;
  parent: Int32Array;
  via: Int32Array;
  gOf: Float64Array;
  hOf: Float64Array;
  hashOf: Int32Array;
  /** Node count at which {@link due} must be called before the next child is written. */
  growAt = 0;
  /** Nodes below this id are in the arrays being filled: a change to one must be mirrored. 0 when no growth is under way. */
  copied = 0;
  /** Changes whenever the arrays are replaced. */
  version = 0;
  readonly #makeRow: (length: number) => R;
  #limit = Number.POSITIVE_INFINITY;
  #next: Arrays<R> | null = null;
  /** Capacity of the growth under way (0: none); its arrays are allocated one per step into `#parts`. */
  #nextCap = 0;
  #parts: RowArray[] = [];
  #chunk = 1;
  /** Capacity up to which the arrays grow when full, all at once (see ONE_GO_BYTES). */
  #oneGo = 1;

  constructor(
    readonly width: number,
    makeRow: (length: number) => R,
    cap: number,
  ) {
    this.#makeRow = makeRow;
    this.cap = cap;
    const arrays = allocate(makeRow, width, cap);
    this.arena = arrays.arena;
    this.parent = arrays.parent;
    this.via = arrays.via;
    this.gOf = arrays.gOf;
    this.hOf = arrays.hOf;
    this.hashOf = arrays.hashOf;
  }

  /** Starts a search that stores at most `limit` nodes (the node budget plus the scratch row of a child). */
  begin(limit: number): void {
    this.#limit = limit;
    this.#next = null;
    this.#nextCap = 0;
    this.#parts = [];
    this.copied = 0;
    // At least COPY_SPEEDUP nodes a step, so the copy gains on the nodes stored however wide a row is.
    const nodeBytes = this.width * this.arena.BYTES_PER_ELEMENT + 28;
    this.#chunk = Math.max(COPY_SPEEDUP, Math.floor(COPY_STEP_BYTES / nodeBytes));
    this.#oneGo = Math.max(this.#chunk, Math.floor(ONE_GO_BYTES / nodeBytes));
    this.growAt = this.#growthPoint();
  }

  /** Grows by a step: `count` nodes are stored and the next child goes to id `count`. */
  due(count: number): void {
    if (this.#next === null) {
      if (this.#nextCap === 0) {
        const cap = Math.min(this.cap * 2, this.#limit);
        if (cap <= this.cap) {
          this.growAt = Number.POSITIVE_INFINITY;
          return;
        }
        this.#nextCap = cap;
        this.#parts = [];
      }
      // A full store (small arrays grow when full) cannot wait: all at once.
      const parts = this.#parts;
      do parts.push(this.#allocatePart(parts.length));
      while (parts.length < PARTS && count >= this.cap - 1);
      if (parts.length < PARTS) {
        this.growAt = count + 1;
        return;
      }
      const [arena, parent, via, gOf, hOf, hashOf] = parts;
      this.#next = {
        arena: arena as R,
        parent: parent as Int32Array,
        via: via as Int32Array,
        gOf: gOf as Float64Array,
        hOf: hOf as Float64Array,
        hashOf: hashOf as Int32Array,
      };
      this.#parts = [];
      this.copied = 0;
    }
    const next = this.#next;
    const from = this.copied;
    // Never full with the copy unfinished (the next child's id is `count`): with rows of a whole chunk's size the
    // first arrays (64 nodes) finish one node before full.
    const to = count >= this.cap - 1 ? count : Math.min(count, from + this.#chunk);
    const w = this.width;
    (next.arena as RowArray).set(this.arena.subarray(from * w, to * w), from * w);
    next.parent.set(this.parent.subarray(from, to), from);
    next.via.set(this.via.subarray(from, to), from);
    next.gOf.set(this.gOf.subarray(from, to), from);
    next.hOf.set(this.hOf.subarray(from, to), from);
    next.hashOf.set(this.hashOf.subarray(from, to), from);
    this.copied = to;
    if (to < count) {
      this.growAt = count + Math.max(1, Math.floor(this.#chunk / COPY_SPEEDUP));
      return;
    }
    this.arena = next.arena;
    this.parent = next.parent;
    this.via = next.via;
    this.gOf = next.gOf;
    this.hOf = next.hOf;
    this.hashOf = next.hashOf;
    this.cap = this.#nextCap;
    this.#next = null;
    this.#nextCap = 0;
    this.copied = 0;
    this.version++;
    this.growAt = this.#growthPoint();
  }

  /** Writes node `node`'s parent, action, g and h through to the arrays being filled (call when `node < copied`). */
  mirror(node: number): void {
    const next = this.#next as Arrays<R>;
    next.parent[node] = this.parent[node] as number;
    next.via[node] = this.via[node] as number;
    next.gOf[node] = this.gOf[node] as number;
    next.hOf[node] = this.hOf[node] as number;
  }

  /** Part `i` of the next arrays, in the order of {@link allocate}. */
  #allocatePart(i: number): RowArray {
    const cap = this.#nextCap;
    if (i === 0) return this.#makeRow(cap * this.width);
    return i === 3 || i === 4 ? new Float64Array(cap) : new Int32Array(cap);
  }

  #growthPoint(): number {
    if (this.cap >= this.#limit) return Number.POSITIVE_INFINITY;
    return this.cap <= this.#oneGo ? this.cap - 1 : Math.floor(this.cap * GROW_AT);
  }
}

/** Arrays a node store holds (see {@link allocate}). */
const PARTS = 6;

function allocate<R extends RowArray>(makeRow: (length: number) => R, width: number, cap: number): Arrays<R> {
  return {
    arena: makeRow(cap * width),
    parent: new Int32Array(cap),
    via: new Int32Array(cap),
    gOf: new Float64Array(cap),
    hOf: new Float64Array(cap),
    hashOf: new Int32Array(cap),
  };
}

/** Arrays up to this many nodes are kept between searches; larger ones go back to the garbage collector. */
const KEEP_NODES = 1 << 14;
/** Hash tables up to this size are kept (and cleared) between searches. */
const KEEP_TABLE = 1 << 15;
const FIRST_CAP = 64;
const FIRST_TABLE = 128;

const float64 = (n: number) => new Float64Array(n);
const int32 = (n: number) => new Int32Array(n);

/**
 * Scratch arrays of one compiled problem, reused by its searches so that
 * per-frame planning does not allocate and regrow them on every call. A
 * compiled problem is used by one search at a time (see `acquireCompiled`),
 * so its workspace is too. Searches take the arrays with `take*` and give
 * them back with `keep*`; big arrays are not kept.
 */
export class SearchWorkspace {
  /** The float representation's data derived from the problem alone (index, hash keys). */
  floatDerived: unknown = undefined;
  /** The bit representation's decoded row for heuristics and cost functions. */
  bitsRow: Float64Array | null = null;
  #floatNodes: NodeStore<Float64Array> | null = null;
  #intNodes: NodeStore<Int32Array> | null = null;
  #table: Int32Array | null = null;
  #open: OpenList | null = null;

  takeFloatNodes(width: number): NodeStore<Float64Array> {
    const kept = this.#floatNodes;
    this.#floatNodes = null;
    return kept?.width === width ? kept : new NodeStore(width, float64, FIRST_CAP);
  }

  takeIntNodes(width: number): NodeStore<Int32Array> {
    const kept = this.#intNodes;
    this.#intNodes = null;
    return kept?.width === width ? kept : new NodeStore(width, int32, FIRST_CAP);
  }

  /** Keeps a small store for the next search (`arena` tells which kind it is). */
  keepNodes(nodes: NodeStore<RowArray>): void {
    if (nodes.cap > KEEP_NODES) return;
    if (nodes.arena instanceof Float64Array) this.#floatNodes = nodes as NodeStore<Float64Array>;
    else this.#intNodes = nodes as NodeStore<Int32Array>;
  }

  /** A zeroed hash table (a power of two). */
  takeTable(): Int32Array {
    const kept = this.#table;
    this.#table = null;
    return kept ?? new Int32Array(FIRST_TABLE);
  }

  /** Keeps a small table, cleared for the next search. */
  keepTable(table: Int32Array): void {
    if (table.length <= KEEP_TABLE) {
      table.fill(0);
      this.#table = table;
    }
  }

  /** An empty open list. */
  takeOpen(): OpenList {
    const kept = this.#open;
    this.#open = null;
    return kept ?? new OpenList();
  }

  keepOpen(open: OpenList): void {
    if (open.capacity <= KEEP_NODES * 2) {
      open.clear();
      this.#open = open;
    }
  }
}
