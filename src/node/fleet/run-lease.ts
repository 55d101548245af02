import type { ClaimedRun, RunQueue } from "./run-queue.js";

/** @internal Timing of a lease: renewed every `heartbeatMs`, valid `leaseMs` from the last renewal the database saw. */
export interface LeaseTiming {
  readonly leaseMs: number;
  readonly heartbeatMs: number;
}

/**
 * @internal The lease of one executing run: renewed every `heartbeatMs`.
 * The holder stops itself (calls `onLost`) when the database says another
 * process holds the run now, or when no renewal succeeded for `leaseMs −
 * heartbeatMs`, measured on this process's monotonic clock from the
 * moment the last successful renewal was sent: that is before the lease
 * can expire in the database (whose expiry counts from when it received
 * the renewal, later), so a process cut off from the database stops its
 * run before another one may take it over. No clock of two machines is
 * ever compared.
 */
export class RunLease {
  readonly #queue: RunQueue;
  readonly #run: ClaimedRun;
  readonly #owner: string;
  readonly #timing: LeaseTiming;
  readonly #onLost: (reason: string) => void;
  #renewedAt: number;
  #heartbeat: NodeJS.Timeout | undefined;
  #fence: NodeJS.Timeout | undefined;
  #lost: string | null = null;
  #stopped = false;

  /** `claimedAt`: this process's `performance.now()` when the claim was sent. */
  constructor(queue: RunQueue, run: ClaimedRun, owner: string, timing: LeaseTiming, claimedAt: number, onLost: (reason: string) => void) {
    this.#queue = queue;
    this.#run = run;
    this.#owner = owner;
    this.#timing = timing;
    this.#onLost = onLost;
    this.#renewedAt = claimedAt;
    this.#armFence();
    this.#schedule();
  }

  /** Why the lease was lost, or null while it is held. */
  get lost(): string | null {
    return this.#lost;
  }

  /** Stops renewing (the run ended, or its lease is being released). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#heartbeat);
    clearTimeout(this.#fence);
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#heartbeat = setTimeout(() => void this.#renew(), this.#timing.heartbeatMs);
  }

  #armFence(): void {
    clearTimeout(this.#fence);
    const left = this.#renewedAt + this.#timing.leaseMs - this.#timing.heartbeatMs - performance.now();
    this.#fence = setTimeout(
      () => this.#lose(`no lease renewal succeeded for ${this.#timing.leaseMs - this.#timing.heartbeatMs} ms`),
      Math.max(0, left),
    );
  }

  async #renew(): Promise<void> {
    if (this.#stopped) return;
    const sentAt = performance.now();
    try {
      const held = await this.#queue.renew(this.#run, this.#owner, this.#timing.leaseMs);
      if (this.#stopped) return;
      if (!held) {
        this.#lose("another process holds the run now (its lease expired and it was taken over)");
        return;
      }
      this.#renewedAt = sentAt;
      this.#armFence();
    } catch {
      // A failed renewal is retried at the next beat; the fence stops the run if none succeeds in time.
    }
    this.#schedule();
  }

  #lose(reason: string): void {
    if (this.#stopped || this.#lost !== null) return;
    this.#lost = reason;
    this.stop();
    this.#onLost(reason);
  }
}
