/**
 * The fleet under load and one fault: 3 processes on one PostgreSQL run
 * 300 runs of a 4-step domain whose actions write to a ledger with
 * idempotency keys; a third of the way in, one process is SIGKILLed and
 * started again. Every run must end (300/300 `goal_achieved`, none
 * lost), every action must be in the ledger exactly once per run, the
 * dead process's runs must be taken over, and no process may hold more
 * PostgreSQL connections than its pool allows. Throughput, latencies and
 * the takeover time are printed, never asserted. LANGGOAP_FLEET_RUNS (and
 * the other LANGGOAP_FLEET_* settings, see fleet-scenario.ts) shrink it
 * while developing (keep 30 or more, so the killed process holds runs);
 * `npx tsx bench/run.ts fleet` prints the same figures.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildFleetChild } from "../support/fleet-children.js";
import { fleetScenario, fleetSettingsFromEnv } from "../support/fleet-scenario.js";
import { type PostgresServer, usePostgres } from "../support/postgres.js";
import { requirePostgres } from "../support/requirements.js";

const postgres = requirePostgres("fleet load-and-fault test");

describe.runIf(postgres.available)("a fleet of 3 processes on one PostgreSQL, one killed mid-way", () => {
  let server: PostgresServer | undefined;
  let removeChild: () => void = () => {};

  beforeAll(async () => {
    removeChild = await buildFleetChild();
    server = await usePostgres();
  }, 120_000);

  afterAll(async () => {
    removeChild();
    await server?.stop();
  }, 60_000);

  it("ends every run, runs every action once, takes the dead process's runs over, keeps connections bounded", async () => {
    const settings = fleetSettingsFromEnv((server as PostgresServer).url, (line) => console.log(line));
    const figures = await fleetScenario(settings);
    console.log(`fleet figures (machine load ${(await import("node:os")).loadavg()[0]?.toFixed(1)}): ${JSON.stringify(figures)}`);
    expect({
      final: figures.final,
      goalAchieved: figures.goalAchieved,
      lost: figures.lost,
      errors: figures.errors,
      ledgerOnce: figures.ledger.once,
      ledgerDuplicated: figures.ledger.duplicated,
      ledgerMissing: figures.ledger.missing,
      reExecutionsWrong: figures.ledger.reExecutionsWrong,
      leasesHeldAfterStop: figures.leasesHeldAfterStop,
      cleanStops: figures.stops.filter((s) => s.startsWith("{")).length,
    }).toEqual({
      final: settings.runs,
      goalAchieved: settings.runs,
      lost: 0,
      errors: 0,
      ledgerOnce: settings.runs * 4,
      ledgerDuplicated: 0,
      ledgerMissing: 0,
      reExecutionsWrong: 0,
      leasesHeldAfterStop: 0,
      cleanStops: settings.processes,
    });
    // The kill hit runs in flight, and every one of them was taken over by another claim.
    expect(figures.killedHeld).toBeGreaterThan(0);
    expect(figures.takenOver).toBe(figures.killedHeld);
    // A takeover runs at most the one step its predecessor left running again (stepAttempt 2, same key); a busy machine may add
    // takeovers of live processes whose renewals came too late (they stop themselves), never re-executions beyond one per takeover.
    expect(figures.ledger.reExecutions).toBeLessThanOrEqual(figures.claims - figures.runs);
    expect(figures.peakConnectionsPerProcess).toBeLessThanOrEqual(settings.maxConnections);
    expect(figures.peakConnectionsTotal).toBeLessThanOrEqual(settings.maxConnections * settings.processes);
  }, 540_000);
});
