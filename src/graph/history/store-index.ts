/**
 * A newest-first index of execution records for stores whose searches are
 * unordered and read everything they match (LangGraph's `InMemoryStore`
 * copies every item under the prefix, so `list(20)` over 20,000 records
 * read 20,000). The index is made of items reached by `get`, which every
 * store answers in O(1) or O(log n), so a query reads about what it returns.
 *
 * Layout, all under `[...namespace, "index"]` (one namespace: in-memory
 * searches scan every namespace, so the index must not add one per
 * thread):
 * - `writers/<writer>` in `[...namespace, "index-writers"]`: one item per
 *   writer (one per process and store), so readers know whose streams to
 *   merge.
 * - `<scope>|<writer>|<seq>`: the writer's seq-th record in that scope
 *   (`all`, `goal:<hash>`, `thread:<id>`, `failure:<action>`), holding where
 *   the record is, its time, and the newest time of any entry at or below
 *   seq (so a reader knows when older entries can no longer win).
 * - `<scope>|<writer>|n`: a hint of how many entries the writer has there.
 *
 * Only one writer ever writes its own keys, and it assigns sequence numbers
 * synchronously in memory, so concurrent `record()` calls in a process never
 * read-modify-write a shared item and never lose an entry; another process
 * is another writer. A writer keeps one counter per scope it wrote (per
 * thread, goal and failed action: as many as the store has of those).
 *
 * @internal
 */
import type { BaseStore, PutOperation } from "@langchain/langgraph";
import { randomUuid } from "../../core/uuid.js";
import type { ExecutionRecord } from "./types.js";

/** What a scope's entry says: where the record is and when it was written. */
interface Entry {
  /** Goal hash: the record is `[...namespace, "executions", g]` / `k`. */
  readonly g: string;
  readonly k: string;
  /** The record's time (ms since the epoch). */
  readonly t: number;
  /** The newest `t` of this writer's entries in the scope up to and including this one. */
  readonly m: number;
}

interface StreamState {
  n: number;
  max: number;
}

/** One writer per process, store and namespace. */
class IndexWriter {
  // Web Crypto's, global in Node 20 and browsers: this layer is bundled for the browser.
  readonly id = randomUuid();
  readonly streams = new Map<string, StreamState>();
  registered = false;
}

const writers = new WeakMap<BaseStore, Map<string, IndexWriter>>();

function writerFor(store: BaseStore, namespace: readonly string[]): IndexWriter {
  let byNamespace = writers.get(store);
  if (!byNamespace) {
    byNamespace = new Map();
    writers.set(store, byNamespace);
  }
  const key = namespace.join("\u0000");
  let writer = byNamespace.get(key);
  if (!writer) {
    writer = new IndexWriter();
    byNamespace.set(key, writer);
  }
  return writer;
}

/** The scopes a record is listed under. */
export function scopesOf(record: ExecutionRecord, failures: Iterable<string>): string[] {
  const scopes = ["all", `goal:${record.goalHash}`];
  if (typeof record.threadId === "string" && record.threadId !== "") scopes.push(`thread:${record.threadId}`);
  for (const action of failures) scopes.push(`failure:${action}`);
  return scopes;
}

function indexNamespace(namespace: readonly string[]): string[] {
  return [...namespace, "index"];
}

function writersNamespace(namespace: readonly string[]): string[] {
  return [...namespace, "index-writers"];
}

/**
 * The index items for one record, with sequence numbers assigned now (in
 * the same tick as the call, so concurrent records never share one).
 * `commit` must run after the items were written: until then a failed
 * batch leaves a gap, which readers step over.
 */
export function indexOperations(
  store: BaseStore,
  namespace: readonly string[],
  record: ExecutionRecord & { id: string },
  key: string,
  scopes: readonly string[],
): { operations: PutOperation[]; commit: () => void } {
  const writer = writerFor(store, namespace);
  const ns = indexNamespace(namespace);
  const t = Date.parse(record.timestamp);
  const operations: PutOperation[] = [];
  for (const scope of scopes) {
    let stream = writer.streams.get(scope);
    if (!stream) {
      stream = { n: 0, max: Number.NEGATIVE_INFINITY };
      writer.streams.set(scope, stream);
    }
    const seq = stream.n++;
    stream.max = Math.max(stream.max, t);
    const entry: Entry = { g: record.goalHash, k: key, t, m: stream.max };
    operations.push({ namespace: ns, key: `${scope}|${writer.id}|${seq}`, value: entry as unknown as Record<string, unknown> });
    operations.push({ namespace: ns, key: `${scope}|${writer.id}|n`, value: { n: seq + 1 } });
  }
  if (!writer.registered) operations.push({ namespace: writersNamespace(namespace), key: writer.id, value: { since: record.timestamp } });
  return {
    operations,
    commit: () => {
      writer.registered = true;
    },
  };
}

/** The writers whose streams a reader merges; empty when nothing was ever indexed. */
export async function indexWriters(store: BaseStore, namespace: readonly string[]): Promise<string[]> {
  const ns = writersNamespace(namespace);
  const ids: string[] = [];
  const page = 100;
  for (let offset = 0; ; offset += page) {
    const items = await store.search(ns, { limit: page, offset });
    for (const item of items) if (item.namespace.length === ns.length) ids.push(item.key);
    if (items.length < page) break;
  }
  return ids;
}

/** A writer's stream in one scope, read from its newest entry down. */
class Stream {
  #next: number;
  peeked: Entry | undefined;

  constructor(
    private readonly store: BaseStore,
    private readonly ns: string[],
    private readonly prefix: string,
    top: number,
  ) {
    this.#next = top - 1;
  }

  /** Reads the next older entry, stepping over gaps a failed write left. */
  async advance(): Promise<void> {
    this.peeked = undefined;
    while (this.#next >= 0) {
      const item = await this.store.get(this.ns, `${this.prefix}${this.#next--}`);
      if (item) {
        this.peeked = item.value as unknown as Entry;
        return;
      }
    }
  }
}

async function openStream(store: BaseStore, ns: string[], scope: string, writer: string): Promise<Stream> {
  const prefix = `${scope}|${writer}|`;
  const hint = await store.get(ns, `${prefix}n`);
  let top = typeof hint?.value.n === "number" ? hint.value.n : 0;
  // The hint may lag behind an entry whose batch landed after a later one's: look one further, then more.
  while (await store.get(ns, `${prefix}${top}`)) top++;
  const stream = new Stream(store, ns, prefix, top);
  await stream.advance();
  return stream;
}

/** Newest first; ties by id, descending (as the unindexed path sorts). */
function newer(a: ExecutionRecord, b: ExecutionRecord): number {
  const t = Date.parse(b.timestamp) - Date.parse(a.timestamp);
  if (t !== 0) return t;
  return (a.id ?? "") < (b.id ?? "") ? 1 : (a.id ?? "") > (b.id ?? "") ? -1 : 0;
}

/** The `size` largest numbers seen, as a min-heap: its root is the size-th largest. */
class TopTimes {
  readonly #heap: number[] = [];
  constructor(private readonly size: number) {}

  /** The size-th newest time, or -Infinity until there are that many. */
  get floor(): number {
    return this.#heap.length < this.size ? Number.NEGATIVE_INFINITY : (this.#heap[0] as number);
  }

  add(t: number): void {
    const heap = this.#heap;
    if (heap.length >= this.size) {
      if (t <= (heap[0] as number)) return;
      heap[0] = t;
      this.#down(0);
      return;
    }
    heap.push(t);
    for (let i = heap.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if ((heap[parent] as number) <= (heap[i] as number)) break;
      [heap[parent], heap[i]] = [heap[i] as number, heap[parent] as number];
      i = parent;
    }
  }

  #down(i: number): void {
    const heap = this.#heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && (heap[l] as number) < (heap[m] as number)) m = l;
      if (r < heap.length && (heap[r] as number) < (heap[m] as number)) m = r;
      if (m === i) return;
      [heap[m], heap[i]] = [heap[i] as number, heap[m] as number];
      i = m;
    }
  }
}

/**
 * The newest `limit` records of a scope, merged from every writer's
 * stream: it reads the stream whose next entry may be newest, and stops
 * once `limit` records are newer than anything left (each entry carries the
 * newest time at or below it). `member` checks the record still belongs
 * there (a record written again under the same id replaces the old one).
 * Reads about `limit` entries and `limit` records when records arrive in
 * time order, more only when they arrived out of order.
 */
export async function readIndex(
  store: BaseStore,
  namespace: readonly string[],
  writerIds: readonly string[],
  scope: string,
  limit: number,
  member: (record: ExecutionRecord) => boolean,
): Promise<ExecutionRecord[]> {
  const ns = indexNamespace(namespace);
  const streams = await Promise.all(writerIds.map((w) => openStream(store, ns, scope, w)));
  const found = new Map<string, ExecutionRecord>();
  const top = new TopTimes(Number.isFinite(limit) ? limit : Number.MAX_SAFE_INTEGER);
  for (;;) {
    let best: Stream | undefined;
    for (const s of streams) if (s.peeked && (!best || s.peeked.m > (best.peeked as Entry).m)) best = s;
    if (!best) break;
    const entry = best.peeked as Entry;
    // Strictly newer: a record left with the same time may still sort first by id.
    if (top.floor > entry.m) break;
    await best.advance();
    const item = await store.get([...namespace, "executions", entry.g], entry.k);
    const record = item?.value as ExecutionRecord | undefined;
    if (!record || !member(record)) continue;
    const id = record.id ?? entry.k;
    if (found.has(id)) continue;
    found.set(id, record);
    top.add(Date.parse(record.timestamp));
  }
  return [...found.values()].sort(newer).slice(0, limit);
}
