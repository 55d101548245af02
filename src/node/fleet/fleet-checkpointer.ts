import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { LangGoapError } from "../../core/index.js";
import { messageOf } from "./fleet-log.js";
import type { FleetPool } from "./fleet-pool.js";

/**
 * @internal The fleet's default checkpointer: a `PostgresSaver` on the
 * worker's pool (so the runs' checkpoints count against its connections),
 * its tables created when missing under a session advisory lock, since
 * processes starting together would otherwise race on CREATE TABLE.
 */
export async function fleetCheckpointer(pool: FleetPool, schema: string): Promise<BaseCheckpointSaver> {
  let saver: BaseCheckpointSaver & { setup(): Promise<void> };
  try {
    const { PostgresSaver } = await import("@langchain/langgraph-checkpoint-postgres");
    saver = new PostgresSaver(pool as never, undefined, { schema });
  } catch (error) {
    throw new LangGoapError(
      "STORE_ERROR",
      "FleetWorker: the default checkpointer needs @langchain/langgraph-checkpoint-postgres (npm install it) or pass options.checkpointer",
      { package: "@langchain/langgraph-checkpoint-postgres" },
      { cause: error },
    );
  }
  const client = await pool.connect();
  const key = `langgoap-fleet-checkpoints:${schema}`;
  try {
    await client.query("SELECT pg_advisory_lock(hashtext($1))", [key]);
    try {
      await saver.setup();
    } finally {
      await client.query("SELECT pg_advisory_unlock(hashtext($1))", [key]);
    }
    client.release();
  } catch (error) {
    client.release(true);
    throw new LangGoapError(
      "STORE_ERROR",
      `FleetWorker: the checkpointer's tables could not be set up: ${messageOf(error)}`,
      {},
      { cause: error },
    );
  }
  return saver;
}
