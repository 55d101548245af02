import { createRequire } from "node:module";
import { LangGoapError } from "../../core/index.js";
import type { FleetPool } from "./fleet-pool.js";
import { WatchedPool } from "./watched-pool.js";

export type { FleetPool, FleetPoolClient, PgResult } from "./fleet-pool.js";

/** Options of {@link openFleetPool}. */
export interface FleetPoolOptions {
  /** The most connections the pool opens at once. @defaultValue 4 (`DEFAULT_FLEET_CONNECTIONS`) */
  readonly maxConnections?: number;
  /** Time limit in ms to get a connection and of each query. @defaultValue 30000 */
  readonly timeoutMs?: number;
  /** `application_name` of the connections (what `pg_stat_activity` shows). @defaultValue "langgoap-fleet" */
  readonly applicationName?: string;
}

/** Connections a fleet process opens at most by default. */
export const DEFAULT_FLEET_CONNECTIONS = 4;

interface PgModule {
  Pool: new (config: Record<string, unknown>) => FleetPool;
}

function loadPg(): PgModule {
  try {
    return createRequire(import.meta.url)("pg") as PgModule;
  } catch (error) {
    throw new LangGoapError(
      "STORE_ERROR",
      "the fleet needs the `pg` package (installed with @langchain/langgraph-checkpoint-postgres): npm install @langchain/langgraph-checkpoint-postgres",
      { package: "pg" },
      { cause: error },
    );
  }
}

/** @internal Checks a positive integer option. */
export function positiveInteger(value: unknown, field: string, min = 1): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
    throw new LangGoapError("INVALID_OPTION", `fleet option ${field} must be an integer >= ${min}, got ${JSON.stringify(value)}`, {
      field,
    });
  }
  return value;
}

/**
 * Opens a bounded `pg.Pool` for a fleet process: at most `maxConnections`
 * connections, each query and each wait for a connection limited in time.
 * A connection that breaks (idle, or checked out between two statements)
 * never crashes the process and is replaced on the next query; a
 * `FleetWorker` on this pool sees every connection error of the statements
 * made through it, its actions' included, and handles the database going
 * away as one outage (it stops its runs and reconnects).
 *
 * @example
 * ```ts
 * import { openFleetPool } from "langgoap/node";
 * const pool = openFleetPool(process.env.DATABASE_URL!, { maxConnections: 6 });
 * await pool.query("SELECT 1");
 * await pool.end();
 * ```
 *
 * @param connectionString - a PostgreSQL URL
 * @param options - connections, time limit, application name
 * @returns the pool (end it with `pool.end()`)
 * @throws LangGoapError `STORE_ERROR` when `pg` is not installed, `INVALID_OPTION` for a bad option
 */
export function openFleetPool(connectionString: string, options: FleetPoolOptions = {}): FleetPool {
  if (typeof connectionString !== "string" || connectionString === "") {
    throw new LangGoapError("INVALID_OPTION", `fleet: connectionString must be a PostgreSQL URL, got ${JSON.stringify(connectionString)}`, {
      field: "connectionString",
    });
  }
  const max = positiveInteger(options.maxConnections ?? DEFAULT_FLEET_CONNECTIONS, "maxConnections", 2);
  const timeout = positiveInteger(options.timeoutMs ?? 30_000, "timeoutMs");
  const { Pool } = loadPg();
  const pool = new Pool({
    connectionString,
    max,
    connectionTimeoutMillis: timeout,
    query_timeout: timeout,
    idleTimeoutMillis: 10_000,
    application_name: options.applicationName ?? "langgoap-fleet",
  });
  // Watched: its "error" listener keeps a broken idle connection from ending the process, and a fleet worker on this pool sees
  // every connection error of every statement made through it (its actions' too) as the database going away.
  return new WatchedPool(pool);
}
