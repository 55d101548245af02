import type { WorldState } from "../../../core/facts.js";

/** The key of a state with the actions spent on the way to it. */
type KeyOf = (state: Readonly<WorldState>, spent: ReadonlySet<string>) => string;

const NONE: ReadonlySet<string> = new Set();

/**
 * The actions an episode has spent of MCTS's `horizon`, counted by
 * {@link MCTSStrategy.advance}: after `advance(action, observed)`, a plan
 * from `observed` looks one action less ahead than the plan before it (two
 * `advance` calls in a row, two actions less); a plan from any other state
 * (a new episode, an unrelated question) starts the count again. Without
 * `advance` calls nothing is counted. @internal
 */
export class HorizonCountdown {
  /** Actions spent up to the latest state the strategy knows of (the last plan's start or the last observed state). */
  #spent = 0;
  #next: { readonly observed: WorldState; readonly spent: number } | null = null;

  /** Actions spent before a plan from `start` (0 unless `start` is the state the last `advance` observed). */
  spentBefore(start: Readonly<WorldState>, keyOf: KeyOf): number {
    const next = this.#next;
    const spent = next !== null && keyOf(next.observed, NONE) === keyOf(start, NONE) ? next.spent : 0;
    if (spent === 0) this.#next = null;
    this.#spent = spent;
    return spent;
  }

  /** An action ran and the world is now `observed`. */
  advance(observed: Readonly<WorldState>): void {
    this.#spent += 1;
    this.#next = { observed: { ...observed }, spent: this.#spent };
  }
}
