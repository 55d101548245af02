/**
 * Whether LM-cut keeps an evaluation's zero-cost relaxed plan for its
 * children (`landmark-cut.ts`). A kept plan pays when children skip their
 * first pass through it: on openstacks three children do per plan kept, on
 * gripper one in ten and on depot one in forty, where keeping plans costs
 * more than the passes it saves (a kept plan costs about a third of a
 * pass: its walk and its pairs in the store). The gate keeps the first {@link ReuseGate.WARM_UP} plans, then
 * keeps plans while one skip comes of every {@link ReuseGate.KEPT_PER_SKIP}
 * kept, and otherwise one offer in {@link ReuseGate.SAMPLE_EVERY}, so that
 * the rate is still measured. Counts, never time: the choice changes no
 * value, only which passes run.
 * @internal
 */
export class ReuseGate {
  static readonly WARM_UP = 128;
  static readonly KEPT_PER_SKIP = 2;
  static readonly SAMPLE_EVERY = 16;
  #kept = 0;
  #offered = 0;
  #skips = 0;

  /** Plans kept since the last reset. */
  get kept(): number {
    return this.#kept;
  }

  /** Forgets the counts (a new search). */
  reset(): void {
    this.#kept = 0;
    this.#offered = 0;
    this.#skips = 0;
  }

  /** A child skipped its pass through a kept plan. */
  skipped(): void {
    this.#skips++;
  }

  /** An evaluation ended with a plan it may keep: true when it keeps it. */
  offer(): boolean {
    const offered = this.#offered++;
    const keep =
      this.#kept < ReuseGate.WARM_UP || this.#skips * ReuseGate.KEPT_PER_SKIP >= this.#kept || offered % ReuseGate.SAMPLE_EVERY === 0;
    if (keep) this.#kept++;
    return keep;
  }
}
