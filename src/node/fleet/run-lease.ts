/** @internal Timing of a lease: renewed every `heartbeatMs`, valid `leaseMs` from the last renewal the database saw. */
export interface LeaseTiming {
  readonly leaseMs: number;
  readonly heartbeatMs: number;
}

/**
 * @internal The lease of one executing run, as its process sees it. The
 * worker renews the leases of all its runs in one statement every
 * `heartbeatMs` and reports each outcome here. The holder stops itself
 * (calls `onLost`) when the database says it no longer holds the run (the
 * lease expired, or another process took the run over), or when no
 * renewal succeeded for `leaseMs − heartbeatMs`, measured on this
 * process's monotonic clock from the moment the last successful renewal
 * (or the claim) was sent. The database's expiry counts `leaseMs` from
 * when it received that statement, later, and another process may take
 * the run over only `takeoverGraceMs` after the expiry: so a process cut
 * off from the database stops its run at least `heartbeatMs +
 * takeoverGraceMs` before another one may start it, whatever the network
 * did. No clock of two machines is ever compared, only how fast each
 * measures time passing.
 */
export class RunLease {
  readonly #timing: LeaseTiming;
  readonly #onLost: (reason: string, cutOff: boolean) => void;
  #renewedAt: number;
  #fence: NodeJS.Timeout | undefined;
  #lost: string | null = null;
  #stopped = false;

  /**
   * `claimedAt`: this process's `performance.now()` when the claim was
   * sent; `onLost(reason, cutOff)`: `cutOff` when no renewal succeeded in
   * time (the database is unreachable or too slow), rather than the
   * database answering that the lease is gone.
   */
  constructor(timing: LeaseTiming, claimedAt: number, onLost: (reason: string, cutOff: boolean) => void) {
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

  /** The database says this process no longer holds the run (its lease expired, or another process took it over). */
  takenOver(): void {
    this.#lose("the database no longer holds its lease (it expired, or another process took the run over)", false);
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
    this.#fence = setTimeout(() => this.#lose(`no lease renewal succeeded for ${window} ms`, true), Math.max(0, left));
  }

  #lose(reason: string, cutOff: boolean): void {
    if (this.#stopped || this.#lost !== null) return;
    this.#lost = reason;
    this.stop();
    this.#onLost(reason, cutOff);
  }
}
