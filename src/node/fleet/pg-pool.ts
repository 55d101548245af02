import { createRequire } from "node:module";
import { LangGoapError } from "../../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";

/** @internal A row set as `pg` returns it. */
export interface PgResult<R> {
  readonly rows: R[];
  readonly rowCount: number | null;
}

/** A client checked out of a {@link FleetPool}. */
export interface FleetPoolClient {
  query<R = Record<string, unknown>>(sql: string, values?: readonly unknown[]): Promise<PgResult<R>>;
  release(error?: Error | boolean): void;
}

/**
 * The part of a `pg.Pool` the fleet uses: a `pg.Pool` fits it, and the
 * `PostgresSaver` of the fleet runs on the same pool, so one process never
 * holds more PostgreSQL connections than the pool's `max`.
 */
export interface FleetPool {
  query<R = Record<string, unknown>>(sql: string, values?: readonly unknown[]): Promise<PgResult<R>>;
  connect(): Promise<FleetPoolClient>;
  end(): Promise<void>;
}

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
  Pool: new (config: Record<string, unknown>) => FleetPool & { on(event: "error", listener: (error: Error) => void): void };
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

const FLEET_POOL_OPTIONS_KEYS = {
  maxConnections: true,
  timeoutMs: true,
  applicationName: true,
} as const satisfies OptionKeys<FleetPoolOptions>;

/**
 * Opens a bounded `pg.Pool` for a fleet process: at most `maxConnections`
 * connections, each query and each wait for a connection limited in time.
 * An idle connection that breaks is logged by nobody and replaced on the
 * next query (the pool's `error` event is handled so it cannot crash the
 * process).
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
  checkOptionKeys(options, FLEET_POOL_OPTIONS_KEYS, "openFleetPool()");
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
  // A broken idle connection emits "error" on the pool: without a listener it would end the process.
  pool.on("error", () => {});
  return pool;
}
