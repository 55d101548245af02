import type { BaseStore, Item, PutOperation } from "@langchain/langgraph";
import type { Conditions } from "../../core/conditions.js";
import { describeValue, LangGoapError } from "../../core/errors.js";
import type { GoalSpec } from "../../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { randomUuid } from "../../core/uuid.js";
import { computeGoalHash } from "./goal-hash.js";
import { addPostgresHistoryIndexes, isPostgresStore } from "./postgres-indexes.js";
import { type HistoryPage, type HistoryPageOptions, type StepBlock, StepBlockStore } from "./step-blocks.js";
import { indexOperations, indexWriters, readIndex, scopesOf } from "./store-index.js";
import type { ExecutionHistory, ExecutionRecord } from "./types.js";

/** Options of {@link StoreExecutionHistory}. */
export interface StoreExecutionHistoryOptions {
  /** Namespace prefix of everything this history writes. @defaultValue ["langgoap"] */
  readonly namespace?: readonly string[];
  /** Items fetched per store search while reading. @defaultValue 500 */
  readonly pageSize?: number;
  /**
   * Keep every run's executed actions (`recordSteps`), so runs longer than
   * the state's history window can be read back whole
   * ({@link StoreExecutionHistory.readRunHistory}). @defaultValue true
   */
  readonly steps?: boolean;
  /**
   * How the store orders search results. `"newest-first"` (SqliteStore and
   * PostgresStore do) lets `list(20)` read about 20 items of a search. On
   * an `"unordered"` store (`InMemoryStore`, any other) the history keeps
   * its own newest-first index in the store, read with `get`, so queries
   * read about what they return there too (see `store-index.ts`).
   * @defaultValue `"newest-first"` for SqliteStore and PostgresStore, else `"unordered"`
   */
  readonly searchOrder?: "newest-first" | "unordered";
}

/**
 * Stores known to return search results newest first (by time written):
 * those that say so (`SqliteStore`'s `searchOrder`; read by name, so the
 * SQLite store stays out of an app that never opens one) and PostgresStore.
 */
function ordersNewestFirst(store: BaseStore): boolean {
  return (store as { searchOrder?: unknown }).searchOrder === "newest-first" || isPostgresStore(store);
}

/** One preparation per store, shared by every history on it. */
const prepared = new WeakMap<BaseStore, Promise<void>>();

/**
 * LangGraph hands nodes its store wrapped in an `AsyncBatchedStore`, whose
 * own `batch` throws; the wrapped store does the work (and keeps a record
 * and its failure index in one transaction).
 */
function unwrapStore(store: BaseStore): BaseStore {
  const wrapper = store as BaseStore & { lg_name?: unknown; store?: unknown };
  return wrapper.lg_name === "AsyncBatchedStore" && wrapper.store instanceof Object ? (wrapper.store as BaseStore) : store;
}

const histories = new WeakMap<BaseStore, StoreExecutionHistory>();

/**
 * @internal The history a graph writes to when it runs with a LangGraph
 * store and was given no history of its own: one per store, under
 * `["langgoap"]`.
 */
export function historyForStore(store: BaseStore): StoreExecutionHistory {
  store = unwrapStore(store);
  let history = histories.get(store);
  if (!history) {
    history = new StoreExecutionHistory(store);
    histories.set(store, history);
  }
  return history;
}

const OUTCOMES = new Set(["success", "failed", "partial"]);

function fail(message: string, details: Record<string, unknown> = {}, cause?: unknown): never {
  throw new LangGoapError("STORE_ERROR", message, details, cause === undefined ? undefined : { cause });
}

function checkRecord(record: ExecutionRecord): void {
  if (typeof record !== "object" || record === null)
    fail(`ExecutionHistory.record: expected an ExecutionRecord, got ${describeValue(record)}`);
  const bad = (field: string, expected: string, value: unknown): never =>
    fail(`ExecutionHistory.record: ${field} must be ${expected}, got ${describeValue(value)}`, { field });
  if (typeof record.goalHash !== "string" || !/^[0-9a-f]{1,64}$/.test(record.goalHash)) bad("goalHash", "a hex string", record.goalHash);
  if (record.id !== undefined && (typeof record.id !== "string" || record.id === "")) bad("id", "a non-empty string", record.id);
  if (!OUTCOMES.has(record.outcome)) bad("outcome", '"success", "failed" or "partial"', record.outcome);
  if (!Array.isArray(record.planActions) || !record.planActions.every((a) => typeof a === "string")) {
    bad("planActions", "an array of action names", record.planActions);
  }
  if (!Array.isArray(record.failedActions) || !record.failedActions.every((a) => typeof a === "string")) {
    bad("failedActions", "an array of action names", record.failedActions);
  }
  if (typeof record.timestamp !== "string" || Number.isNaN(Date.parse(record.timestamp)))
    bad("timestamp", "an ISO-8601 time", record.timestamp);
  for (const field of ["expectedCost", "actualCost", "replanCount"] as const) {
    if (typeof record[field] !== "number" || !Number.isFinite(record[field])) bad(field, "a finite number", record[field]);
  }
}

/** Newest first; ties broken by id so the order is stable. */
function newestFirst(a: ExecutionRecord, b: ExecutionRecord): number {
  const t = Date.parse(b.timestamp) - Date.parse(a.timestamp);
  if (t !== 0) return t;
  return (a.id ?? "") < (b.id ?? "") ? 1 : (a.id ?? "") > (b.id ?? "") ? -1 : 0;
}

const STORE_EXECUTION_HISTORY_OPTIONS_KEYS = {
  namespace: true,
  pageSize: true,
  steps: true,
  searchOrder: true,
} as const satisfies OptionKeys<StoreExecutionHistoryOptions>;

const HISTORY_PAGE_OPTIONS_KEYS = { cursor: true, limit: true } as const satisfies OptionKeys<HistoryPageOptions>;

/**
 * Execution history on any LangGraph `BaseStore` (InMemoryStore, SqliteStore,
 * PostgresStore, ...). Every record is its own item — under
 * `[...namespace, "executions", goalHash]` — and each failure index entry is
 * its own item too (`[...namespace, "failures"]`, found with a filter), so
 * concurrent writers never overwrite each other: nothing is read, modified
 * and written back. (LangGOAP's shared index lists lost ids under
 * concurrency; this layout cannot.)
 *
 * A run is indexed as a failure of each action that failed during it, and,
 * when its outcome is `failed`, of every action of its final plan.
 *
 * @example
 * ```ts
 * const history = new StoreExecutionHistory(new InMemoryStore());
 * const graph = new GoapGraph(actions, { history });
 * await graph.invoke({ published: true }, {});
 * (await history.queryByGoal({ published: true }))[0]?.outcome; // "success"
 * ```
 */
export class StoreExecutionHistory implements ExecutionHistory {
  readonly store: BaseStore;
  readonly namespace: readonly string[];
  readonly #pageSize: number;
  readonly #newestFirst: boolean;
  readonly #steps: StepBlockStore;
  readonly #keepSteps: boolean;

  constructor(store: BaseStore, options: StoreExecutionHistoryOptions = {}) {
    checkOptionKeys(options, STORE_EXECUTION_HISTORY_OPTIONS_KEYS, "new StoreExecutionHistory()");
    if (typeof store?.batch !== "function" || typeof store.search !== "function") {
      fail(`StoreExecutionHistory: expected a LangGraph BaseStore, got ${describeValue(store)}`);
    }
    const namespace = [...(options.namespace ?? ["langgoap"])];
    if (namespace.length === 0 || namespace.some((l) => typeof l !== "string" || l === "" || /[.:]/.test(l))) {
      fail(`StoreExecutionHistory: namespace must be non-empty labels without "." or ":", got ${describeValue(namespace)}`);
    }
    const pageSize = options.pageSize ?? 500;
    if (!Number.isInteger(pageSize) || pageSize < 1)
      fail(`StoreExecutionHistory: pageSize must be an integer >= 1, got ${describeValue(pageSize)}`);
    store = unwrapStore(store);
    this.store = store;
    this.namespace = Object.freeze(namespace);
    this.#pageSize = pageSize;
    const order = options.searchOrder ?? (ordersNewestFirst(store) ? "newest-first" : "unordered");
    if (order !== "newest-first" && order !== "unordered") {
      fail(`StoreExecutionHistory: searchOrder must be "newest-first" or "unordered", got ${describeValue(order)}`);
    }
    this.#newestFirst = order === "newest-first";
    this.#steps = new StepBlockStore(store, this.namespace);
    this.#keepSteps = options.steps !== false;
  }

  /** The stable hash a goal is filed under (see `computeGoalHash`). */
  static goalHashFor(goal: GoalSpec | Conditions): string {
    return computeGoalHash(goal);
  }

  /**
   * Prepares the store for queries at scale; idempotent, and run by the
   * first query on its own (where a failure only leaves queries slower).
   * On a `PostgresStore` it adds indexes on the write time and on
   * `threadId`, `runId` and `action` to the store's table, so `list(20)`
   * and the queries by thread and by action read about 20 rows; a
   * `SqliteStore` creates its indexes when opened; other stores need
   * nothing.
   *
   * @example
   * ```ts
   * const history = new StoreExecutionHistory(PostgresStore.fromConnString(url));
   * await history.setup(); // throws if the indexes cannot be created
   * ```
   */
  async setup(): Promise<void> {
    if (!isPostgresStore(this.store)) return;
    let done = prepared.get(this.store);
    if (!done) {
      done = addPostgresHistoryIndexes(this.store).then(() => undefined);
      prepared.set(this.store, done);
      // A failed attempt may be retried by a later explicit setup().
      done.catch(() => prepared.delete(this.store));
    }
    try {
      await done;
    } catch (error) {
      fail(`StoreExecutionHistory.setup: could not index the store: ${(error as Error)?.message ?? error}`, {}, error);
    }
  }

  /** Stores a record (assigning an id when it has none) and returns its id. */
  async record(record: ExecutionRecord): Promise<string> {
    checkRecord(record);
    const id = record.id ?? randomUuid();
    const stored = JSON.parse(JSON.stringify({ ...record, id })) as ExecutionRecord;
    const failures = new Set(record.failedActions);
    if (record.outcome === "failed") for (const name of record.planActions) failures.add(name);
    const operations: PutOperation[] = [
      { namespace: this.#executions(record.goalHash), key: id, value: stored as unknown as Record<string, unknown> },
      ...[...failures].map((action) => ({ namespace: this.#failures(), key: `${id}/${action}`, value: { action, record: stored } })),
    ];
    // Unordered stores get the newest-first index, in the same batch as the record.
    const index = this.#newestFirst
      ? undefined
      : indexOperations(this.store, this.namespace, { ...stored, id }, id, scopesOf(stored, failures));
    if (index) operations.push(...index.operations);
    try {
      await this.store.batch(operations);
    } catch (error) {
      fail(`StoreExecutionHistory: the store could not save record ${id}: ${(error as Error)?.message ?? error}`, { id }, error);
    }
    index?.commit();
    return id;
  }

  /** Stores one block of a run's executed actions (the graph calls it; see {@link ExecutionHistory.recordSteps}). */
  async recordSteps(block: StepBlock): Promise<void> {
    if (this.#keepSteps) await this.#steps.write(block);
  }

  /**
   * One page of a run's executed actions, oldest first, from the store:
   * every record of a run that ended, however long (the run's state keeps
   * only a window of the newest 256–511 records of long runs). Pages hold
   * at most 1,000 records; pass `nextCursor` back for the next one.
   *
   * @example
   * ```ts
   * let page = await history.readRunHistory(runId, { limit: 500 });
   * const all = [...page.steps];
   * while (page.nextCursor) {
   *   page = await history.readRunHistory(runId, { cursor: page.nextCursor, limit: 500 });
   *   all.push(...page.steps);
   * }
   * ```
   */
  async readRunHistory(runId: string, options: HistoryPageOptions = {}): Promise<HistoryPage> {
    checkOptionKeys(options, HISTORY_PAGE_OPTIONS_KEYS, "readRunHistory()");
    return this.#steps.readRun(runId, options);
  }

  /**
   * One page of every run of a checkpointer thread, runs in the order they
   * started, each run's actions oldest first (see
   * {@link StoreExecutionHistory.readRunHistory}).
   *
   * @example
   * ```ts
   * const page = await history.readThreadHistory("t1", { limit: 1000 });
   * page.steps.map((s) => `${s.runId}#${s.index} ${s.actionName}`);
   * ```
   */
  async readThreadHistory(threadId: string, options: HistoryPageOptions = {}): Promise<HistoryPage> {
    return this.#steps.readThread(threadId, options);
  }

  /** Records of one goal (a hash, a `GoalSpec` or bare conditions), newest first. */
  async queryByGoal(goal: string | GoalSpec | Conditions, limit = 10): Promise<ExecutionRecord[]> {
    const hash = typeof goal === "string" ? goal : computeGoalHash(goal);
    return (
      (await this.#indexed(`goal:${hash}`, limit, (r) => r.goalHash === hash)) ??
      this.#query(this.#executions(hash), limit, (i) => i.value as ExecutionRecord)
    );
  }

  /** Records of runs in which `actionName` failed (or that failed with it in the plan), newest first. */
  async queryFailures(actionName: string, limit = 10): Promise<ExecutionRecord[]> {
    if (typeof actionName !== "string" || actionName === "")
      fail(`StoreExecutionHistory.queryFailures: expected an action name, got ${describeValue(actionName)}`);
    const failedIn = (r: ExecutionRecord) =>
      r.failedActions.includes(actionName) || (r.outcome === "failed" && r.planActions.includes(actionName));
    return (
      (await this.#indexed(`failure:${actionName}`, limit, failedIn)) ??
      this.#query(this.#failures(), limit, (i) => (i.value as { record: ExecutionRecord }).record, { action: actionName })
    );
  }

  /**
   * Records of runs on one checkpointer thread, newest first.
   *
   * @example
   * ```ts
   * await graph.compile({ checkpointer, store }).invoke(graph.createInput(goal, {}), { configurable: { thread_id: "t1" } });
   * // With no `history` option, the graph records to its store under ["langgoap"]:
   * (await new StoreExecutionHistory(store).queryByThread("t1"))[0]?.status; // "goal_achieved"
   * ```
   */
  async queryByThread(threadId: string, limit = 10): Promise<ExecutionRecord[]> {
    if (typeof threadId !== "string" || threadId === "")
      fail(`StoreExecutionHistory.queryByThread: expected a thread id, got ${describeValue(threadId)}`);
    const indexed = await this.#indexed(`thread:${threadId}`, limit, (r) => r.threadId === threadId);
    if (indexed) return indexed;
    const prefix = [...this.namespace, "executions"];
    return this.#query(
      prefix,
      limit,
      (i) => i.value as ExecutionRecord,
      { threadId },
      (ns) => ns.length === prefix.length + 1,
    );
  }

  /** Every record of every goal (or the newest `limit`), newest first. */
  async list(limit = Number.POSITIVE_INFINITY): Promise<ExecutionRecord[]> {
    const indexed = await this.#indexed("all", limit, () => true);
    if (indexed) return indexed;
    const prefix = [...this.namespace, "executions"];
    return this.#query(
      prefix,
      limit,
      (i) => i.value as ExecutionRecord,
      undefined,
      (ns) => ns.length === prefix.length + 1,
    );
  }

  /**
   * The newest `limit` records under `namespace`. On a newest-first store it
   * reads pages until it has `limit` (so `list(20)` reads about 20 items);
   * on other stores it reads every match and sorts.
   */
  async #query(
    namespace: string[],
    limit: number,
    toRecord: (item: Item) => ExecutionRecord,
    filter?: Record<string, unknown>,
    accept?: (ns: readonly string[]) => boolean,
  ): Promise<ExecutionRecord[]> {
    if (!(limit >= 0)) fail(`StoreExecutionHistory: limit must be >= 0, got ${describeValue(limit)}`);
    if (limit === 0) return [];
    // Indexes only make queries faster: a store that refuses them still answers.
    await this.setup().catch(() => undefined);
    const items = await this.#searchAll(namespace, filter, accept, this.#newestFirst ? limit : Number.POSITIVE_INFINITY);
    return this.#top(items.map(toRecord), limit);
  }

  /**
   * The newest `limit` records of a scope from the index of an unordered
   * store, or `undefined` when the store is ordered or holds no index (its
   * records were written before there was one, or by hand): then the
   * caller searches.
   */
  async #indexed(scope: string, limit: number, member: (record: ExecutionRecord) => boolean): Promise<ExecutionRecord[] | undefined> {
    if (this.#newestFirst) return undefined;
    if (!(limit >= 0)) fail(`StoreExecutionHistory: limit must be >= 0, got ${describeValue(limit)}`);
    if (limit === 0) return [];
    try {
      const writers = await indexWriters(this.store, this.namespace);
      if (writers.length === 0) return undefined;
      return await readIndex(this.store, this.namespace, writers, scope, limit, member);
    } catch (error) {
      return fail(
        `StoreExecutionHistory: the store search under ${[...this.namespace, "index"].join("/")} failed: ${(error as Error)?.message ?? error}`,
        {},
        error,
      );
    }
  }

  #executions(goalHash: string): string[] {
    return [...this.namespace, "executions", goalHash];
  }

  #failures(): string[] {
    return [...this.namespace, "failures"];
  }

  #top(records: ExecutionRecord[], limit: number): ExecutionRecord[] {
    if (!(limit >= 0)) fail(`StoreExecutionHistory: limit must be >= 0, got ${describeValue(limit)}`);
    return records.sort(newestFirst).slice(0, limit);
  }

  /** Pages through a search, keeping items whose namespace is exactly the one asked for (stores match by prefix). */
  async #searchAll(
    namespace: string[],
    filter?: Record<string, unknown>,
    accept: (ns: readonly string[]) => boolean = (ns) => ns.length === namespace.length,
    enough = Number.POSITIVE_INFINITY,
  ): Promise<Item[]> {
    const found = new Map<string, Item>();
    // Small first pages when few items are wanted; a store that matches sibling prefixes may need more.
    const pageSize = Math.min(this.#pageSize, Math.max(enough, 1));
    try {
      for (let offset = 0; found.size < enough; offset += pageSize) {
        const page = await this.store.search(namespace, { ...(filter ? { filter } : {}), limit: pageSize, offset });
        for (const item of page) {
          if (accept(item.namespace) && item.namespace.every((l, i) => i >= namespace.length || l === namespace[i])) {
            found.set(`${item.namespace.join("/")}\u0000${item.key}`, item);
          }
        }
        if (page.length < pageSize) break;
      }
    } catch (error) {
      fail(`StoreExecutionHistory: the store search under ${namespace.join("/")} failed: ${(error as Error)?.message ?? error}`, {}, error);
    }
    return [...found.values()];
  }
}
