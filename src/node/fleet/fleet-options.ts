import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { describeValue, type GoapLogger, LangGoapError } from "../../core/index.js";
import type { GoapGraph } from "../../graph/index.js";
import type { FleetPool } from "./fleet-pool.js";
import { positiveInteger } from "./pg-pool.js";

/** Default lease of an executing run, ms. */
export const DEFAULT_LEASE_MS = 30_000;
/** Default interval between lease renewals, ms. */
export const DEFAULT_HEARTBEAT_MS = 10_000;
/** Default interval between looks at the queue while it has nothing to claim, ms. */
export const DEFAULT_POLL_MS = 1_000;
/** Default runs a process executes at once. */
export const DEFAULT_FLEET_CONCURRENCY = 4;
/** Default wait after a lease's expiry before another process may take its run over, ms. */
export const DEFAULT_TAKEOVER_GRACE_MS = 2_000;
/** Default wait before a worker's first attempt to reconnect to its database, ms (doubled after each failed attempt). */
export const DEFAULT_RECONNECT_DELAY_MS = 250;
/** Default longest wait between two reconnection attempts, ms. */
export const DEFAULT_MAX_RECONNECT_DELAY_MS = 10_000;

/** Options of {@link FleetWorker}. */
export interface FleetWorkerOptions {
  /**
   * The graph runs execute on. The worker compiles it with the fleet's
   * checkpointer, so give each worker its own `GoapGraph` (the same
   * actions and options in every process).
   */
  // biome-ignore lint/suspicious/noExplicitAny: any world type; the queue stores JSON goals and worlds.
  readonly graph: GoapGraph<any>;
  /** The pool of the worker (see `openFleetPool`); the caller ends it. Give this or `connectionString`. */
  readonly pool?: FleetPool;
  /** A PostgreSQL URL: the worker opens its own pool of `maxConnections` and ends it on `stop()`. */
  readonly connectionString?: string;
  /** Connections of the pool the worker opens (with `connectionString`; at least 2). @defaultValue 4 */
  readonly maxConnections?: number;
  /** Schema of the queue's table and of the default checkpointer's tables. @defaultValue "public" */
  readonly schema?: string;
  /** The checkpointer of the runs. @defaultValue a `PostgresSaver` on the worker's pool, in `schema` */
  readonly checkpointer?: BaseCheckpointSaver;
  /** Runs this process executes at once. @defaultValue 4 */
  readonly concurrency?: number;
  /**
   * How long a lease lasts without renewal, ms: after a process dies,
   * its runs are taken over once this has passed (a takeover is the
   * expiry, never a pid). At least 3 × `heartbeatMs`.
   * @defaultValue 30000
   */
  readonly leaseMs?: number;
  /** How often an executing run's lease is renewed, ms. @defaultValue 10000 */
  readonly heartbeatMs?: number;
  /**
   * How long after a lease's expiry (database clock) another process may
   * take its run over, ms. The holder stops the run `heartbeatMs` before
   * the expiry (its own monotonic clock); the grace is further margin for a
   * holder whose timers run late (a stalled event loop, a paused VM), so
   * the two never execute the run at once. @defaultValue 2000
   */
  readonly takeoverGraceMs?: number;
  /**
   * When the database goes away (a statement fails for a lost
   * connection, or no lease renewal succeeds in time), the worker stops
   * its runs and tries to reconnect after this long, ms; each failed
   * attempt doubles the wait, up to `maxReconnectDelayMs`. @defaultValue 250
   */
  readonly reconnectDelayMs?: number;
  /** The longest wait between two reconnection attempts, ms. @defaultValue 10000 */
  readonly maxReconnectDelayMs?: number;
  /** Aborting it stops the worker as `stop()` does (and ends its reconnection attempts). */
  readonly signal?: AbortSignal;
  /** How often an idle worker looks at the queue, ms. @defaultValue 1000 */
  readonly pollMs?: number;
  /** Claims of one run before it is given up as `error` (a run that keeps failing to execute, or kills its processes). @defaultValue 5 */
  readonly maxAttempts?: number;
  /** How long a run whose attempt failed (database unreachable, a time limit) waits before it is claimable again, ms. @defaultValue 5000 */
  readonly retryDelayMs?: number;
  /**
   * How long `stop()` lets executing runs finish, ms; then they are
   * aborted and their leases released, so another process continues them
   * at once. @defaultValue 30000
   */
  readonly drainTimeoutMs?: number;
  /** A label for the leases this worker holds (for people; leases are decided by expiry). @defaultValue "<host>:<pid>:<random>" */
  readonly name?: string;
  /** Where the worker says what went wrong. @defaultValue the console */
  readonly logger?: GoapLogger;
}

/** @internal The checked timing and limits of a worker. */
export interface FleetSettings {
  readonly schema: string;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly heartbeatMs: number;
  readonly takeoverGraceMs: number;
  readonly reconnectDelayMs: number;
  readonly maxReconnectDelayMs: number;
  readonly pollMs: number;
  readonly maxAttempts: number;
  readonly retryDelayMs: number;
  readonly drainTimeoutMs: number;
}

/** @internal Checks the options (`INVALID_OPTION` naming the field). */
export function fleetSettings(options: FleetWorkerOptions): FleetSettings {
  if (typeof options !== "object" || options === null) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `FleetWorker: expected options { graph, pool | connectionString }, got ${describeValue(options)}`,
    );
  }
  if (typeof options.graph?.recover !== "function" || typeof options.graph.compile !== "function") {
    throw new LangGoapError("INVALID_OPTION", `FleetWorker option graph must be a GoapGraph, got ${describeValue(options.graph)}`, {
      field: "graph",
    });
  }
  if ((options.pool === undefined) === (options.connectionString === undefined)) {
    throw new LangGoapError("INVALID_OPTION", "FleetWorker: give exactly one of pool (a pg.Pool, see openFleetPool) and connectionString", {
      field: "pool",
    });
  }
  const leaseMs = positiveInteger(options.leaseMs ?? DEFAULT_LEASE_MS, "leaseMs");
  const heartbeatMs = positiveInteger(options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS, "heartbeatMs");
  if (heartbeatMs * 3 > leaseMs) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `fleet option leaseMs (${leaseMs}) must be at least 3 × heartbeatMs (${heartbeatMs}): a run stops itself when no renewal succeeded for leaseMs − heartbeatMs`,
      { field: "leaseMs" },
    );
  }
  const reconnectDelayMs = positiveInteger(options.reconnectDelayMs ?? DEFAULT_RECONNECT_DELAY_MS, "reconnectDelayMs");
  const maxReconnectDelayMs = positiveInteger(
    options.maxReconnectDelayMs ?? Math.max(DEFAULT_MAX_RECONNECT_DELAY_MS, reconnectDelayMs),
    "maxReconnectDelayMs",
    reconnectDelayMs,
  );
  if (options.signal !== undefined && !(options.signal instanceof AbortSignal)) {
    throw new LangGoapError("INVALID_OPTION", `FleetWorker option signal must be an AbortSignal, got ${describeValue(options.signal)}`, {
      field: "signal",
    });
  }
  return {
    schema: options.schema ?? "public",
    concurrency: positiveInteger(options.concurrency ?? DEFAULT_FLEET_CONCURRENCY, "concurrency"),
    leaseMs,
    heartbeatMs,
    takeoverGraceMs: positiveInteger(options.takeoverGraceMs ?? DEFAULT_TAKEOVER_GRACE_MS, "takeoverGraceMs", 0),
    reconnectDelayMs,
    maxReconnectDelayMs,
    pollMs: positiveInteger(options.pollMs ?? DEFAULT_POLL_MS, "pollMs"),
    maxAttempts: positiveInteger(options.maxAttempts ?? 5, "maxAttempts"),
    retryDelayMs: positiveInteger(options.retryDelayMs ?? 5_000, "retryDelayMs", 0),
    drainTimeoutMs: positiveInteger(options.drainTimeoutMs ?? 30_000, "drainTimeoutMs", 0),
  };
}
