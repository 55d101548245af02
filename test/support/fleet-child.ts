/**
 * One process of a test fleet (run by `node` from an esbuild bundle, see
 * fleet-children.ts): a FleetWorker on its own bounded pool over the
 * ledger domain. Prints `OWNER <name>` and `STARTED`; on SIGTERM it stops
 * gracefully and prints its stats as the last line. With `killAt`, it
 * freezes (prints `KILLPOINT`) when that action of that run first
 * executes, so the parent kills it (SIGKILL) right there.
 *
 *   argv[2] = JSON of FleetChildArgs
 */
import { writeSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";
import { GoapGraph } from "../../src/graph/index.js";
import { FleetWorker, openFleetPool } from "../../src/node/index.js";
import { ledgerActions } from "./fleet-ledger.js";

export interface FleetChildArgs {
  readonly url: string;
  readonly schema: string;
  readonly name: string;
  readonly concurrency: number;
  readonly maxConnections: number;
  readonly leaseMs: number;
  readonly heartbeatMs: number;
  readonly pollMs: number;
  readonly delayMs: number;
  readonly killAt?: { readonly action: string; readonly runId: string };
  /** The host name this process reports in its records (a second host, seen from the test's process). */
  readonly host?: string;
}

const args = JSON.parse(process.argv[2] as string) as FleetChildArgs;
if (args.host) {
  // Recovery records name this host: the other processes cannot see whether this one runs (liveness "unknown").
  const host = args.host;
  os.hostname = () => host;
  syncBuiltinESMExports();
}
const pool = openFleetPool(args.url, { maxConnections: args.maxConnections, applicationName: args.name });
const actions = ledgerActions(pool, args.schema, args.name, {
  delayMs: args.delayMs,
  onExecute: (action, runId, ctx) => {
    if (args.killAt && action === args.killAt.action && runId === args.killAt.runId && ctx.stepAttempt === 1) {
      writeSync(1, "KILLPOINT\n");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    }
  },
});
const worker = new FleetWorker({
  graph: new GoapGraph(actions, { logger: { warn: () => {} } }),
  pool,
  schema: args.schema,
  name: args.name,
  concurrency: args.concurrency,
  leaseMs: args.leaseMs,
  heartbeatMs: args.heartbeatMs,
  pollMs: args.pollMs,
  retryDelayMs: 200,
  logger: { warn: (message) => process.stderr.write(`${message}\n`) },
});
process.once("SIGTERM", async () => {
  const stats = await worker.stop();
  await pool.end();
  writeSync(1, `${JSON.stringify(stats)}\n`);
  process.exit(0);
});
writeSync(1, `OWNER ${worker.name}\n`);
await worker.start();
writeSync(1, "STARTED\n");
