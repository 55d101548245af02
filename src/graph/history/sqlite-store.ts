import {
  BaseStore,
  type GetOperation,
  type Item,
  type ListNamespacesOperation,
  type MatchCondition,
  type Operation,
  type OperationResults,
  type PutOperation,
  type SearchOperation,
} from "@langchain/langgraph";
import { describeValue, LangGoapError } from "../../core/errors.js";
import { nodeBuiltin } from "../../core/node-builtin.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { compileSqliteFilter } from "./sqlite-filter.js";
import { matchesFilter } from "./store-filter.js";

/** The part of a better-sqlite3 `Database` the store uses (so no type dependency leaks into yours). */
export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  exec(sql: string): unknown;
  pragma(source: string): unknown;
  transaction(fn: (operations: readonly Operation[]) => unknown[]): (operations: readonly Operation[]) => unknown[];
  close(): unknown;
  readonly open: boolean;
}

/** A prepared statement, as better-sqlite3 has it. */
export interface SqliteStatement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

/** Options of {@link SqliteStore.open}. */
export interface SqliteStoreOptions {
  /** Milliseconds a writer waits for another connection's lock. @defaultValue 5000 */
  readonly busyTimeoutMs?: number;
  /**
   * Top-level value fields to index (with the write time), so equality
   * filters on them read only the matching rows, newest first. The
   * defaults serve execution history's queries by thread and by action.
   * @defaultValue ["threadId", "runId", "action"]
   */
  readonly indexedFields?: readonly string[];
}

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

interface Row {
  ns: string;
  key: string;
  value: string;
  created_at: string;
  updated_at: string;
}

/** Labels cannot contain "." (LangGraph's rule), so "." joins them unambiguously. */
const SEP = ".";

function validateNamespace(namespace: readonly string[], allowEmpty = false): void {
  if (!Array.isArray(namespace) || (!allowEmpty && namespace.length === 0)) {
    throw new LangGoapError("STORE_ERROR", `SqliteStore: a namespace must be a non-empty array of labels, got ${describeValue(namespace)}`);
  }
  for (const label of namespace) {
    if (typeof label !== "string" || label === "" || label.includes(SEP)) {
      throw new LangGoapError(
        "STORE_ERROR",
        `SqliteStore: namespace labels must be non-empty strings without ".", got ${describeValue(label)} in ${describeValue(namespace)}`,
      );
    }
  }
}

function toItem(row: Row): Item {
  return {
    namespace: row.ns.split(SEP),
    key: row.key,
    value: JSON.parse(row.value) as Record<string, unknown>,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

function matchesCondition(condition: MatchCondition, namespace: readonly string[]): boolean {
  const { path, matchType } = condition;
  if (path.length > namespace.length) return false;
  const offset = matchType === "suffix" ? namespace.length - path.length : 0;
  return path.every((label, i) => label === "*" || label === namespace[offset + i]);
}

const SQLITE_STORE_OPTIONS_KEYS = { busyTimeoutMs: true, indexedFields: true } as const satisfies OptionKeys<SqliteStoreOptions>;

/**
 * A persistent LangGraph `BaseStore` in one SQLite file (better-sqlite3):
 * get, put, delete, namespace-prefix search with filters (`$eq $ne $gt $gte
 * $lt $lte $in $nin`, nested values compared deeply), pagination, and
 * `listNamespaces` with prefix/suffix/wildcards and `maxDepth`. Each batch
 * runs in one transaction; WAL mode and a busy timeout let several
 * connections (and processes) share a file. Search results are newest
 * first. Semantic (`query`) search is not supported: the query is ignored,
 * as in an `InMemoryStore` without an index.
 *
 * @example
 * ```ts
 * const store = SqliteStore.open("runs.sqlite");
 * await store.put(["runs"], "r1", { status: "ok" });
 * await store.search(["runs"], { filter: { status: "ok" } });
 * store.close();
 * ```
 */
export class SqliteStore extends BaseStore {
  /** How `search` orders its results: newest first, so `StoreExecutionHistory` reads about what a query returns. */
  readonly searchOrder = "newest-first";
  readonly db: SqliteDatabase;
  readonly #statements: {
    get: SqliteStatement;
    upsert: SqliteStatement;
    remove: SqliteStatement;
    namespaces: SqliteStatement;
  };
  /** Search statements by SQL text (a filter's shape decides the text). */
  readonly #searches = new Map<string, SqliteStatement>();
  readonly #runBatch: (operations: readonly Operation[]) => unknown[];
  /** Rows when the planner statistics were last refreshed, and writes since. */
  #rowsAtAnalyze = 0;
  readonly #indexedFields: ReadonlySet<string>;
  #writesSinceAnalyze = 0;

  /** Wraps an open better-sqlite3 database (tables are created if missing). */
  constructor(db: SqliteDatabase, options: SqliteStoreOptions = {}) {
    super();
    checkOptionKeys(options, SQLITE_STORE_OPTIONS_KEYS, "new SqliteStore()");
    if (typeof db?.prepare !== "function" || typeof db.transaction !== "function") {
      throw new LangGoapError("STORE_ERROR", `SqliteStore: expected a better-sqlite3 Database, got ${describeValue(db)}`);
    }
    this.db = db;
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    db.pragma("journal_mode = WAL");
    db.exec(`CREATE TABLE IF NOT EXISTS langgoap_store (
      ns TEXT NOT NULL,
      key TEXT NOT NULL,
      value TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (ns, key)
    )`);
    // Newest-first searches walk these indexes and stop at the page's end instead of sorting every row.
    db.exec("CREATE INDEX IF NOT EXISTS langgoap_store_created ON langgoap_store (created_at)");
    db.exec("CREATE INDEX IF NOT EXISTS langgoap_store_ns_created ON langgoap_store (ns, created_at)");
    this.#indexedFields = new Set(options.indexedFields ?? ["threadId", "runId", "action"]);
    for (const field of this.#indexedFields) {
      if (typeof field !== "string" || !FIELD_NAME.test(field)) {
        throw new LangGoapError(
          "STORE_ERROR",
          `SqliteStore: indexedFields must be identifiers (letters, digits, _), got ${describeValue(field)}`,
        );
      }
      db.exec(
        `CREATE INDEX IF NOT EXISTS langgoap_store_field_${field} ON langgoap_store (json_extract(value, '$."${field}"'), created_at)`,
      );
    }
    // Statistics let SQLite choose between walking the time index and a field or namespace index;
    // a bounded sample keeps refreshing them cheap.
    db.pragma("analysis_limit = 1000");
    this.#rowsAtAnalyze = (db.prepare("SELECT count(*) AS n FROM langgoap_store").get() as { n: number }).n;
    if (this.#rowsAtAnalyze > 0) db.exec("ANALYZE langgoap_store");
    this.#statements = {
      get: db.prepare("SELECT ns, key, value, created_at, updated_at FROM langgoap_store WHERE ns = ? AND key = ?"),
      upsert: db.prepare(
        `INSERT INTO langgoap_store (ns, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ),
      remove: db.prepare("DELETE FROM langgoap_store WHERE ns = ? AND key = ?"),
      namespaces: db.prepare("SELECT DISTINCT ns FROM langgoap_store"),
    };
    this.#runBatch = db.transaction((operations) => operations.map((op) => this.#apply(op)));
  }

  /**
   * Opens (or creates) a database file with better-sqlite3, which must be
   * installed (an optional peer dependency). `":memory:"` gives a private
   * in-memory database.
   */
  static open(filename: string, options: SqliteStoreOptions = {}): SqliteStore {
    let Database: new (filename: string) => SqliteDatabase;
    // Not imported: the root import must bundle for the browser, where this gives NODE_ONLY.
    const { createRequire } = nodeBuiltin("node:module", "SqliteStore");
    try {
      Database = createRequire(import.meta.url)("better-sqlite3") as typeof Database;
    } catch (error) {
      throw new LangGoapError(
        "STORE_ERROR",
        "SqliteStore needs the better-sqlite3 package: npm install better-sqlite3",
        {},
        { cause: error },
      );
    }
    return new SqliteStore(new Database(filename), options);
  }

  override async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results = this.#runBatch(operations) as OperationResults<Op>;
    this.#writesSinceAnalyze += operations.length;
    // Refresh statistics each time the table may have doubled (amortised: a bounded sample per doubling),
    // so a grown table does not keep the plans of an empty one.
    if (this.#writesSinceAnalyze >= Math.max(1000, this.#rowsAtAnalyze)) {
      this.#rowsAtAnalyze += this.#writesSinceAnalyze;
      this.#writesSinceAnalyze = 0;
      this.db.exec("ANALYZE langgoap_store");
    }
    return results;
  }

  /** Closes the database. */
  close(): void {
    if (this.db.open) this.db.close();
  }

  override stop(): void {
    this.close();
  }

  #apply(op: Operation): unknown {
    if ("namespacePrefix" in op) return this.#search(op);
    if ("matchConditions" in op || ("limit" in op && "offset" in op && !("namespace" in op))) {
      return this.#listNamespaces(op as ListNamespacesOperation);
    }
    if ("value" in op) return this.#put(op as PutOperation);
    return this.#get(op as GetOperation);
  }

  #get(op: GetOperation): Item | null {
    validateNamespace(op.namespace);
    const row = this.#statements.get.get(op.namespace.join(SEP), String(op.key)) as Row | undefined;
    return row ? toItem(row) : null;
  }

  #put(op: PutOperation): void {
    validateNamespace(op.namespace);
    const ns = op.namespace.join(SEP);
    if (op.value === null) {
      this.#statements.remove.run(ns, String(op.key));
      return;
    }
    if (typeof op.value !== "object" || Array.isArray(op.value)) {
      throw new LangGoapError("STORE_ERROR", `SqliteStore: a value must be an object, got ${describeValue(op.value)} for key "${op.key}"`);
    }
    const now = new Date().toISOString();
    this.#statements.upsert.run(ns, String(op.key), JSON.stringify(op.value), now, now);
  }

  /**
   * Namespace prefix, filter, order, limit and offset all run in SQL, so a
   * page of the newest items reads about that many rows, whatever the table
   * holds. Filter parts SQL cannot express exactly (deep object equality)
   * are checked in JavaScript on rows streamed in the same order.
   */
  #search(op: SearchOperation): Item[] {
    validateNamespace(op.namespacePrefix, true);
    const offset = op.offset ?? 0;
    const limit = op.limit ?? 10;
    if (!Number.isInteger(offset) || offset < 0)
      throw new LangGoapError("STORE_ERROR", `SqliteStore: offset must be an integer >= 0, got ${describeValue(offset)}`);
    if (!Number.isInteger(limit) || limit < 0)
      throw new LangGoapError("STORE_ERROR", `SqliteStore: limit must be an integer >= 0, got ${describeValue(limit)}`);
    if (limit === 0) return [];
    const where: string[] = [];
    const params: unknown[] = [];
    if (op.namespacePrefix.length > 0) {
      const prefix = op.namespacePrefix.join(SEP);
      // "." + 1 is "/": [prefix, prefix/) is one index range; the OR drops siblings inside it such as "prefix-x".
      where.push("ns >= ? AND ns < ? AND (ns = ? OR ns > ?)");
      params.push(prefix, `${prefix}/`, prefix, `${prefix}${SEP}`);
    }
    const filter = compileSqliteFilter(op.filter);
    where.push(...filter.conditions);
    params.push(...filter.params);
    const conditions = where.length ? ` WHERE ${where.join(" AND ")}` : "";
    const order = " ORDER BY created_at DESC, rowid DESC";
    if (filter.residual === null) {
      if (!filter.equalityKeys.some((k) => this.#indexedFields.has(k))) {
        // Most searches want the newest items of a large part of the table: look among the newest
        // rows first (an index walk that stops early), and only sort the whole range when too few match.
        const window = Math.max(1000, 20 * (limit + offset));
        const recent = `SELECT ns, key, value, created_at, updated_at FROM (SELECT rowid AS id FROM langgoap_store INDEXED BY langgoap_store_created${order} LIMIT ?) AS recent CROSS JOIN langgoap_store ON langgoap_store.rowid = recent.id${conditions}${order} LIMIT ? OFFSET ?`;
        const rows = this.#prepared(recent).all(window, ...params, limit, offset) as Row[];
        if (rows.length === limit) return rows.map(toItem);
      }
      const sql = `SELECT ns, key, value, created_at, updated_at FROM langgoap_store${conditions}${order} LIMIT ? OFFSET ?`;
      return (this.#prepared(sql).all(...params, limit, offset) as Row[]).map(toItem);
    }
    const sql = `SELECT ns, key, value, created_at, updated_at FROM langgoap_store${conditions}${order}`;
    const out: Item[] = [];
    let skipped = 0;
    for (const row of this.#prepared(sql).iterate(...params) as Iterable<Row>) {
      const item = toItem(row);
      if (!matchesFilter(item.value, filter.residual)) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      out.push(item);
      if (out.length >= limit) break;
    }
    return out;
  }

  #prepared(sql: string): SqliteStatement {
    let statement = this.#searches.get(sql);
    if (!statement) {
      // Filters of many shapes must not grow the cache without bound.
      if (this.#searches.size >= 128) this.#searches.clear();
      statement = this.db.prepare(sql);
      this.#searches.set(sql, statement);
    }
    return statement;
  }

  #listNamespaces(op: ListNamespacesOperation): string[][] {
    let namespaces = (this.#statements.namespaces.all() as { ns: string }[]).map((r) => r.ns.split(SEP));
    if (op.matchConditions?.length) namespaces = namespaces.filter((ns) => op.matchConditions?.every((c) => matchesCondition(c, ns)));
    if (op.maxDepth !== undefined) {
      const seen = new Map<string, string[]>();
      for (const ns of namespaces) {
        const cut = ns.slice(0, op.maxDepth);
        seen.set(cut.join(SEP), cut);
      }
      namespaces = [...seen.values()];
    }
    namespaces.sort((a, b) => (a.join(SEP) < b.join(SEP) ? -1 : a.join(SEP) > b.join(SEP) ? 1 : 0));
    const offset = op.offset ?? 0;
    return namespaces.slice(offset, offset + (op.limit ?? namespaces.length));
  }
}
