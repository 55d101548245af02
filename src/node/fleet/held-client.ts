import type { FleetPool, FleetPoolClient } from "./fleet-pool.js";

/**
 * @internal One connection checked out of a pool and kept (a worker's
 * heartbeat): taken on first use, given back broken (`drop(error)`) when a
 * statement on it failed, so the next use takes a fresh one.
 */
export class HeldClient {
  readonly #pool: FleetPool;
  #client: Promise<FleetPoolClient> | undefined;

  constructor(pool: FleetPool) {
    this.#pool = pool;
  }

  /** The held connection, checked out now if none is held. */
  get(): Promise<FleetPoolClient> {
    const client = this.#client ?? this.#pool.connect();
    this.#client = client;
    // A failed checkout is not kept: the next get() tries again.
    client.catch(() => {
      if (this.#client === client) this.#client = undefined;
    });
    return client;
  }

  /** Gives the connection back to the pool: destroyed when `error` says it failed, kept for reuse otherwise. */
  drop(error?: unknown): void {
    const client = this.#client;
    this.#client = undefined;
    void client?.then(
      (c) => c.release(error === undefined ? undefined : error instanceof Error ? error : true),
      () => undefined,
    );
  }
}
