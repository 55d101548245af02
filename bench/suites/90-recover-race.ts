/**
 * Fleets of recoverers: per saver (SqliteSaver, PostgresSaver) and per fleet
 * size (2 and 4 processes), TRIALS trials of a run killed at one of the
 * race kill instants (in turn) and recovered by the whole fleet at once.
 * One JSON line per saver and size: trials, trials with exactly one
 * winner, duplicate steps, contradicted statuses, other errors, wrong
 * executions. PostgreSQL runs when `PG_URL` is set or a private server can
 * be started (scripts/pg.sh).
 *
 *   LANGGOAP_RACE_TRIALS=100 (default) LANGGOAP_RACE_SAVERS=sqlite,postgres LANGGOAP_RACE_SIZES=2,4
 *   npx tsx bench/run.ts recover-race
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { buildChild } from "../../test/support/durable-children.js";
import { dropSchema, type PostgresServer, uniqueSchema, usePostgres } from "../../test/support/postgres.js";
import { RACE_KILL_POINTS, type RaceTrial, recoverRace, type SaverArgs } from "../../test/support/recover-race.js";
import { emit } from "../emit.js";

const TRIALS = Number(process.env.LANGGOAP_RACE_TRIALS ?? 100);
const SAVERS = (process.env.LANGGOAP_RACE_SAVERS ?? "sqlite,postgres").split(",");
const SIZES = (process.env.LANGGOAP_RACE_SIZES ?? "2,4").split(",").map(Number);

async function sweep(name: string, saver: SaverArgs, reader: BaseCheckpointSaver, dir: string): Promise<void> {
  for (const size of SIZES) {
    const trials: RaceTrial[] = [];
    const began = performance.now();
    for (let i = 0; i < TRIALS; i++) {
      const killAt = RACE_KILL_POINTS[i % RACE_KILL_POINTS.length] as string;
      const trial = await recoverRace(saver, reader, dir, `${name}-${size}-${i}`, killAt, size);
      trials.push(trial);
      // Every trial on stderr, so an interrupted sweep still has its counts.
      process.stderr.write(`# ${name} x${size} trial ${i}: ${JSON.stringify(trial)}\n`);
    }
    emit({
      suite: "recover-race",
      saver: name,
      recoverers: size,
      trials: trials.length,
      oneWinner: trials.filter((t) => t.winners === 1).length,
      duplicateSteps: trials.reduce((n, t) => n + t.duplicateSteps, 0),
      trialsWithDuplicates: trials.filter((t) => t.duplicateSteps > 0).length,
      contradictions: trials.reduce((n, t) => n + t.contradictions, 0),
      otherErrors: trials.reduce((n, t) => n + t.otherErrors.length, 0),
      wrongExecutions: trials.filter((t) => t.wrongExecutions).length,
      losersStepClaimed: trials.reduce((n, t) => n + t.outcomes.filter((o) => o === "STEP_CLAIMED").length, 0),
      losersWithStatus: trials.reduce((n, t) => n + t.statusLosers, 0),
      seconds: Math.round((performance.now() - began) / 100) / 10,
    });
  }
}

export default async function recoverRaces(): Promise<void> {
  const removeChild = await buildChild();
  const dir = mkdtempSync(join(tmpdir(), "langgoap-race-"));
  try {
    if (SAVERS.includes("sqlite")) {
      const conn = join(dir, "checkpoints.sqlite");
      const reader = SqliteSaver.fromConnString(conn);
      await sweep("sqlite", { saver: "sqlite", conn }, reader, dir);
    }
    if (SAVERS.includes("postgres")) {
      let server: PostgresServer | undefined;
      try {
        server = await usePostgres();
      } catch (error) {
        process.stderr.write(`# recover-race: PostgreSQL skipped: ${(error as Error).message.split("\n")[0]}\n`);
      }
      if (server) {
        const schema = uniqueSchema("langgoap_race");
        const reader = PostgresSaver.fromConnString(server.url, { schema });
        try {
          await reader.setup();
          await sweep("postgres", { saver: "postgres", conn: server.url, schema }, reader, dir);
        } finally {
          await reader.end();
          await dropSchema(server.url, schema);
          await server.stop();
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    removeChild();
  }
}
