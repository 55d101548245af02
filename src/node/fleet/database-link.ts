import { type ReconnectTiming, reconnectDelay } from "./reconnect-backoff.js";
import type { WatchedPool } from "./watched-pool.js";

/** @internal An outage that ended: how long, how many attempts and failed statements, and what began it. */
export interface OutageSummary {
  readonly ms: number;
  readonly attempts: number;
  readonly failedStatements: number;
  readonly cause: string;
}

/** @internal What a {@link DatabaseLink} needs besides its pool. */
export interface LinkTiming extends ReconnectTiming {
  /** How long one reconnection attempt may take before it counts as failed, ms. */
  readonly probeTimeoutMs: number;
}

/** Thrown into a wait cut short by the link going down or the worker stopping. */
export class Interrupted extends Error {}

/** @internal Resolves after `ms`, or as soon as `signal` aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}

/** @internal `work`, or {@link Interrupted} as soon as one of `signals` aborts (the work goes on; its outcome is ignored). */
export function unlessAborted<T>(work: Promise<T>, ...signals: AbortSignal[]): Promise<T> {
  const any = AbortSignal.any(signals);
  if (any.aborted) return Promise.reject(new Interrupted("interrupted"));
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new Interrupted("interrupted"));
    any.addEventListener("abort", stop, { once: true });
    work.then(
      (value) => {
        any.removeEventListener("abort", stop);
        resolve(value);
      },
      (error: unknown) => {
        any.removeEventListener("abort", stop);
        reject(error);
      },
    );
  });
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === "string" && !error.message.includes(code) ? `${code}: ${error.message}` : error.message || error.name;
  }
  return String(error);
}

/**
 * @internal A worker's view of its database: up, or in an outage that
 * began with the first connection error of a statement through the pool
 * (or with `lost()`), and ends when a reconnection attempt succeeds. Many
 * failing statements make one outage. The breaks of connections opened
 * before the last reconnection (an idle connection that died with the
 * server, noticed late) are the old outage's, never a new one.
 */
export class DatabaseLink {
  readonly #pool: WatchedPool;
  readonly #timing: LinkTiming;
  readonly #onLost: (cause: string) => void;
  readonly #unwatch: () => void;
  #up = new AbortController();
  #upSince = Number.NEGATIVE_INFINITY;
  #outage: { since: number; cause: string; failed: number } | null = null;
  #outages = 0;

  /** `onLost` runs once when an outage begins, synchronously, before the failed statement's caller sees its error. */
  constructor(pool: WatchedPool, timing: LinkTiming, onLost: (cause: string) => void) {
    this.#pool = pool;
    this.#timing = timing;
    this.#onLost = onLost;
    this.#unwatch = pool.watch((error, openedAt) => {
      if (openedAt >= this.#upSince) this.lost(error);
    });
  }

  /** True during an outage. */
  get down(): boolean {
    return this.#outage !== null;
  }

  /** Outages so far (the current one included). */
  get outages(): number {
    return this.#outages;
  }

  /** Aborts when the current connected period ends (an outage begins). */
  get up(): AbortSignal {
    return this.#up.signal;
  }

  /** The database is unreachable (`cause`: the connection error, or why): begins an outage, or counts one more failure in it. */
  lost(cause: unknown): void {
    if (this.#outage) {
      this.#outage.failed++;
      return;
    }
    this.#outage = { since: performance.now(), cause: describe(cause), failed: 1 };
    this.#outages++;
    this.#up.abort();
    this.#onLost(this.#outage.cause);
  }

  /**
   * Tries to reach the database on the backoff schedule until it answers
   * (resolves with the outage's summary) or `stop` aborts (resolves null).
   */
  async reconnect(stop: AbortSignal): Promise<OutageSummary | null> {
    for (let attempt = 1; ; attempt++) {
      await pause(reconnectDelay(attempt, this.#timing), stop);
      if (stop.aborted) return null;
      const startedAt = performance.now();
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), this.#timing.probeTimeoutMs);
      try {
        await unlessAborted(this.#pool.query("SELECT 1"), stop, timeout.signal);
      } catch {
        // Counted by the pool's report when it was a connection error; a probe that timed out counts here.
        if (timeout.signal.aborted && this.#outage) this.#outage.failed++;
        if (stop.aborted) return null;
        continue;
      } finally {
        clearTimeout(timer);
      }
      const outage = this.#outage;
      this.#outage = null;
      // Connections opened before this attempt broke with the outage, or may yet: their errors are the old outage's.
      this.#upSince = startedAt;
      this.#up = new AbortController();
      return outage
        ? { ms: Math.round(performance.now() - outage.since), attempts: attempt, failedStatements: outage.failed, cause: outage.cause }
        : { ms: 0, attempts: attempt, failedStatements: 0, cause: "" };
    }
  }

  /** Stops listening to the pool. */
  close(): void {
    this.#unwatch();
  }
}
