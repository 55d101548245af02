import { checkTimeout, DEFAULT_OBSERVER_TIMEOUT_MS } from "../core/index.js";

/** Runs remembered at once; the oldest is forgotten first (a run that ended long ago needs no entry). */
const MAX_RUNS = 1_000;

/**
 * @internal The time limit of a graph's observers (tracer hooks, the
 * history store's `record`) and which observers are dropped for which run:
 * an observer that once exceeds the limit is not called again for the rest
 * of that run. One instance is shared by the three nodes of a graph.
 */
export class ObserverLimits {
  readonly timeoutMs: number;
  readonly #dropped = new Map<string, Set<string>>();

  constructor(timeoutMs: number = DEFAULT_OBSERVER_TIMEOUT_MS) {
    this.timeoutMs = checkTimeout(timeoutMs, "observerTimeoutMs");
  }

  /** True when `observer` was dropped for `run`. */
  isDropped(observer: string, run: string): boolean {
    return this.#dropped.get(run)?.has(observer) === true;
  }

  /** Drops `observer` for `run`; true the first time (the caller warns once). */
  drop(observer: string, run: string): boolean {
    let set = this.#dropped.get(run);
    if (set?.has(observer)) return false;
    if (!set) {
      if (this.#dropped.size >= MAX_RUNS) this.#dropped.delete(this.#dropped.keys().next().value as string);
      set = new Set();
      this.#dropped.set(run, set);
    }
    set.add(observer);
    return true;
  }
}
