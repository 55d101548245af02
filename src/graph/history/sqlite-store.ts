import { createRequire } from "node:module";
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
import { describeValue, LangGoapError } from "../../core/index.js";
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
}

/** Options of {@link SqliteStore.open}. */
export interface SqliteStoreOptions {
  /** Milliseconds a writer waits for another connection's lock. @defaultValue 5000 */
  readonly busyTimeoutMs?: number;
}

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
  readonly db: SqliteDatabase;
  readonly #statements: {
    get: SqliteStatement;
    upsert: SqliteStatement;
    remove: SqliteStatement;
    searchAll: SqliteStatement;
    searchPrefix: SqliteStatement;
    namespaces: SqliteStatement;
  };
  readonly #runBatch: (operations: readonly Operation[]) => unknown[];

  /** Wraps an open better-sqlite3 database (tables are created if missing). */
  constructor(db: SqliteDatabase, options: SqliteStoreOptions = {}) {
    super();
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
    this.#statements = {
      get: db.prepare("SELECT ns, key, value, created_at, updated_at FROM langgoap_store WHERE ns = ? AND key = ?"),
      upsert: db.prepare(
        `INSERT INTO langgoap_store (ns, key, value, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (ns, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      ),
      remove: db.prepare("DELETE FROM langgoap_store WHERE ns = ? AND key = ?"),
      searchAll: db.prepare("SELECT ns, key, value, created_at, updated_at FROM langgoap_store ORDER BY created_at DESC, rowid DESC"),
      searchPrefix: db.prepare(
        `SELECT ns, key, value, created_at, updated_at FROM langgoap_store
         WHERE ns = @prefix OR substr(ns, 1, length(@prefix) + 1) = @prefix || '${SEP}'
         ORDER BY created_at DESC, rowid DESC`,
      ),
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
    return this.#runBatch(operations) as OperationResults<Op>;
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

  #search(op: SearchOperation): Item[] {
    validateNamespace(op.namespacePrefix, true);
    const rows = (
      op.namespacePrefix.length === 0
        ? this.#statements.searchAll.all()
        : this.#statements.searchPrefix.all({ prefix: op.namespacePrefix.join(SEP) })
    ) as Row[];
    const offset = op.offset ?? 0;
    const limit = op.limit ?? 10;
    const out: Item[] = [];
    let skipped = 0;
    for (const row of rows) {
      if (out.length >= limit) break;
      const item = toItem(row);
      if (op.filter && !matchesFilter(item.value, op.filter)) continue;
      if (skipped < offset) {
        skipped++;
        continue;
      }
      out.push(item);
    }
    return out;
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
