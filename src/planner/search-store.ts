/**
 * Where a search keeps its nodes: state rows in blocks (`width` numbers a
 * node), parallel typed arrays of the other fields indexed by node id, and
 * the workspace that hands small ones from one search of a problem to the
 * next.
 * @internal
 */
import type { OneWordScan } from "./bit-layout.js";
import { BucketOpenList, bucketCostBound } from "./bucket-open-list.js";
import type { CompiledProblem } from "./compiled-problem.js";
import { OpenList } from "./open-list.js";

/** A state row store: packed bits (Int32) or floats (Float64). */
export type RowArray = Float64Array | Int32Array;

/**
 * Bytes of a block of rows (at least one row). A new block costs an
 * allocation and nothing else: rows already stored are never copied, and
 * no large array is left behind for the garbage collector.
 */
const BLOCK_BYTES = 1 << 20;
/**
 * Bytes copied per step of a growth of the field arrays (see {@link NodeStore}).
 * The copy's cost is mostly the first touch of fresh pages (about 4 ms per
 * MB on a loaded VM), so a step stays well under a millisecond only at a
 * fraction of a MB.
 */
const COPY_STEP_BYTES = 1 << 17;
/**
 * Field arrays of up to this many bytes grow when full, all at once (a
 * millisecond or so): growing them in steps from three quarters full made
 * searches of 10,000–30,000 states 15–35 % slower (blind search on chain-L:
 * 11 -> 13-15 ms) for pauses that were short anyway.
 */
const ONE_GO_BYTES = 1 << 20;
/**
 * A growth of the field arrays starts when they are this full, and copies a
 * chunk per chunk / COPY_SPEEDUP nodes stored: from three quarters full, the
 * copy is over at about 86 % (it gains 7 nodes per node stored).
 */
const GROW_AT = 0.75;
const COPY_SPEEDUP = 8;
/**
 * From this full on, a slice's start ({@link NodeStore.prepare}) allocates the next field arrays rather than the
 * node at three quarters full, somewhere in a slice. Allocating arrays of megabytes may set off a collection
 * (V8 collects when the young arrays' memory passes 32 MB, or steps its marking when outside memory grows):
 * 2-10 ms that, at a slice's start, is not added to a slice of work.
 */
export const PREPARE_AT = 0.625;
/** Blocks of rows (about a MB each) {@link NodeStore.prepare} keeps free ahead of the nodes stored, for the same reason. */
const BLOCKS_AHEAD = 4;
/** Bytes of one node's fields: parent, via and hash (4 each), g and h (8 each). */
const FIELD_BYTES = 28;

interface Fields {
  parent: Int32Array;
  via: Int32Array;
  gOf: Float64Array;
  hOf: Float64Array;
  hashOf: Int32Array;
}

/**
 * Search nodes: state rows in blocks, and parent, action, g, h and hash per
 * node id in parallel arrays.
 *
 * A block holds {@link rowsPerBlock} rows (a power of two, about
 * {@link BLOCK_BYTES}): node `n`'s row starts at `at(n)` in `rows(n)`. Only
 * the first block grows by copying, up to a whole block (a small search
 * allocates little); then each growth adds a block and keeps the others, so
 * a row is written once and never moves. (One arena doubled and copied
 * paused the event loop for 150–180 ms at 10,000 facts: copying 80 KB rows,
 * then collecting the old arena.)
 *
 * The field arrays double in steps up to the node budget, and a growth never
 * allocates or copies them all at once: from three quarters full on, arrays
 * twice as large are allocated one per step, then filled a chunk of
 * {@link COPY_STEP_BYTES} at a time while nodes go on being stored, and
 * replace the old ones once every node is copied (arrays up to
 * {@link ONE_GO_BYTES} are allocated and copied at once when full). Hashes
 * never change after a node is stored; the fields that do (parent, action, g,
 * h) are written through to the copy with {@link mirror} for nodes already
 * copied. The search calls {@link due} when the node count reaches
 * {@link growAt} (one comparison per child) and reloads its field array
 * references when {@link version} changes.
 */
export class NodeStore<R extends RowArray> implements Fields {
  /** Nodes the field arrays hold. */
  cap: number;
  /** Nodes the row blocks hold. */
  rowCap: number;
  /** The row blocks: block `b` holds the rows of nodes `b * rowsPerBlock` to `(b + 1) * rowsPerBlock - 1`. */
  readonly blocks: R[];
  /** Rows a block holds, a power of two (the first block holds fewer until it has grown). */
  readonly rowsPerBlock: number;
  parent: Int32Array;
  via: Int32Array;
  gOf: Float64Array;
  hOf: Float64Array;
  hashOf: Int32Array;
  /** Node count at which {@link due} must be called before the next child is written. */
  growAt = 0;
  /** Nodes below this id are in the field arrays being filled: a change to one must be mirrored. 0 when no growth is under way. */
  copied = 0;
  /** Changes whenever the field arrays are replaced. */
  version = 0;
  readonly #shift: number;
  readonly #mask: number;
  readonly #makeRow: (length: number) => R;
  #limit = Number.POSITIVE_INFINITY;
  /** Node count at which the field arrays take their next step of growth. */
  #fieldsDue = 0;
  #next: Fields | null = null;
  /** Capacity of the growth under way (0: none); its arrays are allocated one per step into `#parts`. */
  #nextCap = 0;
  #parts: (Int32Array | Float64Array)[] = [];
  #chunk = 1;
  /** Capacity up to which the field arrays grow when full, all at once (see ONE_GO_BYTES). */
  #oneGo = 1;

  constructor(
    readonly width: number,
    makeRow: (length: number) => R,
    cap: number,
  ) {
    this.#makeRow = makeRow;
    const rowBytes = Math.max(1, width) * makeRow(0).BYTES_PER_ELEMENT;
    this.#shift = 31 - Math.clz32(Math.max(1, Math.floor(BLOCK_BYTES / rowBytes)));
    this.rowsPerBlock = 1 << this.#shift;
    this.#mask = this.rowsPerBlock - 1;
    this.rowCap = Math.min(cap, this.rowsPerBlock);
    this.blocks = [makeRow(this.rowCap * width)];
    this.cap = cap;
    const fields = allocateFields(cap);
    this.parent = fields.parent;
    this.via = fields.via;
    this.gOf = fields.gOf;
    this.hOf = fields.hOf;
    this.hashOf = fields.hashOf;
  }

  /** The block holding node `node`'s row. */
  rows(node: number): R {
    return this.blocks[node >>> this.#shift] as R;
  }

  /** The index in {@link blocks} of the block holding node `node`'s row. */
  blockOf(node: number): number {
    return node >>> this.#shift;
  }

  /** Where node `node`'s row starts in its block ({@link rows}). */
  at(node: number): number {
    return (node & this.#mask) * this.width;
  }

  /** Starts a search that stores at most `limit` nodes (the node budget plus the scratch row of a child). */
  begin(limit: number): void {
    this.#limit = limit;
    this.#next = null;
    this.#nextCap = 0;
    this.#parts = [];
    this.copied = 0;
    // At least COPY_SPEEDUP nodes a step, so the copy gains on the nodes stored.
    this.#chunk = Math.max(COPY_SPEEDUP, Math.floor(COPY_STEP_BYTES / FIELD_BYTES));
    this.#oneGo = Math.max(this.#chunk, Math.floor(ONE_GO_BYTES / FIELD_BYTES));
    this.#fieldsDue = this.#fieldGrowthPoint();
    this.growAt = Math.min(this.#fieldsDue, this.#rowGrowthPoint());
  }

  /** Grows by a step: `count` nodes are stored and the next child goes to id `count`. */
  due(count: number): void {
    if (count >= this.rowCap) this.#growRows();
    if (count >= this.#fieldsDue) this.#growFields(count);
    this.growAt = Math.min(this.#fieldsDue, this.#rowGrowthPoint());
  }

  /**
   * Called at a slice's start with the node count: once the search has
   * outgrown its first block of rows, keeps {@link BLOCKS_AHEAD} blocks' rows
   * free (a slice of a wide domain stores several blocks); when the field arrays of more
   * than {@link ONE_GO_BYTES} are {@link PREPARE_AT} full, allocates their
   * successors now (the copy then goes on as stored nodes come, as from
   * three quarters full). Only when memory is allocated changes.
   */
  prepare(count: number): void {
    if (this.blocks.length > 1) {
      const ahead = BLOCKS_AHEAD * this.rowsPerBlock;
      while (this.rowCap < this.#limit && this.rowCap - count < ahead) this.#growRows();
    }
    const mayGrow = this.#next === null && this.cap > this.#oneGo && this.#fieldsDue !== Number.POSITIVE_INFINITY;
    if (mayGrow && (this.#nextCap > 0 || count >= Math.floor(this.cap * PREPARE_AT))) this.#growFields(count, true);
    this.growAt = Math.min(this.#fieldsDue, this.#rowGrowthPoint());
  }

  /** True while a growth's arrays are all allocated and being filled (for tests). */
  get filling(): boolean {
    return this.#next !== null;
  }

  /** Writes node `node`'s parent, action, g and h through to the arrays being filled (call when `node < copied`). */
  mirror(node: number): void {
    const next = this.#next as Fields;
    next.parent[node] = this.parent[node] as number;
    next.via[node] = this.via[node] as number;
    next.gOf[node] = this.gOf[node] as number;
    next.hOf[node] = this.hOf[node] as number;
  }

  /** Drops every block but the first (the part of a store kept for the next search). */
  trim(): void {
    if (this.blocks.length === 1) return;
    this.blocks.length = 1;
    this.rowCap = this.rowsPerBlock;
  }

  /** Room for one more block of rows: the first block doubles (copied) until it is whole, then blocks are added. */
  #growRows(): void {
    const blocks = this.blocks;
    const w = this.width;
    if (blocks.length === 1 && this.rowCap < this.rowsPerBlock) {
      const rows = Math.min(this.rowCap * 2, this.rowsPerBlock, this.#limit);
      const grown = this.#makeRow(rows * w);
      (grown as RowArray).set(blocks[0] as R);
      blocks[0] = grown;
      this.rowCap = rows;
      return;
    }
    const rows = Math.min(this.rowsPerBlock, this.#limit - this.rowCap);
    blocks.push(this.#makeRow(rows * w));
    this.rowCap += rows;
  }

  #rowGrowthPoint(): number {
    return this.rowCap >= this.#limit ? Number.POSITIVE_INFINITY : this.rowCap;
  }

  /** A step of the field arrays' growth at node count `count`; `allAtOnce` allocates every array still missing. */
  #growFields(count: number, allAtOnce = false): void {
    if (this.#next === null) {
      if (this.#nextCap === 0) {
        const cap = Math.min(this.cap * 2, this.#limit);
        if (cap <= this.cap) {
          this.#fieldsDue = Number.POSITIVE_INFINITY;
          return;
        }
        this.#nextCap = cap;
        this.#parts = [];
      }
      // A full store (small arrays grow when full) cannot wait: all at once.
      const parts = this.#parts;
      do parts.push(this.#allocatePart(parts.length));
      while (parts.length < PARTS && (allAtOnce || count >= this.cap - 1));
      if (parts.length < PARTS) {
        this.#fieldsDue = count + 1;
        return;
      }
      const [parent, via, gOf, hOf, hashOf] = parts;
      this.#next = {
        parent: parent as Int32Array,
        via: via as Int32Array,
        gOf: gOf as Float64Array,
        hOf: hOf as Float64Array,
        hashOf: hashOf as Int32Array,
      };
      this.#parts = [];
      this.copied = 0;
      // Prepared at a slice's start: the copy starts with the next node stored.
      if (allAtOnce) {
        this.#fieldsDue = count + 1;
        return;
      }
    }
    const next = this.#next;
    const from = this.copied;
    // Never full with the copy unfinished (the next child's id is `count`).
    const to = count >= this.cap - 1 ? count : Math.min(count, from + this.#chunk);
    next.parent.set(this.parent.subarray(from, to), from);
    next.via.set(this.via.subarray(from, to), from);
    next.gOf.set(this.gOf.subarray(from, to), from);
    next.hOf.set(this.hOf.subarray(from, to), from);
    next.hashOf.set(this.hashOf.subarray(from, to), from);
    this.copied = to;
    if (to < count) {
      this.#fieldsDue = count + Math.max(1, Math.floor(this.#chunk / COPY_SPEEDUP));
      return;
    }
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
    this.#fieldsDue = this.#fieldGrowthPoint();
  }

  /** Part `i` of the next field arrays, in the order of {@link allocateFields}. */
  #allocatePart(i: number): Int32Array | Float64Array {
    const cap = this.#nextCap;
    return i === 2 || i === 3 ? new Float64Array(cap) : new Int32Array(cap);
  }

  #fieldGrowthPoint(): number {
    if (this.cap >= this.#limit) return Number.POSITIVE_INFINITY;
    return this.cap <= this.#oneGo ? this.cap - 1 : Math.floor(this.cap * GROW_AT);
  }
}

/** Field arrays a node store holds (see {@link allocateFields}). */
const PARTS = 5;

function allocateFields(cap: number): Fields {
  return {
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
  /** The float representation's precondition index without irrelevant actions, built at the first search that uses it. */
  floatRelevantIndex: unknown = undefined;
  /** The bit representation's decoded row for heuristics and cost functions. */
  bitsRow: Float64Array | null = null;
  /** The bit representation's one-word actions and scan buffers (search-bits.ts). */
  oneWord: OneWordScan | null = null;
  #floatNodes: NodeStore<Float64Array> | null = null;
  #intNodes: NodeStore<Int32Array> | null = null;
  #table: Int32Array | null = null;
  #open: OpenList | null = null;
  #buckets: BucketOpenList | null = null;
  /** See {@link bucketCostBound}; computed at the first blind search. */
  #costBound: number | undefined = undefined;

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

  /** Keeps a small store, its first block of rows only, for the next search (its blocks tell which kind it is). */
  keepNodes(nodes: NodeStore<RowArray>): void {
    if (nodes.cap > KEEP_NODES) return;
    nodes.trim();
    if (nodes.blocks[0] instanceof Float64Array) this.#floatNodes = nodes as NodeStore<Float64Array>;
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

  /**
   * An empty open list for a search of `p`: for blind search (every estimate 0) on integer action costs, a
   * {@link BucketOpenList}, which pops in the binary heap's order; otherwise the heap.
   */
  takeOpenFor(p: CompiledProblem, blind: boolean): OpenList | BucketOpenList {
    if (!blind) return this.takeOpen();
    this.#costBound ??= bucketCostBound(p.actions);
    if (this.#costBound < 0) return this.takeOpen();
    const kept = this.#buckets;
    this.#buckets = null;
    return kept ?? new BucketOpenList(this.#costBound);
  }

  keepOpen(open: OpenList | BucketOpenList): void {
    if (open.capacity <= KEEP_NODES * 2) {
      open.clear();
      if (open instanceof BucketOpenList) this.#buckets = open;
      else this.#open = open;
    }
  }
}
