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
