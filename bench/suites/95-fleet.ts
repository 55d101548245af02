/**
 * The fleet under load and one fault (the scenario of
 * test/node/fleet-load.test.ts): 3 processes on one PostgreSQL, 300 runs
 * of the 4-step ledger domain, one process SIGKILLed a third of the way in
 * and started again. One JSON line: runs final, goal reached, lost,
 * ledger duplicates and gaps, runs taken over and the time to take them
 * over, runs/s, p50/p99 latency (first claim → final, and enqueue →
 * final), peak PostgreSQL connections per process and in all, and the
 * machine's load average (times measured on a busy machine are slower).
 * PostgreSQL: `PG_URL`, or a private server started with scripts/pg.sh.
 *
 *   LANGGOAP_FLEET_RUNS=300 LANGGOAP_FLEET_PROCESSES=3 LANGGOAP_FLEET_CONCURRENCY=8 LANGGOAP_FLEET_CONNECTIONS=4
 *   LANGGOAP_FLEET_LEASE_MS=6000 LANGGOAP_FLEET_HEARTBEAT_MS=1000 LANGGOAP_FLEET_ACTION_MS=20
 *   npx tsx bench/run.ts fleet
 */
import { loadavg } from "node:os";
import { buildFleetChild } from "../../test/support/fleet-children.js";
import { fleetScenario, fleetSettingsFromEnv } from "../../test/support/fleet-scenario.js";
import { type PostgresServer, usePostgres } from "../../test/support/postgres.js";
import { emit } from "../emit.js";

export default async function fleet(): Promise<void> {
  let server: PostgresServer;
  try {
    server = await usePostgres();
  } catch (error) {
    process.stderr.write(`# fleet: PostgreSQL skipped: ${(error as Error).message.split("\n")[0]}\n`);
    return;
  }
  const removeChild = await buildFleetChild();
  try {
    const loadBefore = loadavg()[0] as number;
    const settings = fleetSettingsFromEnv(server.url, (line) => process.stderr.write(`# ${line}\n`));
    const figures = await fleetScenario(settings);
    const { stops: _stops, ledger, ...rest } = figures;
    emit({
      suite: "fleet",
      processes: settings.processes,
      concurrency: settings.concurrency,
      leaseMs: settings.leaseMs,
      heartbeatMs: settings.heartbeatMs,
      actionMs: settings.delayMs,
      ...rest,
      ledgerOnce: ledger.once,
      ledgerDuplicated: ledger.duplicated,
      ledgerMissing: ledger.missing,
      executions: ledger.executions,
      reExecutions: ledger.reExecutions,
      reExecutionsWrong: ledger.reExecutionsWrong,
      loadAverage: [Math.round(loadBefore * 10) / 10, Math.round((loadavg()[0] as number) * 10) / 10],
    });
  } finally {
    removeChild();
    await server.stop();
  }
}
