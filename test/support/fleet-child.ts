/**
 * One process of a test fleet (run by `node` from an esbuild bundle, see
 * fleet-children.ts): a FleetWorker on its own bounded pool over the
 * ledger domain. Prints `OWNER <name>` and `STARTED`; on SIGTERM it stops
 * gracefully and prints its stats as the last line. With `killAt`, it
 * freezes (prints `KILLPOINT`) when that action of that run first
 * executes, so the parent kills it (SIGKILL) right there. The worker's
 * outage and reconnection lines are printed as `OUTAGE <json>` and
 * `RECONNECTED <json>`; with `eventsFile`, every event the worker logs
 * (claims, stops, ends) is appended to that file as one JSON line, so the
 * lines of all the processes sharing it are in the order they happened.
 *
 *   argv[2] = JSON of FleetChildArgs
 */
import { appendFileSync, writeSync } from "node:fs";
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
  readonly takeoverGraceMs?: number;
  readonly reconnectDelayMs?: number;
  readonly maxReconnectDelayMs?: number;
  /** A file every process of the fleet appends its events to (one JSON line each). */
  readonly eventsFile?: string;
  /**
   * Every action this process executes waits, once its execution is logged, until the parent
   * opens the gate (SIGUSR2) or the run's signal stops it; the first wait prints `GATED`. The
   * parent then knows this process is executing a leased run, whose lease it must renew.
   */
  readonly gated?: boolean;
}

/** One line of the events file. */
export interface FleetEvent {
  readonly worker: string;
  readonly level: "debug" | "info" | "warn";
  readonly event: string;
  readonly runId?: string;
  readonly takenOver?: boolean;
  /** The claim's number, on `claimed`. */
  readonly attempts?: number;
  readonly message: string;
}

const args = JSON.parse(process.argv[2] as string) as FleetChildArgs;
if (args.host) {
  // Recovery records name this host: the other processes cannot see whether this one runs (liveness "unknown").
  const host = args.host;
  os.hostname = () => host;
  syncBuiltinESMExports();
}
const gate = openableGate();
const pool = openFleetPool(args.url, { maxConnections: args.maxConnections, applicationName: args.name });
const actions = ledgerActions(pool, args.schema, args.name, {
  delayMs: args.delayMs,
  onExecute: (action, runId, ctx) => {
    if (args.killAt && action === args.killAt.action && runId === args.killAt.runId && ctx.stepAttempt === 1) {
      writeSync(1, "KILLPOINT\n");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
    }
    if (args.gated) return gate.pass(ctx.signal);
  },
});

/** Closed until SIGUSR2; a wait on it ends when it opens or when the run's signal aborts. */
function openableGate(): { pass(signal: AbortSignal | undefined): Promise<void> } {
  let open = false;
  let announced = false;
  const waiting = new Set<() => void>();
  process.on("SIGUSR2", () => {
    open = true;
    for (const release of waiting) release();
  });
  return {
    pass: (signal) => {
      if (open) return Promise.resolve();
      if (!announced) {
        announced = true;
        writeSync(1, "GATED\n");
      }
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const release = () => {
          waiting.delete(release);
          signal?.removeEventListener("abort", stop);
          resolve();
        };
        function stop(): void {
          waiting.delete(release);
          reject(signal?.reason);
        }
        waiting.add(release);
        signal?.addEventListener("abort", stop, { once: true });
      });
    },
  };
}
function record(level: FleetEvent["level"], message: string, details?: Readonly<Record<string, unknown>>): void {
  const event = typeof details?.event === "string" ? details.event : "";
  if (event === "outage") writeSync(1, `OUTAGE ${JSON.stringify(details)}\n`);
  if (event === "reconnected") writeSync(1, `RECONNECTED ${JSON.stringify(details)}\n`);
  if (level === "warn") process.stderr.write(`${message}\n`);
  if (args.eventsFile) {
    const line: FleetEvent = {
      worker: args.name,
      level,
      event,
      ...(typeof details?.runId === "string" ? { runId: details.runId } : {}),
      ...(typeof details?.takenOver === "boolean" ? { takenOver: details.takenOver } : {}),
      ...(typeof details?.attempts === "number" ? { attempts: details.attempts } : {}),
      message,
    };
    appendFileSync(args.eventsFile, `${JSON.stringify(line)}\n`);
  }
}
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
  ...(args.takeoverGraceMs === undefined ? {} : { takeoverGraceMs: args.takeoverGraceMs }),
  ...(args.reconnectDelayMs === undefined ? {} : { reconnectDelayMs: args.reconnectDelayMs }),
  ...(args.maxReconnectDelayMs === undefined ? {} : { maxReconnectDelayMs: args.maxReconnectDelayMs }),
  logger: {
    warn: (message, details) => record("warn", message, details),
    info: (message, details) => record("info", message, details),
    debug: (message, details) => record("debug", message, details),
  },
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
