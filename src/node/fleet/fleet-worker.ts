import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { CONSOLE_LOGGER, LangGoapError } from "../../core/index.js";
import type { CompiledGoapGraph, GoapGraph } from "../../graph/index.js";
import { isConnectionError } from "./connection-errors.js";
import { DatabaseLink, Interrupted, pause, unlessAborted } from "./database-link.js";
import { executeClaimedRun } from "./execute-claimed-run.js";
import { fleetCheckpointer } from "./fleet-checkpointer.js";
import { type FleetLog, fleetLog, messageOf } from "./fleet-log.js";
import { type FleetSettings, type FleetWorkerOptions, fleetSettings } from "./fleet-options.js";
import { HeldClient } from "./held-client.js";
import { openFleetPool } from "./pg-pool.js";
import { type RunEnd, RunEnds } from "./run-ends.js";
import { RunLease } from "./run-lease.js";
import { type ClaimedRun, RunQueue } from "./run-queue.js";
import { type WatchedPool, watchedPool } from "./watched-pool.js";

/** What a worker did since it started. */
export interface FleetWorkerStats {
  /** Runs claimed (each claim counts). */
  readonly claimed: number;
  /** Of those, runs taken over from a process whose lease had expired. */
  readonly takenOver: number;
  /** Runs this worker brought to a final status (`done`). */
  readonly finished: number;
  /** Runs given back to the queue: an attempt failed (retried later), an outage or `stop()` ended it (continued at once). */
  readonly released: number;
  /** Runs given up as `error` (a permanent error, or `maxAttempts` claims). */
  readonly failed: number;
  /** Runs this worker stopped because its lease was lost (another process holds them now, or may take them). */
  readonly leasesLost: number;
  /** Times the database went away (each outage counts once, however many statements failed in it). */
  readonly outages: number;
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

/** Why the worker itself stopped an executing run (a lost lease is the lease's own record). */
type StopCause = "stopping" | "outage";

interface InFlight {
  readonly run: ClaimedRun;
  readonly lease: RunLease;
  readonly controller: AbortController;
  task: Promise<void>;
  stoppedBy: StopCause | null;
}

/**
 * One process's share of a fleet: it claims runs from the {@link RunQueue}
 * (up to `concurrency` at once), executes each on its `GoapGraph` with the
 * fleet's checkpointer, and holds a lease on each while it executes,
 * renewed every `heartbeatMs`. When a process dies, its leases expire
 * after `leaseMs` and, `takeoverGraceMs` later, the other workers take its
 * runs over with `graph.recover()`: steps that finished never run again,
 * the step that was running runs once more with the same idempotency key,
 * and every run reaches a final status without a person. A worker that
 * cannot renew a lease in time aborts that run before the lease can
 * expire. When the database goes away (a restart, a network cut) the
 * worker stops its runs at once, logs one line, reconnects on a capped
 * backoff and gives the stopped runs back to the queue; the process never
 * dies of it.
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
  readonly #pool: WatchedPool;
  readonly #ownsPool: boolean;
  readonly #checkpointer: BaseCheckpointSaver | undefined;
  readonly #log: FleetLog;
  readonly #signal: AbortSignal | undefined;
  readonly #inFlight = new Map<string, InFlight>();
  readonly #halt = new AbortController();
  /** Aborted once stop() has drained the runs: renewals go on until then. */
  readonly #beatsEnd = new AbortController();
  /** The connection renewals go on, held out of the pool: a renewal never waits for one behind the runs' statements. */
  readonly #beatClient: HeldClient;
  #link: DatabaseLink | undefined;
  #ends: RunEnds | undefined;
  #app: CompiledGoapGraph | undefined;
  #loop: Promise<void> | undefined;
  #heartbeat: Promise<void> | undefined;
  #stopped: Promise<FleetWorkerStats> | undefined;
  #wake: (() => void) | undefined;
  #stats = { claimed: 0, takenOver: 0, finished: 0, released: 0, failed: 0, leasesLost: 0 };

  constructor(options: FleetWorkerOptions) {
    this.#settings = fleetSettings(options);
    this.#graph = options.graph;
    this.#ownsPool = options.pool === undefined;
    this.#pool = watchedPool(
      options.pool ??
        openFleetPool(options.connectionString as string, {
          ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
          applicationName: "langgoap-fleet",
        }),
    );
    this.queue = new RunQueue(this.#pool, { schema: this.#settings.schema });
    this.#beatClient = new HeldClient(this.#pool);
    this.#checkpointer = options.checkpointer;
    this.name = options.name ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.#log = fleetLog(options.logger ?? CONSOLE_LOGGER);
    this.#signal = options.signal;
  }

  /** What this worker did so far. */
  get stats(): FleetWorkerStats {
    return { ...this.#stats, outages: this.#link?.outages ?? 0 };
  }

  /** Runs executing in this process now. */
  get executing(): number {
    return this.#inFlight.size;
  }

  /**
   * Creates the queue's and the checkpointer's tables when missing (safe
   * from many processes at once), compiles the graph on the checkpointer
   * and starts claiming runs. The database must be reachable here; once
   * started, the worker rides out outages.
   *
   * @example
   * ```ts
   * const worker = new FleetWorker({ graph: new GoapGraph(actions), pool, concurrency: 8 });
   * await worker.start();
   * ```
   */
  async start(): Promise<void> {
    if (this.#loop || this.#stopped) throw new LangGoapError("INVALID_OPTION", `FleetWorker ${this.name}: start() was already called`);
    this.#signal?.throwIfAborted();
    await this.queue.setup();
    const checkpointer = this.#checkpointer ?? (await fleetCheckpointer(this.#pool, this.#settings.schema));
    this.#app = this.#graph.compile({ checkpointer });
    const { reconnectDelayMs, maxReconnectDelayMs, heartbeatMs } = this.#settings;
    const link = new DatabaseLink(this.#pool, { reconnectDelayMs, maxReconnectDelayMs, probeTimeoutMs: heartbeatMs }, (cause) =>
      this.#outageBegan(cause),
    );
    this.#link = link;
    this.#ends = new RunEnds(
      this.queue,
      this.name,
      link,
      (end, held) => this.#ended(end, held),
      (end, error) =>
        this.#log.warn(
          `fleet worker ${this.name}: the end of run ${end.run.runId} could not be written (${messageOf(error)}); its lease will expire`,
          { runId: end.run.runId },
        ),
    );
    this.#loop = this.#claimLoop();
    this.#heartbeat = this.#beatLoop();
    this.#signal?.addEventListener("abort", () => void this.stop(), { once: true });
  }

  /**
   * Stops claiming, lets executing runs finish for up to `drainTimeoutMs`,
   * then aborts the rest and releases their leases so another process
   * continues them at once; ends the pool when the worker opened it. Stops
   * reconnecting when the database is away (the leases of the runs it held
   * then expire, and other processes take them over). Resolves with the
   * worker's stats; calling it again returns the same promise.
   *
   * @example
   * ```ts
   * process.once("SIGTERM", async () => {
   *   const stats = await worker.stop({ drainTimeoutMs: 10_000 }); // { claimed, finished, released, outages, ... }
   *   process.exit(0);
   * });
   * ```
   */
  stop(options: { readonly drainTimeoutMs?: number } = {}): Promise<FleetWorkerStats> {
    this.#stopped ??= this.#stop(options.drainTimeoutMs ?? this.#settings.drainTimeoutMs);
    return this.#stopped;
  }

  async #stop(drainMs: number): Promise<FleetWorkerStats> {
    this.#halt.abort();
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
      for (const t of this.#inFlight.values()) this.#abort(t, "stopping", `fleet worker ${this.name} is stopping`);
      await Promise.allSettled([...this.#inFlight.values()].map((t) => t.task));
    }
    this.#beatsEnd.abort();
    await this.#heartbeat;
    this.#beatClient.drop();
    const unwritten = this.#ends?.drop() ?? 0;
    if (unwritten > 0) {
      this.#log.warn(
        `fleet worker ${this.name}: stopped while its database was unreachable; the leases of ${unwritten} runs it stopped will expire and other processes take them over`,
        { unwritten },
      );
    }
    this.#link?.close();
    if (this.#ownsPool) await this.#pool.end().catch(() => undefined);
    return this.stats;
  }

  get #halted(): boolean {
    return this.#halt.signal.aborted;
  }

  async #claimLoop(): Promise<void> {
    const { concurrency, leaseMs, pollMs, takeoverGraceMs } = this.#settings;
    const link = this.#link as DatabaseLink;
    while (!this.#halted) {
      if (link.down) {
        await this.#reconnect();
        continue;
      }
      const free = concurrency - this.#inFlight.size;
      let claimed: ClaimedRun[] = [];
      if (free > 0) {
        const sentAt = performance.now();
        const claim = this.queue.claim(free, this.name, leaseMs, takeoverGraceMs);
        try {
          claimed = await unlessAborted(claim, link.up, this.#halt.signal);
        } catch (error) {
          // A claim cut short (an outage began, or stop()): runs it took after all go straight back to the queue.
          if (error instanceof Interrupted)
            void claim.then(
              (late) => this.#giveBack(late),
              () => undefined,
            );
          else if (!isConnectionError(error))
            this.#log.warn(`fleet worker ${this.name}: claiming runs failed (${messageOf(error)}); trying again in ${pollMs} ms`);
        }
        for (const run of claimed) this.#launch(run, sentAt);
      }
      // More may be waiting when every free slot was filled; otherwise look again after pollMs, or as soon as a slot frees.
      if (!this.#halted && !link.down && !(free > 0 && claimed.length === free)) await this.#idle(pollMs);
    }
  }

  /** Reconnects on the backoff schedule, then writes the ends that waited and logs the outage's end (one line). */
  async #reconnect(): Promise<void> {
    const link = this.#link as DatabaseLink;
    const outage = await link.reconnect(this.#halt.signal);
    if (!outage) return;
    const released = await (this.#ends as RunEnds).flush();
    this.#log.info(
      `fleet worker ${this.name}: reconnected to its database after ${(outage.ms / 1000).toFixed(1)} s ` +
        `(${outage.attempts} attempts; ${outage.failedStatements} statements failed in the outage); ${released} stopped runs given back to the queue`,
      { event: "reconnected", ...outage, released },
    );
  }

  /** Runs a claim cut short had taken: given back at once (they never started here). */
  async #giveBack(runs: readonly ClaimedRun[]): Promise<void> {
    for (const run of runs) await this.#ends?.write({ run, how: "release", detail: "claimed during an outage", delayMs: 0 });
  }

  /** Every `heartbeatMs` (while the worker runs, stopping included), renews the leases of every executing run in one statement. */
  async #beatLoop(): Promise<void> {
    const { heartbeatMs, leaseMs } = this.#settings;
    const link = this.#link as DatabaseLink;
    const end = this.#beatsEnd.signal;
    for (;;) {
      await pause(heartbeatMs, end);
      if (end.aborted) return;
      const held = [...this.#inFlight.values()].filter((f) => f.lease.lost === null && f.stoppedBy === null);
      if (held.length === 0 || link.down) continue;
      const runs = held.map((f) => f.run);
      try {
        const client = await unlessAborted(this.#beatClient.get(), link.up, end);
        const sentAt = performance.now();
        const still = await unlessAborted(this.queue.renew(runs, this.name, leaseMs, client), link.up, end);
        for (const f of held) {
          if (still.has(f.run.runId)) f.lease.renewed(sentAt);
          // Ended meanwhile (its end cleared the lease): nothing to stop.
          else if (this.#inFlight.has(f.run.runId)) f.lease.takenOver();
        }
      } catch (error) {
        // A lost connection is an outage (the link stops the runs); otherwise retried at the next beat, on a new connection. Each
        // run's fence stops it if no renewal succeeds in time.
        if (!(error instanceof Interrupted)) this.#beatClient.drop(error);
      }
    }
  }

  #idle(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      const link = this.#link as DatabaseLink;
      link.up.addEventListener("abort", done, { once: true });
      this.#wake = done;
      function done(): void {
        clearTimeout(timer);
        link.up.removeEventListener("abort", done);
        resolve();
      }
    });
  }

  /** The database went away: every executing run stops now, before a statement that failed can be acted on (one line logged). */
  #outageBegan(cause: string): void {
    const stopping = [...this.#inFlight.values()].filter((f) => f.lease.lost === null && f.stoppedBy === null);
    const { reconnectDelayMs, maxReconnectDelayMs } = this.#settings;
    this.#log.warn(
      `fleet worker ${this.name}: lost its database (${cause}); stopped ${stopping.length} runs, reconnecting in ${reconnectDelayMs} ms, ` +
        `the wait doubling up to ${maxReconnectDelayMs} ms`,
      { event: "outage", cause, runs: stopping.length },
    );
    for (const f of stopping) this.#abort(f, "outage", `fleet worker ${this.name} lost its database: ${cause}`);
    // The heartbeat's connection went with the others (or hangs): renewals start on a new one after the reconnection.
    this.#beatClient.drop(new Error(cause));
    this.#wake?.();
  }

  #abort(f: InFlight, cause: StopCause, reason: string): void {
    if (f.controller.signal.aborted) return;
    f.stoppedBy = cause;
    this.#log.debug(`fleet worker ${this.name}: stopping run ${f.run.runId}: ${reason}`, { event: "stopping", runId: f.run.runId, reason });
    f.controller.abort(new LangGoapError(cause === "outage" ? "STORE_ERROR" : "TIMEOUT", reason));
  }

  #launch(run: ClaimedRun, claimedAt: number): void {
    this.#stats.claimed++;
    if (run.takenOver) this.#stats.takenOver++;
    this.#log.debug(`fleet worker ${this.name}: claimed run ${run.runId} (claim ${run.attempts}${run.takenOver ? ", taken over" : ""})`, {
      event: "claimed",
      runId: run.runId,
      attempts: run.attempts,
      takenOver: run.takenOver,
    });
    const controller = new AbortController();
    const lease = new RunLease(this.#settings, claimedAt, (reason, cutOff) => {
      if (!controller.signal.aborted) {
        const text = `fleet worker ${this.name} lost the lease of run ${run.runId}: ${reason}`;
        this.#log.debug(`fleet worker ${this.name}: stopping run ${run.runId}: ${reason}`, { event: "stopping", runId: run.runId, reason });
        controller.abort(new LangGoapError("STEP_CLAIMED", text));
      }
      // No renewal got through in time: the database is unreachable (or too slow) for every run here, not just this one.
      if (cutOff) this.#link?.lost(reason);
    });
    const f: InFlight = { run, lease, controller, task: Promise.resolve(), stoppedBy: null };
    f.task = this.#execute(f).finally(() => {
      lease.stop();
      this.#inFlight.delete(run.runId);
      this.#wake?.();
    });
    this.#inFlight.set(run.runId, f);
  }

  async #execute(f: InFlight): Promise<void> {
    const { run, lease, controller } = f;
    const { signal } = controller;
    const { maxAttempts, retryDelayMs } = this.#settings;
    const stopped = () => (f.stoppedBy === "outage" ? "stopped by a database outage" : "released by a stopping worker");
    try {
      if (run.attempts > maxAttempts) {
        await this.#end(run, "fail", `given up after ${maxAttempts} attempts`);
        return;
      }
      const result = await executeClaimedRun(this.#graph, this.#app as CompiledGoapGraph, run, signal);
      lease.stop();
      this.#executed(run, String(result.status));
      if (lease.lost !== null) this.#stats.leasesLost++;
      // Stopped by stop() or an outage: the run has not ended; another claim continues it at once.
      else if (signal.aborted && result.status === "aborted") await this.#end(run, "release", stopped());
      else await this.#end(run, "finish", String(result.status));
    } catch (error) {
      lease.stop();
      const message = messageOf(error);
      this.#executed(run, `error: ${message}`);
      if (lease.lost !== null) {
        this.#stats.leasesLost++;
        return;
      }
      if (signal.aborted) await this.#end(run, "release", stopped());
      // A connection that broke in an outage already over: not the run's fault.
      else if (isConnectionError(error)) await this.#end(run, "release", message);
      else if ((error instanceof LangGoapError && PERMANENT.has(error.code)) || run.attempts >= maxAttempts)
        await this.#end(run, "fail", message);
      else await this.#end(run, "release", message, retryDelayMs);
    }
  }

  /** The run's execution here is over (its end is written next). */
  #executed(run: ClaimedRun, outcome: string): void {
    this.#log.debug(`fleet worker ${this.name}: run ${run.runId} executed (${outcome})`, { event: "executed", runId: run.runId });
  }

  /** Writes a run's end (or keeps it until the worker has reconnected); a write that fails otherwise leaves the lease to expire. */
  #end(run: ClaimedRun, how: RunEnd["how"], detail: string, delayMs = 0): Promise<void> {
    return (this.#ends as RunEnds).write({ run, how, detail, delayMs });
  }

  #ended(end: RunEnd, held: boolean): void {
    const { run, how, detail } = end;
    this.#log.debug(`fleet worker ${this.name}: run ${run.runId} ${held ? `ended (${how}: ${detail})` : "was no longer held"}`, {
      event: held ? how : "not-held",
      runId: run.runId,
    });
    if (!held) {
      this.#stats.leasesLost++;
      return;
    }
    if (how === "finish") this.#stats.finished++;
    else if (how === "release") this.#stats.released++;
    else {
      this.#stats.failed++;
      this.#log.warn(`fleet worker ${this.name}: run ${run.runId} given up: ${detail}`, { runId: run.runId });
    }
  }
}
