import { type ActionSpec, callTracer, type GoalSpec, type PlanningTracer } from "../core/index.js";
import type { BudgetLimit } from "./budget.js";
import type { CompiledProblem } from "./compile.js";
import type { Heuristic } from "./heuristics.js";
import { OpenList } from "./open-list.js";
import type { HeuristicName, SearchRecord, SearchStatus } from "./types.js";

/** Everything a search engine needs, prepared once by `planDetailed`. */
export interface SearchSetup {
  readonly p: CompiledProblem;
  readonly h: Heuristic;
  readonly goal: GoalSpec;
  readonly weight: number;
  readonly maxExpansions: number;
  /** Most states held; `defaultNodes` lets the engine lower it to fit the default memory allowance. */
  readonly maxNodes: number;
  readonly defaultNodes: boolean;
  /** `performance.now()` value after which the search stops. */
  readonly deadline: number;
  readonly signal: AbortSignal | undefined;
  readonly tracer: PlanningTracer | undefined;
  readonly record: boolean;
  /**
   * The boolean engine's view of relevance analysis (`relevanceOf` in relevance.ts):
   * actions to skip (0) and effect masks without the bits of irrelevant
   * facts. Absent when the analysis is off or prunes nothing.
   */
  readonly relevantBits?: { readonly action: Uint8Array; readonly effClear: Int32Array; readonly effSet: Int32Array } | undefined;
  /** Arrays kept from earlier searches of the same compiled problem. */
  readonly workspace: SearchWorkspace;
}

/** What an engine reports back. */
export interface SearchOutcome {
  status: SearchStatus;
  actions: ActionSpec[] | null;
  nodesExpanded: number;
  nodesGenerated: number;
  /** States held when the search ended. */
  nodesStored?: number;
  /** The budget that stopped a `budget_exhausted` search. */
  limit?: BudgetLimit;
  /** The node budget the engine applied (the default shrinks for wide states). */
  maxNodes?: number;
  expansions?: SearchRecord[];
  /** The heuristic that found the outcome, when the search switched to another than it started with. */
  heuristic?: HeuristicName;
}

/**
 * A search in progress. `step(sliceEnd)` searches until it is done (and
 * returns the outcome) or until `performance.now()` passes `sliceEnd`
 * (and returns `null`: call again to go on). Synchronous planning calls it
 * once with `Infinity`; asynchronous planning yields to the event loop
 * between slices.
 */
export interface SearchRun {
  step(sliceEnd: number): SearchOutcome | null;
}

/** A run that is over before it starts (the root is a dead end, or the goal is unreachable). */
export function finishedRun(outcome: SearchOutcome): SearchRun {
  return { step: () => outcome };
}

/** Search nodes kept in parallel typed arrays (the state rows live in `arena`). */
export interface NodeArrays<Row extends Float64Array | Int32Array> {
  cap: number;
  arena: Row;
  parent: Int32Array;
  via: Int32Array;
  gOf: Float64Array;
  hOf: Float64Array;
  hashOf: Int32Array;
}

/** Arrays up to this many nodes are kept between searches; larger ones go back to the garbage collector. */
const KEEP_NODES = 1 << 14;
/** Hash tables up to this size are kept (and cleared) between searches. */
const KEEP_TABLE = 1 << 15;
const FIRST_CAP = 64;
const FIRST_TABLE = 128;

/**
 * Scratch arrays of one compiled problem, reused by its searches so that
 * per-frame planning does not allocate and regrow them on every call. A
 * compiled problem is used by one search at a time (see `acquireCompiled`),
 * so its workspace is too. Engines take the arrays with `take*` and give
 * them back with `keep*`; big arrays are not kept.
 */
export class SearchWorkspace {
  /** The float engine's data derived from the problem alone (index, hash keys). */
  floatDerived: unknown = undefined;
  /** The bit engine's decoded row for heuristics and cost functions. */
  bitsRow: Float64Array | null = null;
  #floatNodes: NodeArrays<Float64Array> | null = null;
  #intNodes: NodeArrays<Int32Array> | null = null;
  #table: Int32Array | null = null;
  #open: OpenList | null = null;

  takeFloatNodes(width: number): NodeArrays<Float64Array> {
    const kept = this.#floatNodes;
    this.#floatNodes = null;
    return kept && kept.arena.length === kept.cap * width ? kept : newNodes(new Float64Array(FIRST_CAP * width));
  }

  takeIntNodes(width: number): NodeArrays<Int32Array> {
    const kept = this.#intNodes;
    this.#intNodes = null;
    return kept && kept.arena.length === kept.cap * width ? kept : newNodes(new Int32Array(FIRST_CAP * width));
  }

  keepFloatNodes(nodes: NodeArrays<Float64Array>): void {
    if (nodes.cap <= KEEP_NODES) this.#floatNodes = nodes;
  }

  keepIntNodes(nodes: NodeArrays<Int32Array>): void {
    if (nodes.cap <= KEEP_NODES) this.#intNodes = nodes;
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

function newNodes<Row extends Float64Array | Int32Array>(arena: Row): NodeArrays<Row> {
  return {
    cap: FIRST_CAP,
    arena,
    parent: new Int32Array(FIRST_CAP),
    via: new Int32Array(FIRST_CAP),
    gOf: new Float64Array(FIRST_CAP),
    hOf: new Float64Array(FIRST_CAP),
    hashOf: new Int32Array(FIRST_CAP),
  };
}

/**
 * Size past which arrays stop doubling and jump to their final size (the
 * node budget) in one step. Copying grown arrays and rehashing take time
 * proportional to the search; done at every doubling of a million-node
 * search they would stall the event loop for tens of milliseconds each.
 * Large typed arrays are zero pages until written, so reserving the final
 * size costs memory only as nodes are stored.
 */
export const JUMP_AT = 1 << 16;

/** Row bytes past which node arrays jump to their final size too: a wide state's rows reach many MB in few nodes. */
export const JUMP_BYTES = 1 << 22;

/**
 * Grows node arrays to hold at least `needed` nodes: doubling while small
 * (fewer than JUMP_AT nodes and JUMP_BYTES of rows), then straight to `limit` (the node budget plus one expansion's children)
 * when it is finite; never past it.
 */
export function growNodes<Row extends Float64Array | Int32Array>(
  nodes: NodeArrays<Row>,
  width: number,
  needed: number,
  limit: number,
): void {
  const big = nodes.cap >= JUMP_AT || nodes.cap * width * nodes.arena.BYTES_PER_ELEMENT >= JUMP_BYTES;
  const target = big && Number.isFinite(limit) ? limit : nodes.cap * 2;
  const cap = Math.max(needed, Math.min(target, limit));
  const copy = <A extends Float64Array | Int32Array>(old: A, size: number): A => {
    const next = new (old.constructor as new (n: number) => A)(size);
    next.set(old.subarray(0, Math.min(old.length, size)) as never);
    return next;
  };
  nodes.arena = copy(nodes.arena, cap * width);
  nodes.parent = copy(nodes.parent, cap);
  nodes.via = copy(nodes.via, cap);
  nodes.gOf = copy(nodes.gOf, cap);
  nodes.hOf = copy(nodes.hOf, cap);
  nodes.hashOf = copy(nodes.hashOf, cap);
  nodes.cap = cap;
}

/**
 * Bytes one stored node may cost an engine whose rows take `rowBytes`, as
 * the default node budget counts them: the row twice (arrays are copied
 * when they grow, so old and new rows coexist for a moment), parent, via
 * and hash (12), g and h (16), its share of the hash table (up to 16) and
 * of the open list (36 per entry, about three entries per node).
 */
export function bytesPerNode(rowBytes: number): number {
  return 2 * rowBytes + 12 + 16 + 16 + 108;
}

/**
 * Nodes of a grown hash table's predecessor that move to it per insertion
 * (the table grows incrementally: see the engines' `rehash`). At 4 the move
 * ends when the node count has grown by a quarter, long before the next
 * growth at twice the count.
 */
export const MOVE_PER_INSERT = 4;

/** Walks parent links from the goal node back to the root. */
export function pathOf(p: CompiledProblem, goalNode: number, parent: Int32Array, via: Int32Array): ActionSpec[] {
  const path: ActionSpec[] = [];
  for (let n = goalNode; via[n] !== -1; n = parent[n] as number) path.push(p.actions[via[n] as number]!.spec);
  return path.reverse();
}

/** {@link SearchClock.poll}: go on. */
export const CLOCK_GO = 0;
/** {@link SearchClock.poll}: the slice is over; yield and call `step` again. */
export const CLOCK_PAUSE = 1;
/** {@link SearchClock.poll}: the time budget ran out. */
export const CLOCK_TIME_UP = 2;
/** {@link SearchClock.poll}: the signal aborted the search. */
export const CLOCK_ABORTED = 3;

/** Time between clock readings the clock aims at, in ms: a budget overshoots by about this much plus one node's work. */
const TARGET_MS = 0.1;
const MAX_INTERVAL = 4096;

/**
 * Reads the clock and the abort signal every `interval` nodes, adapting the
 * interval so readings come about every {@link TARGET_MS} whatever a node
 * costs: fast searches read it rarely (a `performance.now()` call costs as
 * much as a cheap expansion), slow ones (costly heuristics or cost
 * functions) at every node. A time budget therefore holds to a fraction of
 * a millisecond, plus the cost of one node.
 */
export class SearchClock {
  /** Work count at which {@link poll} is due. */
  next = 1;
  sliceEnd = Number.POSITIVE_INFINITY;
  #interval = 1;
  #last: number;
  #lastTicks = 0;
  readonly #deadline: number;
  readonly #signal: AbortSignal | undefined;

  constructor(deadline: number, signal: AbortSignal | undefined) {
    this.#deadline = deadline;
    this.#signal = signal;
    this.#last = performance.now();
  }

  /**
   * Starts a slice: time spent outside the search does not count as node
   * cost. The first reading is due after one unit of work, so every slice
   * makes progress however short it is.
   */
  resume(sliceEnd: number, ticks: number): void {
    this.sliceEnd = sliceEnd;
    this.#last = performance.now();
    this.#lastTicks = ticks;
    this.next = ticks + 2;
  }

  /** The verdict at work count `ticks`: one of the `CLOCK_*` codes. */
  poll(ticks: number): number {
    if (this.#signal?.aborted) return CLOCK_ABORTED;
    const now = performance.now();
    const elapsed = now - this.#last;
    const done = ticks - this.#lastTicks;
    this.#last = now;
    this.#lastTicks = ticks;
    if (done > 0) {
      const perTick = elapsed / done;
      const wanted = perTick > 0 ? Math.floor(TARGET_MS / perTick) : MAX_INTERVAL;
      this.#interval = Math.max(1, Math.min(wanted, this.#interval * 2, MAX_INTERVAL));
    }
    // Do not run past the deadline or the slice end by a whole interval.
    const left = Math.min(this.#deadline, this.sliceEnd) - now;
    if (left < TARGET_MS * 4 && this.#interval > 1) this.#interval = Math.max(1, this.#interval >> 2);
    this.next = ticks + this.#interval;
    if (now >= this.#deadline) return CLOCK_TIME_UP;
    if (now >= this.sliceEnd) return CLOCK_PAUSE;
    return CLOCK_GO;
  }
}

/** Builds an engine's outcome, reporting dead ends to the tracer. */
export function finishSearch(
  setup: SearchSetup,
  status: SearchStatus,
  counts: {
    expanded: number;
    generated: number;
    stored: number;
    maxNodes: number;
    limit: BudgetLimit | undefined;
    expansions: SearchRecord[] | undefined;
  },
  path: () => ActionSpec[],
): SearchOutcome {
  const base: SearchOutcome = {
    status,
    actions: null,
    nodesExpanded: counts.expanded,
    nodesGenerated: counts.generated,
    nodesStored: counts.stored,
    maxNodes: counts.maxNodes,
    ...(status === "budget_exhausted" && counts.limit ? { limit: counts.limit } : {}),
    ...(counts.expansions ? { expansions: counts.expansions } : {}),
  };
  if (status !== "found") {
    callTracer(setup.tracer, "onSearchDeadEnd", status === "no_plan" ? "exhausted" : status, { nodesExpanded: counts.expanded });
    return base;
  }
  base.actions = path();
  return base;
}

/** The outcome of a search whose deadline passed while its root was being evaluated. */
export function timeUp(setup: SearchSetup, stored: number, maxNodes: number): SearchOutcome {
  return finishSearch(
    setup,
    "budget_exhausted",
    { expanded: 0, generated: 1, stored, maxNodes, limit: "time", expansions: setup.record ? [] : undefined },
    () => [],
  );
}
