/**
 * History on LangGraph's PostgresStore against a real PostgreSQL: the CI
 * server from PG_URL, or a private one this file starts (and stops) itself.
 */
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { afterAll, beforeAll, describe } from "vitest";
import { dropSchema, type PostgresServer, uniqueSchema, usePostgres } from "../support/postgres.js";
import { storeContract } from "../support/store-contract.js";

const schema = uniqueSchema("langgoap_history");
let server: PostgresServer | undefined;
let store: PostgresStore | undefined;

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
