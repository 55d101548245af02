/**
 * Time slicing of planning's setup phases (validating, sorting, compiling,
 * building heuristics), which run before the search's own clock
 * (`SearchClock`) starts: each phase is a generator that calls
 * {@link Pace.due} every few items of work and yields when the slice is
 * over, so asynchronous planning gives the event loop a turn every few
 * milliseconds and stops on its signal or deadline even while it compiles
 * a domain of a million actions.
 * @internal
 */
import { SliceMeter } from "../core/slice-length.js";
import { turnStartedAt } from "../core/turn-clock.js";

/** Thrown by {@link Pace.due} when planning must stop before the search runs: caught by the planner, never seen by users. */
export class PlanningStopped extends Error {
  constructor(readonly status: "aborted" | "budget_exhausted") {
    super(status);
  }
}

/**
 * Items of work (actions, facts) between two readings of the clock in a setup
 * phase. Slices are measured by time: at 16 items a reading (tens of ns) costs
 * nothing beside the work, and a slice overshoots by well under a millisecond
 * even where one item takes tens of microseconds (compiling an action).
 */
export const PACE_EVERY = 16;

export class Pace {
  #sliceEnd: number;
  readonly #meter: SliceMeter | undefined;

  /**
   * @param sliceMs longest stretch between two yields (`Infinity`: never yield, as synchronous planning does)
   * @param deadline `performance.now()` time at which planning's time budget runs out
   * @param meter measures each slice and gives the next one's length (shorter while the thread waits for a core):
   *   the process's shared one unless a test injects its own clock
   */
  constructor(
    readonly sliceMs: number,
    readonly deadline: number,
    readonly signal: AbortSignal | undefined,
    meter?: SliceMeter,
  ) {
    // Synchronous planning (a pace that never yields) measures nothing and allocates no meter.
    this.#meter = Number.isFinite(sliceMs) ? (meter ?? new SliceMeter()) : undefined;
    this.#meter?.start();
    // A sliced (asynchronous) call's first slice ends when the turn it runs in has had its share, work before it included.
    this.#sliceEnd = this.#meter ? turnStartedAt() + this.#length() : Number.POSITIVE_INFINITY;
  }

  /** The next slice's length: `sliceMs`, shortened while slices wait for a core. */
  #length(): number {
    return Math.min(this.sliceMs, (this.#meter as SliceMeter).length.ms);
  }

  /** When the current slice ends (the search's clock takes it over). */
  get sliceEnd(): number {
    return this.#sliceEnd;
  }

  /**
   * True when the slice is over: the caller yields (`yield* pace.pause()`).
   * Throws {@link PlanningStopped} when the signal aborted or the deadline
   * passed, so setup counts against the time budget like search does.
   */
  due(): boolean {
    if (this.signal?.aborted) throw new PlanningStopped("aborted");
    const now = performance.now();
    if (now >= this.deadline) throw new PlanningStopped("budget_exhausted");
    return now >= this.#sliceEnd;
  }

  /**
   * True when the slice is over, without stopping on the signal or the
   * deadline: for checking input, whose errors must be reported whatever
   * the budget (the phase after it stops on them).
   */
  sliceOver(): boolean {
    return performance.now() >= this.#sliceEnd;
  }

  /** Yields once, then starts the next slice. */
  *pause(): Generator<void, void, void> {
    const meter = this.#meter;
    meter?.end();
    yield;
    this.#sliceEnd = meter ? meter.start() + this.#length() : performance.now() + this.sliceMs;
  }

  /** Yields when the slice is over (a checkpoint between two phases). */
  *check(): Generator<void, void, void> {
    if (this.due()) yield* this.pause();
  }
}

/** A pace that never yields and never stops: for building parts outside of a planning call. */
export function unpaced(): Pace {
  return new Pace(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, undefined);
}

/** Runs a paced generator that cannot yield (its pace never ends a slice) to its value. */
export function runUnpaced<T>(steps: Generator<void, T, void>): T {
  const step = steps.next();
  if (!step.done) throw new Error("internal error: an unpaced step yielded");
  return step.value;
}
