import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { CONSOLE_LOGGER, type GoapLogger, LangGoapError } from "../../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import type { CompiledGoapGraph, GoapGraph } from "../../graph/index.js";
import { executeClaimedRun } from "./execute-claimed-run.js";
import { type FleetSettings, type FleetWorkerOptions, fleetSettings } from "./fleet-options.js";
import { type FleetPool, openFleetPool } from "./pg-pool.js";
import { RunLease } from "./run-lease.js";
import { type ClaimedRun, RunQueue } from "./run-queue.js";

/** What a worker did since it started. */
export interface FleetWorkerStats {
  /** Runs claimed (each claim counts). */
  readonly claimed: number;
  /** Of those, runs taken over from a process whose lease had expired. */
  readonly takenOver: number;
  /** Runs this worker brought to a final status (`done`). */
  readonly finished: number;
  /** Runs given back to the queue: an attempt failed (retried later) or `stop()` ended it (continued at once elsewhere). */
  readonly released: number;
  /** Runs given up as `error` (a permanent error, or `maxAttempts` claims). */
  readonly failed: number;
  /** Runs this worker stopped because its lease was lost (another process holds them now). */
  readonly leasesLost: number;
}

/** Codes of errors that another attempt would meet again: the run is given up at once. */
const PERMANENT = new Set([
  "INVALID_ACTION",
  "INVALID_CONDITION",
  "INVALID_EFFECT",
  "INVALID_GOAL",
  "INVALID_OPTION",
  "INVALID_STATE",
  "UNKNOWN_FACT",
  "UNKNOWN_ACTION",
  "UNKNOWN_STRATEGY",
  "THREAD_PAUSED",
]);

interface InFlight {
  readonly run: ClaimedRun;
  readonly lease: RunLease;
  readonly controller: AbortController;
  readonly task: Promise<void>;
}

function guarded(logger: GoapLogger): (message: string, details?: Record<string, unknown>) => void {
  return (message, details) => {
    try {
      logger.warn?.(message, details);
    } catch {
      // Logging is best effort.
    }
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const FLEET_WORKER_OPTIONS_KEYS = {
  graph: true,
  pool: true,
  connectionString: true,
  maxConnections: true,
  schema: true,
  checkpointer: true,
  concurrency: true,
  leaseMs: true,
  heartbeatMs: true,
  pollMs: true,
  maxAttempts: true,
  retryDelayMs: true,
  drainTimeoutMs: true,
  name: true,
  logger: true,
} as const satisfies OptionKeys<FleetWorkerOptions>;

/**
 * One process's share of a fleet: it claims runs from the {@link RunQueue}
 * (up to `concurrency` at once), executes each on its `GoapGraph` with the
 * fleet's checkpointer, and holds a lease on each while it executes,
 * renewed every `heartbeatMs`. When a process dies, its leases expire
 * after `leaseMs` and the other workers take its runs over with
 * `graph.recover()`: steps that finished never run again, the step that
 * was running runs once more with the same idempotency key, and every run
 * reaches a final status without a person. A worker that cannot renew a
 * lease in time aborts that run before the lease can expire.
 *
 * @example
 * ```ts
 * import { FleetWorker } from "langgoap/node";
 * const worker = new FleetWorker({ graph: new GoapGraph(actions), connectionString: process.env.DATABASE_URL! });
 * await worker.start();
 * process.once("SIGTERM", async () => { await worker.stop(); process.exit(0); });
 * ```
 */
export class FleetWorker {
  /** The label of this worker's leases. */
  readonly name: string;
  /** The queue this worker claims from (enqueue and read runs through it too). */
  readonly queue: RunQueue;
  readonly #settings: FleetSettings;
  // biome-ignore lint/suspicious/noExplicitAny: any world type.
  readonly #graph: GoapGraph<any>;
  readonly #pool: FleetPool;
  readonly #ownsPool: boolean;
  readonly #checkpointer: BaseCheckpointSaver | undefined;
  readonly #warn: (message: string, details?: Record<string, unknown>) => void;
  readonly #inFlight = new Map<string, InFlight>();
  #app: CompiledGoapGraph | undefined;
  #loop: Promise<void> | undefined;
  #stopping = false;
  #wake: (() => void) | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #stats = { claimed: 0, takenOver: 0, finished: 0, released: 0, failed: 0, leasesLost: 0 };

  constructor(options: FleetWorkerOptions) {
    checkOptionKeys(options, FLEET_WORKER_OPTIONS_KEYS, "new FleetWorker()");
    this.#settings = fleetSettings(options);
    this.#graph = options.graph;
    this.#ownsPool = options.pool === undefined;
    this.#pool =
      options.pool ??
      openFleetPool(options.connectionString as string, {
        ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
        applicationName: "langgoap-fleet",
      });
    this.queue = new RunQueue(this.#pool, { schema: this.#settings.schema });
    this.#checkpointer = options.checkpointer;
    this.name = options.name ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.#warn = guarded(options.logger ?? CONSOLE_LOGGER);
  }

  /** What this worker did so far. */
  get stats(): FleetWorkerStats {
    return { ...this.#stats };
  }

  /** Runs executing in this process now. */
  get executing(): number {
    return this.#inFlight.size;
  }

  /**
   * Creates the queue's and the checkpointer's tables when missing (safe
   * from many processes at once), compiles the graph on the checkpointer
   * and starts claiming runs.
   *
   * @example
   * ```ts
   * const worker = new FleetWorker({ graph: new GoapGraph(actions), pool, concurrency: 8 });
   * await worker.start();
   * ```
   */
  async start(): Promise<void> {
    if (this.#loop) throw new LangGoapError("INVALID_OPTION", `FleetWorker ${this.name}: start() was already called`);
    const checkpointer = this.#checkpointer ?? (await this.#postgresSaver());
    await this.queue.setup();
    if (this.#checkpointer === undefined) await this.#setupOnce(checkpointer as BaseCheckpointSaver & { setup(): Promise<void> });
    this.#app = this.#graph.compile({ checkpointer });
    this.#loop = this.#claimLoop();
    this.#beat();
  }

  /**
   * Stops claiming, lets executing runs finish for up to `drainTimeoutMs`,
   * then aborts the rest and releases their leases so another process
   * continues them at once; ends the pool when the worker opened it.
   * Resolves with the worker's stats.
   *
   * @example
   * ```ts
   * process.once("SIGTERM", async () => {
   *   const stats = await worker.stop({ drainTimeoutMs: 10_000 }); // { claimed, finished, released, ... }
   *   process.exit(0);
   * });
   * ```
   */
  async stop(options: { readonly drainTimeoutMs?: number } = {}): Promise<FleetWorkerStats> {
    const drainMs = options.drainTimeoutMs ?? this.#settings.drainTimeoutMs;
    this.#stopping = true;
    this.#wake?.();
    await this.#loop;
    const tasks = [...this.#inFlight.values()];
    let timer: NodeJS.Timeout | undefined;
    const drained = await Promise.race([
      Promise.allSettled(tasks.map((t) => t.task)).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), drainMs);
      }),
    ]);
    clearTimeout(timer);
    if (!drained) {
      for (const t of this.#inFlight.values()) t.controller.abort(new LangGoapError("TIMEOUT", `fleet worker ${this.name} is stopping`));
      await Promise.allSettled([...this.#inFlight.values()].map((t) => t.task));
    }
    clearTimeout(this.#heartbeat);
    this.#heartbeat = undefined;
    if (this.#ownsPool) await this.#pool.end().catch(() => undefined);
    return this.stats;
  }

  async #postgresSaver(): Promise<BaseCheckpointSaver> {
    try {
      const { PostgresSaver } = await import("@langchain/langgraph-checkpoint-postgres");
      return new PostgresSaver(this.#pool as never, undefined, { schema: this.#settings.schema });
    } catch (error) {
      throw new LangGoapError(
        "STORE_ERROR",
        "FleetWorker: the default checkpointer needs @langchain/langgraph-checkpoint-postgres (npm install it) or pass options.checkpointer",
        { package: "@langchain/langgraph-checkpoint-postgres" },
        { cause: error },
      );
    }
  }

  /** The saver's migrations under a session advisory lock: processes starting together would otherwise race on CREATE TABLE. */
  async #setupOnce(saver: { setup(): Promise<void> }): Promise<void> {
    const client = await this.#pool.connect();
    const key = `langgoap-fleet-checkpoints:${this.#settings.schema}`;
    try {
      await client.query("SELECT pg_advisory_lock(hashtext($1))", [key]);
      try {
        await saver.setup();
      } finally {
        await client.query("SELECT pg_advisory_unlock(hashtext($1))", [key]);
      }
      client.release();
    } catch (error) {
      client.release(true);
      throw new LangGoapError(
        "STORE_ERROR",
        `FleetWorker: the checkpointer's tables could not be set up: ${messageOf(error)}`,
        {},
        { cause: error },
      );
    }
  }

  async #claimLoop(): Promise<void> {
    const { concurrency, leaseMs, pollMs } = this.#settings;
    while (!this.#stopping) {
      const free = concurrency - this.#inFlight.size;
      let claimed: ClaimedRun[] = [];
      if (free > 0) {
        const sentAt = performance.now();
        try {
          claimed = await this.queue.claim(free, this.name, leaseMs);
        } catch (error) {
          this.#warn(`fleet worker ${this.name}: claiming runs failed (${messageOf(error)}); trying again in ${pollMs} ms`);
        }
        for (const run of claimed) this.#launch(run, sentAt);
      }
      // More may be waiting when every free slot was filled; otherwise look again after pollMs, or as soon as a slot frees.
      if (!this.#stopping && !(free > 0 && claimed.length === free)) await this.#idle(pollMs);
    }
  }

  /** Every `heartbeatMs` (while the worker runs, stopping included), renews the leases of every executing run in one statement. */
  #beat(): void {
    this.#heartbeat = setTimeout(async () => {
      const held = [...this.#inFlight.values()].filter((f) => f.lease.lost === null);
      if (held.length > 0) {
        const sentAt = performance.now();
        try {
          const still = await this.queue.renew(
            held.map((f) => f.run),
            this.name,
            this.#settings.leaseMs,
          );
          for (const f of held) {
            if (still.has(f.run.runId)) f.lease.renewed(sentAt);
            // Ended meanwhile (its end cleared the lease): nothing to stop.
            else if (this.#inFlight.has(f.run.runId)) f.lease.takenOver();
          }
        } catch {
          // Retried at the next beat; each run's fence stops it if no renewal succeeds in time.
        }
      }
      if (this.#heartbeat !== undefined) this.#beat();
    }, this.#settings.heartbeatMs);
  }

  #idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const wake = () => done();
      this.#wake = wake;
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  #launch(run: ClaimedRun, claimedAt: number): void {
    this.#stats.claimed++;
    if (run.takenOver) this.#stats.takenOver++;
    const controller = new AbortController();
    const lease = new RunLease(this.#settings, claimedAt, (reason) =>
      controller.abort(new LangGoapError("STEP_CLAIMED", `fleet worker ${this.name} lost the lease of run ${run.runId}: ${reason}`)),
    );
    const task = this.#execute(run, lease, controller.signal).finally(() => {
      lease.stop();
      this.#inFlight.delete(run.runId);
      this.#wake?.();
    });
    this.#inFlight.set(run.runId, { run, lease, controller, task });
  }

  async #execute(run: ClaimedRun, lease: RunLease, signal: AbortSignal): Promise<void> {
    const { maxAttempts, retryDelayMs } = this.#settings;
    try {
      if (run.attempts > maxAttempts) {
        await this.#end(run, "fail", `given up after ${maxAttempts} attempts`);
        return;
      }
      const result = await executeClaimedRun(this.#graph, this.#app as CompiledGoapGraph, run, signal);
      lease.stop();
      if (lease.lost !== null) this.#stats.leasesLost++;
      // Stopped by stop(): the run has not ended; another process continues it at once.
      else if (signal.aborted) await this.#end(run, "release", "released by a stopping worker", 0);
      else await this.#end(run, "finish", String(result.status));
    } catch (error) {
      lease.stop();
      if (lease.lost !== null) {
        this.#stats.leasesLost++;
        return;
      }
      const message = messageOf(error);
      if (signal.aborted) await this.#end(run, "release", "released by a stopping worker", 0);
      else if ((error instanceof LangGoapError && PERMANENT.has(error.code)) || run.attempts >= maxAttempts)
        await this.#end(run, "fail", message);
      else await this.#end(run, "release", message, retryDelayMs);
    }
  }

  /** Writes a run's end; a write that fails leaves the lease to expire, and the run to the process that takes it over. */
  async #end(run: ClaimedRun, how: "finish" | "release" | "fail", detail: string, delayMs = 0): Promise<void> {
    try {
      const held =
        how === "finish"
          ? await this.queue.finish(run, this.name, detail)
          : how === "release"
            ? await this.queue.release(run, this.name, detail, delayMs)
            : await this.queue.fail(run, this.name, detail);
      if (!held) {
        this.#stats.leasesLost++;
        return;
      }
      if (how === "finish") this.#stats.finished++;
      else if (how === "release") this.#stats.released++;
      else this.#stats.failed++;
      if (how === "fail") this.#warn(`fleet worker ${this.name}: run ${run.runId} given up: ${detail}`, { runId: run.runId });
    } catch (error) {
      this.#warn(
        `fleet worker ${this.name}: the end of run ${run.runId} could not be written (${messageOf(error)}); its lease will expire`,
        {
          runId: run.runId,
        },
      );
    }
  }
}
