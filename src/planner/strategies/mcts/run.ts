import type { StrategyContext } from "../../types.js";
import { closeGraph, settleGraph } from "./exact.js";
import { type HorizonPolicy, settleWithinHorizon } from "./horizon.js";
import type { DecisionNode } from "./node.js";
import { horizonOf, type ResolvedOptions } from "./options.js";
import type { MctsStopReason } from "./result.js";
import type { MctsSearch } from "./search.js";

/** How often a long search lets timers and abort signals run. */
const YIELD_EVERY_MS = 15;

/** Most value-iteration sweeps over the search graph after an exact-mode search. */
const SETTLE_SWEEPS = 1000;

/** Exact mode explores every state and action when the graph stays within this many states. */
const CLOSE_MAX_NODES = 5000;

/** What {@link runSearch} did. @internal */
export interface SearchRun {
  /** Iterations made. */
  readonly done: number;
  readonly stopReason: MctsStopReason;
  /** Value-iteration sweeps after the iterations (exact mode), else 0. */
  readonly sweeps: number;
  /** Whether exact mode explored every state and action. */
  readonly closed: boolean;
  /** The finite-horizon policy, when a horizon was known and the graph small enough. */
  readonly policy: HorizonPolicy | undefined;
  /** The horizon known to the search (option or context), when the value iteration ran. */
  readonly horizon: number | undefined;
}

/**
 * Runs `search` from `root` to the first of the iteration budget, the
 * clock (`wallClockMs` from `began`), the context's signal and a terminal
 * root, letting timers and abort signals run every 15 ms; then, in exact
 * mode, explores a small graph to the end and settles its values. @internal
 */
export async function runSearch(
  search: MctsSearch,
  root: DecisionNode,
  settings: ResolvedOptions,
  context: StrategyContext,
  began: number,
): Promise<SearchRun> {
  const { iterations, wallClockMs } = settings;
  let done = 0;
  let stopReason: MctsStopReason = "iterations";
  let lastYield = performance.now();
  while (done < iterations) {
    const now = performance.now();
    if (now - began >= wallClockMs) {
      stopReason = "time";
      break;
    }
    if (context.signal?.aborted) {
      stopReason = "signal";
      break;
    }
    if (now - lastYield >= YIELD_EVERY_MS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      lastYield = performance.now();
      if (context.signal?.aborted) {
        stopReason = "signal";
        break;
      }
    }
    search.iterate(root);
    done++;
    if (root.terminal !== null) {
      stopReason = "terminal";
      break;
    }
  }
  // Exact mode: a small graph is explored to the end, then value iteration makes every value agree (sampled
  // backups leave values off the sampled paths stale): on a closed graph that is the exact optimum.
  // The closure runs in slices, yielding like the iterations do; value iteration is capped at 300,000 updates.
  let sweeps = 0;
  let closed = false;
  let policy: HorizonPolicy | undefined;
  let horizon: number | undefined;
  if (settings.exact && settings.backup === "bellman") {
    for (;;) {
      const closure = closeGraph(search, CLOSE_MAX_NODES, Math.min(began + wallClockMs, performance.now() + YIELD_EVERY_MS));
      closed = closure === "closed";
      if (closure !== "paused") break;
      // A closure cut short leaves the played policy to the clock: the result says so.
      if (performance.now() - began >= wallClockMs) {
        if (stopReason !== "signal") stopReason = "time";
        break;
      }
      if (context.signal?.aborted) {
        stopReason = "signal";
        break;
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    sweeps = settleGraph(search.table, settings.discount, SETTLE_SWEEPS);
    const steps = horizonOf(settings.horizon, context);
    // After the stationary values (which leave no stale value behind), the horizon's layers decide: with k actions left,
    // only what happens within k counts.
    if (steps !== undefined) {
      horizon = steps;
      policy =
        settleWithinHorizon(search.table, {
          horizon: steps,
          discount: settings.discount,
          deadEndReturn: -settings.deadEndPenalty,
        }) ?? undefined;
    }
  }
  return { done, stopReason, sweeps, closed, policy, horizon };
}
