/**
 * Fleets of recoverers with real processes: a run is killed (SIGKILL) at
 * one instant, then 2 or 4 fresh processes call `recover()` on the thread
 * at the same moment. Exactly one runs the rest of the run; every other
 * runs nothing and is told `STEP_CLAIMED` (or, asking after the winner
 * ended, the thread's final status); no step runs twice or under two
 * idempotency keys. A few trials here (each is several processes); the
 * 100-trial sweep is `npx tsx bench/run.ts recover-race`. The PostgreSQL
 * half skips with one printed line without a server (fails under
 * LANGGOAP_REQUIRE_POSTGRES=1).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { PostgresSaver } from "@langchain/langgraph-checkpoint-postgres";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildChild } from "../support/durable-children.js";
import { dropSchema, type PostgresServer, uniqueSchema, usePostgres } from "../support/postgres.js";
import { type RaceTrial, recoverRace, type SaverArgs } from "../support/recover-race.js";
import { requirePostgres } from "../support/requirements.js";

/** Kill instants of the trials here: a planning round, a step claimed but not started, one in flight, one saved. */
const POINTS = ["plan", "s1:claimed", "s3:during", "s3:saved"] as const;

const postgresHere = requirePostgres("concurrent recover() on PostgresSaver");

let removeChild: () => void = () => {};
beforeAll(async () => {
  removeChild = await buildChild();
}, 60_000);
afterAll(() => removeChild());

async function fleets(saver: SaverArgs, reader: BaseCheckpointSaver, dir: string): Promise<void> {
  const trials: RaceTrial[] = [];
  for (const [i, killAt] of POINTS.entries()) {
    const size = i % 2 === 0 ? 2 : 4;
    trials.push(await recoverRace(saver, reader, dir, `${saver.saver}-fleet-${i}`, killAt, size));
  }
  expect(
    trials.map((t) => ({
      killAt: t.killAt,
      winners: t.winners,
      duplicateSteps: t.duplicateSteps,
      contradictions: t.contradictions,
      otherErrors: t.otherErrors,
      wrongExecutions: t.wrongExecutions,
      // The winner reports goal_achieved. A loser that asks while the winner's recovery may run is refused with
      // STEP_CLAIMED; one that asks after it ended (a process the machine ran late) is told the thread's final
      // status, goal_achieved, and ran nothing (statusLosers; contradictions counts a status unlike the thread's).
      // Which of the two a loser gets is timing; that no loser runs a step or reports anything else is not.
      outcomes: {
        reported: t.outcomes.length,
        stepClaimed: t.outcomes.filter((o) => o === "STEP_CLAIMED").length + t.statusLosers,
        goalAchieved: t.outcomes.filter((o) => o === "goal_achieved").length - t.statusLosers,
      },
    })),
  ).toEqual(
    POINTS.map((killAt, i) => ({
      killAt,
      winners: 1,
      duplicateSteps: 0,
      contradictions: 0,
      otherErrors: [],
      wrongExecutions: false,
      outcomes: i % 2 === 0 ? { reported: 2, stepClaimed: 1, goalAchieved: 1 } : { reported: 4, stepClaimed: 3, goalAchieved: 1 },
    })),
  );
}

describe("concurrent recover() on SqliteSaver", () => {
  const dir = mkdtempSync(join(tmpdir(), "langgoap-fleet-sqlite-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("fleets of 2 and 4 processes recover one killed run: one winner, the others run nothing (STEP_CLAIMED, or the final status once it ended), no step twice", async () => {
    const conn = join(dir, "checkpoints.sqlite");
    await fleets({ saver: "sqlite", conn }, SqliteSaver.fromConnString(conn), dir);
  }, 600_000);
});

describe.runIf(postgresHere.available)("concurrent recover() on PostgresSaver", () => {
  const dir = mkdtempSync(join(tmpdir(), "langgoap-fleet-pg-"));
  const schema = uniqueSchema("langgoap_fleet");
  let server: PostgresServer | undefined;
  let reader: PostgresSaver | undefined;

  beforeAll(async () => {
    server = await usePostgres();
    reader = PostgresSaver.fromConnString(server.url, { schema });
    await reader.setup();
  }, 120_000);

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await reader?.end();
    if (server) {
      await dropSchema(server.url, schema);
      await server.stop();
    }
  }, 60_000);

  it("fleets of 2 and 4 processes recover one killed run: one winner, the others run nothing (STEP_CLAIMED, or the final status once it ended), no step twice", async () => {
    await fleets({ saver: "postgres", conn: (server as PostgresServer).url, schema }, reader as PostgresSaver, dir);
  }, 600_000);
});
