import { describeValue, LangGoapError, type TraceRun } from "../core/index.js";

/** What a per-run tracer state must offer its registry. */
export interface EndableRun {
  /** Ends everything still open for the run; `reason` says why when the registry evicts it. */
  evict(reason: string): void;
}

/**
 * @internal The open runs of a tracer shared by concurrent runs, keyed by
 * run id (else thread id), oldest first. Runs leave when they end; past
 * `maxOpenRuns` (runs paused forever, crashed callers) the oldest is
 * evicted, so memory stays bounded.
 */
export class RunRegistry<T extends EndableRun> {
  readonly #runs = new Map<string, T>();
  readonly #max: number;

  constructor(owner: string, maxOpenRuns: number | undefined) {
    const max = maxOpenRuns ?? 10_000;
    if (!Number.isInteger(max) || max < 1) {
      throw new LangGoapError("INVALID_OPTION", `${owner}: maxOpenRuns must be an integer >= 1, got ${describeValue(max)}`);
    }
    this.#max = max;
  }

  get size(): number {
    return this.#runs.size;
  }

  /** The state of `run`, created by `create(key, forget)` on first sight; undefined for a run with no id. */
  get(run: TraceRun, create: (key: string, forget: () => void) => T): T | undefined {
    const key = run.runId ?? run.threadId;
    if (key === undefined) return undefined;
    let state = this.#runs.get(key);
    if (!state) {
      const created = create(key, () => {
        if (this.#runs.get(key) === created) this.#runs.delete(key);
      });
      state = created;
      this.#runs.set(key, created);
      while (this.#runs.size > this.#max) {
        const oldest = this.#runs.entries().next().value as [string, T];
        this.#runs.delete(oldest[0]);
        oldest[1].evict(`evicted: more than ${this.#max} runs open at once`);
      }
    }
    return state;
  }

  /** Every open run, oldest first (a copy). */
  values(): T[] {
    return [...this.#runs.values()];
  }
}
