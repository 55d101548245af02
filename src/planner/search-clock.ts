/**
 * The search's clock: reads the time and the abort signal every few units
 * of work, adapting how often so that a reading costs little on fast
 * searches and a budget or slice end overshoots by a fraction of a
 * millisecond on slow ones. Time decides only when a search stops or
 * pauses, never a value or an order.
 * @internal
 */

/** {@link SearchClock.poll}: go on. */
export const CLOCK_GO = 0;
/** {@link SearchClock.poll}: the slice is over; yield and call `step` again. */
export const CLOCK_PAUSE = 1;
/** {@link SearchClock.poll}: the time budget ran out. */
export const CLOCK_TIME_UP = 2;
/** {@link SearchClock.poll}: the signal aborted the search. */
export const CLOCK_ABORTED = 3;

/** Time between clock readings the clock aims at, in ms: a budget overshoots by about this much plus one node's work. */
const TARGET_MS = 0.1;
const MAX_INTERVAL = 4096;

/**
 * Reads the clock and the abort signal every `interval` nodes, adapting the
 * interval so readings come about every {@link TARGET_MS} whatever a node
 * costs: fast searches read it rarely (a `performance.now()` call costs as
 * much as a cheap expansion), slow ones (costly heuristics or cost
 * functions) at every node. A time budget therefore holds to a fraction of
 * a millisecond, plus the cost of one node.
 */
export class SearchClock {
  /** Work count at which {@link poll} is due. */
  next = 1;
  sliceEnd = Number.POSITIVE_INFINITY;
  #interval = 1;
  #last: number;
  #lastTicks = 0;
  readonly #deadline: number;
  readonly #signal: AbortSignal | undefined;

  constructor(deadline: number, signal: AbortSignal | undefined) {
    this.#deadline = deadline;
    this.#signal = signal;
    this.#last = performance.now();
  }

  /**
   * Starts a slice: time spent outside the search does not count as node
   * cost. The first reading is due after one unit of work, so every slice
   * makes progress however short it is.
   */
  resume(sliceEnd: number, ticks: number): void {
    this.sliceEnd = sliceEnd;
    this.#last = performance.now();
    this.#lastTicks = ticks;
    this.next = ticks + 2;
  }

  /** The verdict at work count `ticks`: one of the `CLOCK_*` codes. */
  poll(ticks: number): number {
    if (this.#signal?.aborted) return CLOCK_ABORTED;
    const now = performance.now();
    const elapsed = now - this.#last;
    const done = ticks - this.#lastTicks;
    this.#last = now;
    this.#lastTicks = ticks;
    if (done > 0) {
      const perTick = elapsed / done;
      const wanted = perTick > 0 ? Math.floor(TARGET_MS / perTick) : MAX_INTERVAL;
      this.#interval = Math.max(1, Math.min(wanted, this.#interval * 2, MAX_INTERVAL));
    }
    // Do not run past the deadline or the slice end by a whole interval.
    const left = Math.min(this.#deadline, this.sliceEnd) - now;
    if (left < TARGET_MS * 4 && this.#interval > 1) this.#interval = Math.max(1, this.#interval >> 2);
    this.next = ticks + this.#interval;
    if (now >= this.#deadline) return CLOCK_TIME_UP;
    if (now >= this.sliceEnd) return CLOCK_PAUSE;
    return CLOCK_GO;
  }
}
