import { isConnectionError } from "./connection-errors.js";
import type { FleetPool, FleetPoolClient, PgResult } from "./fleet-pool.js";

/**
 * @internal Told of each connection error seen through a {@link WatchedPool}:
 * the error, and when the connection it happened on was opened
 * (`performance.now()`; for a connection attempt that failed, when it
 * began), so a listener can tell the last breaks of connections opened
 * before an outage ended from a new outage.
 */
export type ConnectionErrorListener = (error: unknown, openedAt: number) => void;

interface EventfulClient {
  query<R>(sql: string, values?: readonly unknown[]): Promise<PgResult<R>>;
  release(error?: Error | boolean): void;
  on?(event: "error", listener: (error: Error) => void): void;
  removeListener?(event: "error", listener: (error: Error) => void): void;
}

interface EventfulPool extends FleetPool {
  on?(event: string, listener: (...args: never[]) => void): void;
}

/**
 * @internal A pool that reports every connection error of the statements
 * made through it (a fleet worker's queue, its checkpointer, and the
 * actions that query through the same pool), including the break of an
 * idle connection, and of a connection checked out between two of its
 * statements, which `pg` would otherwise raise as an unhandled `error`
 * event and end the process with. `openFleetPool` returns one; a worker
 * given another pool wraps it.
 */
export class WatchedPool implements FleetPool {
  readonly #pool: EventfulPool;
  readonly #listeners = new Set<ConnectionErrorListener>();
  readonly #openedAt = new WeakMap<object, number>();

  constructor(pool: FleetPool) {
    this.#pool = pool as EventfulPool;
    this.#pool.on?.("connect", (client: object) => this.#openedAt.set(client, performance.now()));
    // A broken idle connection emits "error" on the pool: without a listener it would end the process.
    this.#pool.on?.("error", (error: Error, client: object) => this.#report(error, this.#opened(client, performance.now())));
  }

  /** Calls `listener` with each connection error from now on; returns the function that stops it. */
  watch(listener: ConnectionErrorListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async query<R = Record<string, unknown>>(sql: string, values?: readonly unknown[]): Promise<PgResult<R>> {
    const client = await this.connect();
    try {
      const result = await client.query<R>(sql, values);
      client.release();
      return result;
    } catch (error) {
      // As pg.Pool.query does: a client whose statement failed is not given out again.
      client.release(error instanceof Error ? error : true);
      throw error;
    }
  }

  async connect(): Promise<FleetPoolClient> {
    const attemptAt = performance.now();
    let client: EventfulClient;
    try {
      client = (await this.#pool.connect()) as EventfulClient;
    } catch (error) {
      this.#report(error, attemptAt);
      throw error;
    }
    const openedAt = this.#opened(client, attemptAt);
    const onError = (error: Error) => this.#report(error, openedAt);
    client.on?.("error", onError);
    let released = false;
    return {
      query: <R>(sql: string, values?: readonly unknown[]) =>
        client.query<R>(sql, values).catch((error: unknown) => {
          this.#report(error, openedAt);
          throw error;
        }),
      release: (error?: Error | boolean) => {
        if (released) return;
        released = true;
        client.removeListener?.("error", onError);
        client.release(error);
      },
    };
  }

  end(): Promise<void> {
    return this.#pool.end();
  }

  /** When the client's connection was opened: seen by the pool's "connect" event, or else first seen here. */
  #opened(client: object | undefined, fallback: number): number {
    if (!client) return fallback;
    const known = this.#openedAt.get(client);
    if (known !== undefined) return known;
    this.#openedAt.set(client, fallback);
    return fallback;
  }

  #report(error: unknown, openedAt: number): void {
    if (!isConnectionError(error)) return;
    for (const listener of this.#listeners) {
      try {
        listener(error, openedAt);
      } catch {
        // A listener's failure must not turn into the statement's.
      }
    }
  }
}

/** @internal The pool as a {@link WatchedPool}: itself when it is one. */
export function watchedPool(pool: FleetPool): WatchedPool {
  return pool instanceof WatchedPool ? pool : new WatchedPool(pool);
}
