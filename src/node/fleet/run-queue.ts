import { randomUUID } from "node:crypto";
import { checkStateValues, describeValue, LangGoapError, type WorldState } from "../../core/index.js";
import type { FleetPool } from "./fleet-pool.js";
import { type QueueSql, queueSql } from "./run-queue-sql.js";

/** Where a queued run is: waiting, executing under a lease, ended (`done`), or given up (`error`). */
export type QueuedRunState = "queued" | "running" | "done" | "error";

/** A run of the queue, as {@link RunQueue.get} reads it. */
export interface QueuedRun {
  readonly runId: string;
  readonly threadId: string;
  readonly state: QueuedRunState;
  /** The GOAP run's final status (`goal_achieved`, `failed`, `awaiting_human`, ...) once `done`; null before. */
  readonly runStatus: string | null;
  /** Why the run was given up (`error`), or why its last attempt was released. */
  readonly error: string | null;
  /** How many times a process claimed the run (1 when one process ran it through). */
  readonly attempts: number;
  /** How many of those claims took the run over from a process whose lease had expired. */
  readonly takeovers: number;
  /** The process holding the lease (a label, for people: leases are decided by expiry, never by this name). */
  readonly leaseOwner: string | null;
  /** Database times in ms since the epoch. */
  readonly enqueuedAt: number;
  readonly startedAt: number | null;
  readonly claimedAt: number | null;
  readonly finishedAt: number | null;
}

/** A run to enqueue. */
export interface EnqueueRun {
  /** The goal: conditions, or goal data (plain JSON; the queue stores it). */
  readonly goal: Readonly<Record<string, unknown>>;
  /** The start world; left out, the run starts from the world the thread's last run left. */
  readonly worldState?: Readonly<WorldState>;
  /** The run's id; enqueuing an id twice enqueues it once. @defaultValue a random UUID */
  readonly runId?: string;
  /** The thread the run belongs to; runs of one thread run one after the other. @defaultValue the run id */
  readonly threadId?: string;
}

/** Counts of runs by state. */
export type RunQueueCounts = Readonly<Record<QueuedRunState, number>>;

/** @internal A run a process claimed, with the claim that names its lease. */
export interface ClaimedRun {
  readonly runId: string;
  readonly threadId: string;
  readonly goal: Record<string, unknown>;
  readonly worldState: WorldState | null;
  /** The claim number: the lease is (owner, attempts). */
  readonly attempts: number;
  /** True when the run was taken over from a process whose lease expired. */
  readonly takenOver: boolean;
}

/** Options of {@link RunQueue}. */
export interface RunQueueOptions {
  /** PostgreSQL schema of the queue's table (`langgoap_fleet_runs`). @defaultValue "public" */
  readonly schema?: string;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function nonEmptyString(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "" || value.length > 256) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `RunQueue.enqueue: ${field} must be a non-empty string of at most 256 characters, got ${describeValue(value)}`,
      {
        field,
      },
    );
  }
  return value;
}

function ms(value: unknown): number | null {
  return value === null || value === undefined ? null : Math.round(Number(value));
}

async function queried<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof LangGoapError) throw error;
    throw new LangGoapError(
      "STORE_ERROR",
      `run queue: ${what} failed: ${(error as Error)?.message ?? String(error)}`,
      { operation: what },
      { cause: error },
    );
  }
}

/**
 * The runs of a fleet, in a PostgreSQL table: clients enqueue runs, the
 * {@link FleetWorker}s of any number of processes claim them with
 * `SELECT … FOR UPDATE SKIP LOCKED`, each holding a lease it renews while
 * the run executes. Any process that can reach the database can enqueue
 * and read runs; only workers claim them.
 *
 * @example
 * ```ts
 * import { openFleetPool, RunQueue } from "langgoap/node";
 * const pool = openFleetPool(process.env.DATABASE_URL!);
 * const queue = new RunQueue(pool);
 * await queue.setup();
 * const { runId } = await queue.enqueue({ goal: { published: true }, worldState: { topic: "GOAP" } });
 * const run = await queue.waitFor(runId, { signal: AbortSignal.timeout(60_000) });
 * run.runStatus; // "goal_achieved"
 * ```
 */
export class RunQueue {
  readonly #pool: FleetPool;
  readonly #sql: QueueSql;
  /** PostgreSQL schema of the queue's table. */
  readonly schema: string;

  constructor(pool: FleetPool, options: RunQueueOptions = {}) {
    if (typeof pool?.query !== "function" || typeof pool.connect !== "function") {
      throw new LangGoapError("INVALID_OPTION", `RunQueue: expected a pg.Pool (see openFleetPool), got ${describeValue(pool)}`, {
        field: "pool",
      });
    }
    this.schema = options.schema ?? "public";
    this.#sql = queueSql(this.schema);
    this.#pool = pool;
  }

  /**
   * Creates the schema, table and index when missing. Safe to call from
   * every process at once: the statements run under a transaction-scoped
   * advisory lock.
   *
   * @example
   * ```ts
   * await new RunQueue(pool, { schema: "agents" }).setup();
   * ```
   */
  async setup(): Promise<void> {
    await queried("setup", async () => {
      const client = await this.#pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`langgoap-fleet:${this.schema}`]);
        for (const statement of this.#sql.setup) await client.query(statement);
        await client.query("COMMIT");
        client.release();
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        client.release(true);
        throw error;
      }
    });
  }

  /**
   * Adds a run. The goal and world are stored as JSON and checked first
   * (`INVALID_GOAL`, `INVALID_STATE`). Enqueuing a run id that is already
   * queued adds nothing (`added: false`): a client may retry the call.
   *
   * @example
   * ```ts
   * await queue.enqueue({ runId: "order-17", threadId: "customer-4", goal: { shipped: true }, worldState: { order: "order-17" } });
   * ```
   */
  async enqueue(run: EnqueueRun): Promise<{ readonly runId: string; readonly threadId: string; readonly added: boolean }> {
    if (!isPlainObject(run))
      throw new LangGoapError("INVALID_OPTION", `RunQueue.enqueue: expected { goal, worldState? }, got ${describeValue(run)}`);
    if (!isPlainObject(run.goal)) {
      throw new LangGoapError(
        "INVALID_GOAL",
        `RunQueue.enqueue: goal must be conditions or goal data as a plain JSON object (the queue stores it), got ${describeValue(run.goal)}`,
      );
    }
    checkStateValues(run.goal, "RunQueue.enqueue goal", "INVALID_GOAL");
    if (run.worldState !== undefined) checkStateValues(run.worldState, "RunQueue.enqueue");
    const runId = run.runId === undefined ? randomUUID() : nonEmptyString(run.runId, "runId");
    const threadId = run.threadId === undefined ? runId : nonEmptyString(run.threadId, "threadId");
    const result = await queried("enqueue", () =>
      this.#pool.query(this.#sql.enqueue, [
        runId,
        threadId,
        JSON.stringify(run.goal),
        run.worldState === undefined ? null : JSON.stringify(run.worldState),
      ]),
    );
    return { runId, threadId, added: result.rows.length === 1 };
  }

  /**
   * The run, or null when the queue has no such run.
   *
   * @example
   * ```ts
   * const run = await queue.get("order-17"); // { state: "running", attempts: 1, leaseOwner: "host:4242:1a2b3c4d", ... }
   * ```
   */
  async get(runId: string): Promise<QueuedRun | null> {
    const { rows } = await queried("get", () => this.#pool.query(this.#sql.get, [runId]));
    const row = rows[0];
    if (!row) return null;
    return {
      runId: row.run_id as string,
      threadId: row.thread_id as string,
      state: row.state as QueuedRunState,
      runStatus: (row.run_status as string | null) ?? null,
      error: (row.error as string | null) ?? null,
      attempts: Number(row.attempts),
      takeovers: Number(row.takeovers),
      leaseOwner: (row.lease_owner as string | null) ?? null,
      enqueuedAt: ms(row.enqueued_ms) as number,
      startedAt: ms(row.started_ms),
      claimedAt: ms(row.claimed_ms),
      finishedAt: ms(row.finished_ms),
    };
  }

  /**
   * How many runs are in each state.
   *
   * @example
   * ```ts
   * await queue.counts(); // { queued: 12, running: 8, done: 280, error: 0 }
   * ```
   */
  async counts(): Promise<RunQueueCounts> {
    const { rows } = await queried("counts", () => this.#pool.query<{ state: QueuedRunState; n: number }>(this.#sql.counts));
    const counts = { queued: 0, running: 0, done: 0, error: 0 };
    for (const row of rows) counts[row.state] = Number(row.n);
    return counts;
  }

  /**
   * Waits until the run is `done` or `error`, reading it every `pollMs`.
   * Bounded by `signal` (it rejects with the signal's reason); an unknown
   * run id is an `INVALID_OPTION` error.
   *
   * @example
   * ```ts
   * const run = await queue.waitFor(runId, { signal: AbortSignal.timeout(60_000), pollMs: 200 });
   * run.runStatus; // "goal_achieved"
   * ```
   */
  async waitFor(runId: string, options: { readonly signal?: AbortSignal; readonly pollMs?: number } = {}): Promise<QueuedRun> {
    const pollMs = options.pollMs ?? 500;
    for (;;) {
      options.signal?.throwIfAborted();
      const run = await this.get(runId);
      if (!run) throw new LangGoapError("INVALID_OPTION", `RunQueue.waitFor: no run ${describeValue(runId)} in the queue`, { runId });
      if (run.state === "done" || run.state === "error") return run;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs);
        function done(): void {
          clearTimeout(timer);
          options.signal?.removeEventListener("abort", done);
          resolve();
        }
        options.signal?.addEventListener("abort", done, { once: true });
      });
    }
  }

  /**
   * @internal Claims up to `limit` runs for `owner`, each under a lease of
   * `leaseMs`; a run whose lease expired is taken over only once
   * `takeoverGraceMs` more have passed (database clock).
   */
  async claim(limit: number, owner: string, leaseMs: number, takeoverGraceMs = 0): Promise<ClaimedRun[]> {
    const { rows } = await queried("claim", () => this.#pool.query(this.#sql.claim, [limit, owner, leaseMs, takeoverGraceMs]));
    return rows.map((row) => ({
      runId: row.run_id as string,
      threadId: row.thread_id as string,
      goal: row.goal as Record<string, unknown>,
      worldState: (row.world_state as WorldState | null) ?? null,
      attempts: Number(row.attempts),
      takenOver: row.was === "running",
    }));
  }

  /**
   * @internal Extends the held leases of `runs` by `leaseMs` from now;
   * returns the ids of those still held (the others expired, were taken
   * over, or ended: an expired lease is never renewed). `via`: the
   * connection to send it on (the worker's own, so renewals never wait
   * behind its runs' statements for a connection of the pool).
   */
  async renew(
    runs: readonly ClaimedRun[],
    owner: string,
    leaseMs: number,
    via: Pick<FleetPool, "query"> = this.#pool,
  ): Promise<Set<string>> {
    const { rows } = await queried("renew", () =>
      via.query<{ run_id: string }>(this.#sql.renew, [runs.map((r) => r.runId), owner, runs.map((r) => r.attempts), leaseMs]),
    );
    return new Set(rows.map((row) => row.run_id));
  }

  /** @internal Ends a held run with its GOAP status; false when the lease was no longer held. */
  async finish(run: ClaimedRun, owner: string, runStatus: string): Promise<boolean> {
    const { rows } = await queried("finish", () => this.#pool.query(this.#sql.finish, [run.runId, owner, run.attempts, runStatus]));
    return rows.length === 1;
  }

  /** @internal Gives a held run back to the queue, claimable again after `delayMs`. */
  async release(run: ClaimedRun, owner: string, reason: string | null, delayMs: number): Promise<boolean> {
    const { rows } = await queried("release", () => this.#pool.query(this.#sql.release, [run.runId, owner, run.attempts, reason, delayMs]));
    return rows.length === 1;
  }

  /** @internal Gives a held run up for good (`error`). */
  async fail(run: ClaimedRun, owner: string, reason: string): Promise<boolean> {
    const { rows } = await queried("fail", () => this.#pool.query(this.#sql.fail, [run.runId, owner, run.attempts, reason]));
    return rows.length === 1;
  }

  /**
   * @internal The state a claimed run was ended in by the claim that holds
   * it (`queued` for a release), or null while it runs or after another
   * claim took it: tells whether an end whose answer was lost was written.
   */
  async endedAs(run: ClaimedRun): Promise<QueuedRunState | null> {
    const { rows } = await queried("ended", () => this.#pool.query<{ state: QueuedRunState }>(this.#sql.ended, [run.runId, run.attempts]));
    return rows[0]?.state ?? null;
  }
}
