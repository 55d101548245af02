/** @internal Timing of a lease: renewed every `heartbeatMs`, valid `leaseMs` from the last renewal the database saw. */
export interface LeaseTiming {
  readonly leaseMs: number;
  readonly heartbeatMs: number;
}

/**
 * @internal The lease of one executing run, as its process sees it. The
 * worker renews the leases of all its runs in one statement every
 * `heartbeatMs` and reports each outcome here. The holder stops itself
 * (calls `onLost`) when the database says another process holds the run
 * now, or when no renewal succeeded for `leaseMs − heartbeatMs`, measured
 * on this process's monotonic clock from the moment the last successful
 * renewal was sent: that is before the lease can expire in the database
 * (whose expiry counts from when it received the renewal, later), so a
 * process cut off from the database stops its run before another one may
 * take it over. No clock of two machines is ever compared.
 */
export class RunLease {
  readonly #timing: LeaseTiming;
  readonly #onLost: (reason: string) => void;
  #renewedAt: number;
  #fence: NodeJS.Timeout | undefined;
  #lost: string | null = null;
  #stopped = false;

  /** `claimedAt`: this process's `performance.now()` when the claim was sent. */
  constructor(timing: LeaseTiming, claimedAt: number, onLost: (reason: string) => void) {
    this.#timing = timing;
    this.#onLost = onLost;
    this.#renewedAt = claimedAt;
    this.#armFence();
  }

  /** Why the lease was lost, or null while it is held. */
  get lost(): string | null {
    return this.#lost;
  }

  /** A renewal sent at `sentAt` (`performance.now()`) succeeded. */
  renewed(sentAt: number): void {
    if (this.#stopped || sentAt <= this.#renewedAt) return;
    this.#renewedAt = sentAt;
    this.#armFence();
  }

  /** The database says another process holds the run now. */
  takenOver(): void {
    this.#lose("another process holds the run now (its lease expired and it was taken over)");
  }

  /** Stops watching (the run ended, or its lease is being released). */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#fence);
  }

  #armFence(): void {
    clearTimeout(this.#fence);
    const window = this.#timing.leaseMs - this.#timing.heartbeatMs;
    const left = this.#renewedAt + window - performance.now();
    this.#fence = setTimeout(() => this.#lose(`no lease renewal succeeded for ${window} ms`), Math.max(0, left));
  }

  #lose(reason: string): void {
    if (this.#stopped || this.#lost !== null) return;
    this.#lost = reason;
    this.stop();
    this.#onLost(reason);
  }
}
