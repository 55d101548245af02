/**
 * @internal How long a slice of langgoap's sliced work (planning's setup and
 * search, checking and copying world states) runs before it gives the event
 * loop a turn, adapted to how busy the machine's cores are.
 *
 * With a core to spare, a slice runs its full length ({@link SLICE_MAX_MS}):
 * few turns, little overhead. When other processes compete for the cores,
 * the operating system takes the thread off its core for whole scheduler
 * ticks (4 ms and more), inside a slice or between two, and every such wait
 * adds to the event loop's delay on top of the slice: beside two busy
 * processes on two cores, slices of 5 ms gave timers a median delay of
 * 5-8 ms and a p99 over 20 ms. A slice whose CPU time falls well short of
 * its wall time shows the waits: the next slices are halved, down to
 * {@link SLICE_MIN_MS}, and grow back by {@link SLICE_REGROW_MS} per slice
 * that runs undisturbed. Only when a slice ends depends on this, never what
 * the sliced work computes.
 *
 * CPU time is the process's (`process.cpuUsage`, all threads): a collector's
 * helper threads or a worker busy beside the slice hide a wait rather than
 * invent one, so the length errs toward the full slice. Where the process's
 * CPU time cannot be read (a browser), slices keep their full length.
 */

/** Longest slice, in ms: the length on a machine with a core to spare. */
export const SLICE_MAX_MS = 5;
/** Shortest slice, in ms: an event loop turn costs tens of µs, so shorter slices would cost throughput for little. */
export const SLICE_MIN_MS = 1;
/** A slice that lost more than this share of its wall time, and at least {@link LOST_MIN_MS}, was disturbed. */
const LOST_SHARE = 0.25;
/** Below this, lost time is noise (a reading's rounding, a page fault), not a wait for a core. */
const LOST_MIN_MS = 1;
/** Growth per undisturbed slice, in ms: from the shortest back to the full length in 16 slices. */
export const SLICE_REGROW_MS = 0.25;

/** Wall time and CPU time, in ms: `performance.now()` and the process's CPU time unless a test injects its own. */
export interface SliceClock {
  now(): number;
  /** CPU time used so far, or NaN where it cannot be read. */
  cpuMs(): number;
}

const hasCpuUsage = typeof process === "object" && process !== null && typeof process.cpuUsage === "function";

export const processClock: SliceClock = {
  now: () => performance.now(),
  cpuMs: () => {
    if (!hasCpuUsage) return Number.NaN;
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  },
};

/** The adapted slice length (see the file's comment); {@link record} feeds it each finished slice. */
export class SliceLength {
  #ms: number;

  constructor(
    readonly maxMs = SLICE_MAX_MS,
    readonly minMs = SLICE_MIN_MS,
  ) {
    this.#ms = maxMs;
  }

  /** The current slice length, in ms. */
  get ms(): number {
    return this.#ms;
  }

  /** A slice ran `wallMs` of wall time and used `cpuMs` of CPU time: shortens the next slices if it waited for a core, else lets them grow back. */
  record(wallMs: number, cpuMs: number): void {
    if (!(wallMs >= 0 && cpuMs >= 0)) return;
    const lost = wallMs - cpuMs;
    if (lost >= LOST_MIN_MS && lost > wallMs * LOST_SHARE) this.#ms = Math.max(this.minMs, this.#ms / 2);
    // A slice cut short by the end of its work says nothing about the load.
    else if (wallMs >= this.minMs) this.#ms = Math.min(this.maxMs, this.#ms + SLICE_REGROW_MS);
  }
}

/**
 * The process's slice length, shared by every sliced loop: the load is the
 * machine's, so what one planning call learned holds for the next. Slices
 * never overlap (each is a synchronous run), so records do not mix.
 */
export const sharedSliceLength = new SliceLength();

/**
 * Measures one slice after another against a {@link SliceLength}: {@link start}
 * when a slice begins, {@link end} when it yields.
 */
export class SliceMeter {
  #wall = 0;
  #cpu = 0;

  constructor(
    readonly length: SliceLength = sharedSliceLength,
    readonly clock: SliceClock = processClock,
  ) {}

  /** A slice begins now; returns the current time. */
  start(): number {
    this.#cpu = this.clock.cpuMs();
    this.#wall = this.clock.now();
    return this.#wall;
  }

  /** The slice begun at the last {@link start} ends now: records it. */
  end(): void {
    const now = this.clock.now();
    this.length.record(now - this.#wall, this.clock.cpuMs() - this.#cpu);
  }
}
