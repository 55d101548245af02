import { isConnectionError } from "./connection-errors.js";
import type { ClaimedRun, QueuedRunState, RunQueue } from "./run-queue.js";

/** @internal How a worker ends a run it holds: done, back to the queue, or given up. */
export type RunEndKind = "finish" | "release" | "fail";

/** @internal An end to write: the run, how, the status or reason, and (for a release) when the run is claimable again. */
export interface RunEnd {
  readonly run: ClaimedRun;
  readonly how: RunEndKind;
  readonly detail: string;
  readonly delayMs: number;
}

const STATE_AFTER: Readonly<Record<RunEndKind, QueuedRunState>> = { finish: "done", release: "queued", fail: "error" };

/**
 * @internal The ends of the runs a worker held, written under the lease
 * that names them. While the database is unreachable an end waits here and
 * is written once the worker has reconnected (`flush`), so a run stopped
 * by an outage is back in the queue at once rather than after its lease.
 * An end whose answer was lost with its connection is checked on the next
 * try: the run ended as wanted under the same claim means it was written.
 */
export class RunEnds {
  readonly #queue: RunQueue;
  readonly #owner: string;
  readonly #link: { readonly down: boolean };
  readonly #onEnded: (end: RunEnd, held: boolean) => void;
  readonly #onFailed: (end: RunEnd, error: unknown) => void;
  readonly #pending = new Map<string, RunEnd>();

  /** `onEnded`: written (`held`), or the lease was no longer held; `onFailed`: a statement error other than a lost connection. */
  constructor(
    queue: RunQueue,
    owner: string,
    link: { readonly down: boolean },
    onEnded: (end: RunEnd, held: boolean) => void,
    onFailed: (end: RunEnd, error: unknown) => void,
  ) {
    this.#queue = queue;
    this.#owner = owner;
    this.#link = link;
    this.#onEnded = onEnded;
    this.#onFailed = onFailed;
  }

  /** Ends waiting for the database. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Writes `end` now, or keeps it for `flush` while the database is unreachable. */
  async write(end: RunEnd): Promise<void> {
    // Twice at most: the first try may meet a connection that broke in an outage already over (then the pool opens a new one).
    for (let tries = 0; tries < 2; tries++) {
      if (this.#link.down) break;
      try {
        this.#onEnded(end, await this.#send(end, tries > 0));
        return;
      } catch (error) {
        if (!isConnectionError(error)) return this.#onFailed(end, error);
      }
    }
    this.#pending.set(end.run.runId, end);
  }

  /** Writes the ends that waited, in order, until the database fails again; returns how many were written. */
  async flush(): Promise<number> {
    let written = 0;
    for (const [runId, end] of [...this.#pending]) {
      if (this.#link.down) break;
      try {
        const held = await this.#send(end, true);
        this.#pending.delete(runId);
        if (held) written++;
        this.#onEnded(end, held);
      } catch (error) {
        if (isConnectionError(error)) break;
        this.#pending.delete(runId);
        this.#onFailed(end, error);
      }
    }
    return written;
  }

  /** Forgets the ends that could not be written (the worker stopped): their leases expire and other processes take the runs over. */
  drop(): number {
    const n = this.#pending.size;
    this.#pending.clear();
    return n;
  }

  async #send(end: RunEnd, mayHaveBeenWritten: boolean): Promise<boolean> {
    const { run, how, detail, delayMs } = end;
    const held =
      how === "finish"
        ? await this.#queue.finish(run, this.#owner, detail)
        : how === "release"
          ? await this.#queue.release(run, this.#owner, detail, delayMs)
          : await this.#queue.fail(run, this.#owner, detail);
    if (held || !mayHaveBeenWritten) return held;
    return (await this.#queue.endedAs(run)) === STATE_AFTER[how];
  }
}
