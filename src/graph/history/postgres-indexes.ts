import type { BaseStore } from "@langchain/langgraph";

/** The part of `PostgresStore` (langgraph-checkpoint-postgres 1.x) used to add indexes. */
interface PostgresStoreInternals {
  readonly core?: {
    readonly schema?: unknown;
    withClient?<T>(operation: (client: { query(sql: string): Promise<unknown> }) => Promise<T>): Promise<T>;
  };
}

/** True for LangGraph's `PostgresStore` (an optional peer, so recognised by name). */
export function isPostgresStore(store: BaseStore): boolean {
  return store.constructor?.name === "PostgresStore";
}

/**
 * @internal Adds the indexes execution history needs at scale to a
 * `PostgresStore`'s table: the write and update times (so "the newest 20" walks an
 * index instead of sorting every row) and the fields history filters on
 * (`threadId`, `runId`, `action`). `PostgresStore` filters scalars with
 * `value ->> key = text`, which these expression indexes serve. Idempotent.
 * Returns false when the store's internals are not the ones known here.
 */
export async function addPostgresHistoryIndexes(store: BaseStore): Promise<boolean> {
  const core = (store as unknown as PostgresStoreInternals).core;
  if (typeof core?.withClient !== "function" || typeof core.schema !== "string" || !/^[A-Za-z_][A-Za-z0-9_$]*$/.test(core.schema)) {
    return false;
  }
  const table = `"${core.schema}".store`;
  await core.withClient(async (client) => {
    // `search()` orders by updated_at, `batch()` searches by created_at: both get an index.
    await client.query(`CREATE INDEX IF NOT EXISTS langgoap_store_updated ON ${table} (updated_at DESC)`);
    await client.query(`CREATE INDEX IF NOT EXISTS langgoap_store_created ON ${table} (created_at DESC)`);
    for (const field of ["threadId", "runId", "action"]) {
      const name = `langgoap_store_${field.toLowerCase()}`;
      await client.query(`CREATE INDEX IF NOT EXISTS ${name} ON ${table} ((value ->> '${field}'), updated_at DESC)`);
    }
    // Fresh statistics, so the planner weighs the new indexes before autovacuum gets to the table.
    await client.query(`ANALYZE ${table}`);
  });
  return true;
}
