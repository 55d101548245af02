/**
 * The deployment graph on PostgreSQL, as the LangGraph API server runs it
 * when scaled out: every replica loads the same graph and shares one
 * Postgres checkpointer, so a run paused on one replica finishes on another.
 * Without PostgreSQL it skips with one printed line (fails under
 * LANGGOAP_REQUIRE_POSTGRES=1).
 */
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { successfulActionNames } from "../../src/graph/index.js";
import { createDeploymentGraph } from "../../src/integrations/index.js";
import { dropSchema, type PostgresServer, uniqueSchema, usePostgres } from "../support/postgres.js";
import { requirePostgres } from "../support/requirements.js";

const postgresHere = requirePostgres("deployment graph on PostgreSQL");

const schema = uniqueSchema("langgoap_deploy");
let server: PostgresServer | undefined;
const savers: PostgresSaver[] = [];

/** One server replica: the graph module's export with the shared Postgres checkpointer assigned. */
async function replica() {
  const saver = PostgresSaver.fromConnString((server as PostgresServer).url, { schema });
  savers.push(saver);
  await saver.setup();
  const graph = createDeploymentGraph({ logger: {} });
  graph.checkpointer = saver;
  return graph;
}

describe.runIf(postgresHere.available)("the deployment graph on a Postgres checkpointer", () => {
  beforeAll(async () => {
    server = await usePostgres();
  }, 120_000);

  afterAll(async () => {
    await Promise.all(savers.map((s) => s.end()));
    if (server) {
      await dropSchema(server.url, schema);
      await server.stop();
    }
  }, 60_000);

  it("pauses on one replica and finishes on another from the shared checkpoint", async () => {
    const first = await replica();
    const thread = { configurable: { thread_id: "scaled-1" } };
    const paused = await first.invoke(
      { goal: { published: true }, worldState: { topic: "GOAP", fast_writer_down: true } },
      { ...thread, interruptBefore: ["executor"] },
    );
    expect(paused.status).toBe("executing");
    expect(paused.plan?.actions).toEqual(["research", "write_fast", "publish"]);

    const second = await replica();
    expect((await second.getState(thread)).next).toEqual(["executor"]);
    const finished = await second.invoke(null, thread);
    expect(finished.status).toBe("goal_achieved");
    expect((await second.getState(thread)).values.replanCount).toBe(1);
    expect(successfulActionNames(finished)).toEqual(["research", "write_premium", "publish"]);
    expect((await first.getState(thread)).values.status).toBe("goal_achieved");
  });
});
