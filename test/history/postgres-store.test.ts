/**
 * History on LangGraph's PostgresStore against a real PostgreSQL: the CI
 * server from PG_URL, or a private one this file starts (and stops) itself.
 * Without PostgreSQL it skips with one printed line (fails under
 * LANGGOAP_REQUIRE_POSTGRES=1).
 */
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StoreExecutionHistory } from "../../src/graph/history/index.js";
import { dropSchema, type PostgresServer, uniqueSchema, usePostgres } from "../support/postgres.js";
import { requirePostgres } from "../support/requirements.js";
import { storeContract } from "../support/store-contract.js";

const postgresHere = requirePostgres("PostgresStore history");

const schema = uniqueSchema("langgoap_history");
let server: PostgresServer | undefined;
let store: PostgresStore | undefined;

describe.runIf(postgresHere.available)("PostgreSQL", () => {
  beforeAll(async () => {
    server = await usePostgres();
    store = PostgresStore.fromConnString(server.url, { schema });
    await store.setup();
  }, 120_000);

  afterAll(async () => {
    await store?.stop();
    if (server) {
      await dropSchema(server.url, schema);
      await server.stop();
    }
  }, 60_000);

  describe("PostgresStore", () => {
    // PostgresStore (langgraph-checkpoint-postgres 1.0.5) matches namespace prefixes with LIKE 'a:b%'
    // and drops namespaces deeper than maxDepth; StoreExecutionHistory copes with both.
    storeContract(() => store as PostgresStore, { prefixMatchesSiblings: true, maxDepthDropsDeeper: true });
  });

  describe("StoreExecutionHistory on PostgresStore", () => {
    it("indexes the store's table for newest-first, thread and action queries", async () => {
      const history = new StoreExecutionHistory(store as PostgresStore);
      await history.setup();
      await history.setup(); // idempotent
      const { createRequire } = await import("node:module");
      const pg = createRequire(import.meta.url)("pg") as {
        Client: new (o: {
          connectionString: string;
        }) => {
          connect(): Promise<void>;
          query(sql: string, params: unknown[]): Promise<{ rows: { indexname: string }[] }>;
          end(): Promise<void>;
        };
      };
      const client = new pg.Client({ connectionString: (server as PostgresServer).url });
      await client.connect();
      const { rows } = await client.query("SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND indexname LIKE 'langgoap%'", [
        schema,
      ]);
      await client.end();
      expect(rows.map((r) => r.indexname).sort()).toEqual([
        "langgoap_store_action",
        "langgoap_store_created",
        "langgoap_store_runid",
        "langgoap_store_threadid",
        "langgoap_store_updated",
      ]);
    });
  });
});
