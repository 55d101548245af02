/** @internal `src/graph.ts` of a scaffolded deployment: the module `langgraph.json` points at. */
export function graphTemplate(graphId: string): string {
  return `import { compileServedGraph, GoapGraph } from "langgoap/graph";
import { actions } from "./actions.js";

/**
 * The graph the LangGraph API server serves (langgraph.json: "${graphId}").
 * Its input is { goal, worldState } and its output { status, worldState,
 * plan, executionHistory }. It has no checkpointer or store of its own: the
 * server gives it one, so every thread is a durable, resumable run, and
 * execution history is recorded to the server's store.
 */
export const graph = compileServedGraph(new GoapGraph(actions), { name: ${JSON.stringify(graphId)} });
`;
}

/** @internal `src/server.ts` of a scaffolded deployment: the self-hosted server on PostgreSQL. */
export function serverTemplate(graphId: string): string {
  return `/**
 * A self-hosted server for the graph: LangGraph's thread and run API
 * (createEmbedServer from @langchain/langgraph-api) over PostgreSQL. Every
 * process started with the same DATABASE_URL shares threads, checkpoints
 * and execution history, so a run paused on one process (a human approval)
 * is resumed by any other. Run as many as you need behind a load balancer.
 *
 *   DATABASE_URL=postgresql://user:pass@host:5432/db PORT=8123 npm start
 *
 * The run fleet: runs enqueued with POST /fleet/runs ({ goal, worldState,
 * runId?, threadId? }) are spread over every process on the database
 * (FLEET_CONCURRENCY at once in each, default 4); when a process dies,
 * the others take its runs over once its lease expires, so every run ends
 * without a person. GET /fleet/runs/:runId reads one back.
 *
 * DATABASE_SCHEMA picks the PostgreSQL schema (default: public); HOST the
 * interface to listen on (default: 127.0.0.1).
 */
import { serve } from "@hono/node-server";
import { createEmbedServer } from "@langchain/langgraph-api/experimental/embed";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { PostgresStore } from "@langchain/langgraph-checkpoint-postgres/store";
import { GoapGraph, LangGoapError } from "langgoap";
import { StoreThreadSaver } from "langgoap/integrations";
import { FleetWorker } from "langgoap/node";
import { actions } from "./actions.js";
import { graph } from "./graph.js";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("server: set DATABASE_URL to a PostgreSQL connection string");
  process.exit(2);
}
const schema = process.env.DATABASE_SCHEMA ?? "public";
const checkpointer = PostgresSaver.fromConnString(url, { schema });
const store = PostgresStore.fromConnString(url, { schema });
await checkpointer.setup();
await store.setup();

// langgraph-api types graphs as a Pregel with older generic defaults; the compiled graph is one at run time.
type ServedGraphs = Parameters<typeof createEmbedServer>[0]["graph"];

const app = createEmbedServer({
  graph: { ${JSON.stringify(graphId)}: graph } as unknown as ServedGraphs,
  checkpointer,
  store,
  threads: new StoreThreadSaver(store, { checkpointer }),
});

// The fleet's worker: its own bounded pool for the queue and the checkpoints of the runs it executes.
const fleet = new FleetWorker({
  graph: new GoapGraph(actions),
  connectionString: url,
  schema,
  concurrency: Number(process.env.FLEET_CONCURRENCY ?? 4),
});
await fleet.start();
app.post("/fleet/runs", async (c) => {
  try {
    return c.json(await fleet.queue.enqueue(await c.req.json()), 202);
  } catch (error) {
    if (error instanceof LangGoapError && error.code !== "STORE_ERROR") return c.json({ error: error.code, message: error.message }, 400);
    throw error;
  }
});
app.get("/fleet/runs/:runId", async (c) => {
  const run = await fleet.queue.get(c.req.param("runId"));
  return run ? c.json(run) : c.json({ error: "NOT_FOUND", message: "no such run" }, 404);
});

const port = Number(process.env.PORT ?? 8123);
const hostname = process.env.HOST ?? "127.0.0.1";
const server = serve({ fetch: app.fetch, port, hostname }, (info) => {
  console.log(\`${graphId}: listening on http://\${hostname}:\${info.port}\`);
});

async function shutdown(): Promise<void> {
  server.close();
  // Lets the runs this process executes finish (up to 30 s), then releases the rest to the other processes.
  await fleet.stop();
  await Promise.allSettled([checkpointer.end(), store.stop()]);
  process.exit(0);
}
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);
`;
}
