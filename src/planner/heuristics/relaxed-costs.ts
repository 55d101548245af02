/**
 * The action costs of the delete relaxation, bound to a start state. A
 * static cost is used as it is. A cost function counts as 0 in the
 * admissible costs (its value elsewhere may be lower than anywhere we
 * look) and as its value at the start in the estimates (1 when it cannot
 * be evaluated there), so reusing a compiled problem from another start
 * re-estimates it.
 * @internal
 */
import type { WorldState } from "../../core/facts.js";
import type { CompiledProblem } from "../compiled-problem.js";
import { PACE_EVERY, type Pace } from "../pace.js";

/**
 * Fills `low` (admissible bounds) and `estimate` for the actions [from, to);
 * `low` keeps 0 for cost functions. `at` holds the start decoded once for
 * the cost functions of every range of one binding.
 */
export function bindRelaxedCosts(
  p: CompiledProblem,
  startRow: Float64Array,
  low: Float64Array,
  estimate: Float64Array,
  from = 0,
  to = p.actions.length,
  at: { state: WorldState | null } = { state: null },
): void {
  for (let i = from; i < to; i++) {
    const a = p.actions[i]!;
    if (a.staticCost >= 0) {
      low[a.index] = a.staticCost;
      estimate[a.index] = a.staticCost;
    } else {
      let value = 1;
      try {
        at.state ??= p.decodeState(startRow, 0);
        value = a.spec.getCost(at.state);
      } catch {
        // A cost that cannot be evaluated at the start is estimated as 1.
      }
      estimate[a.index] = value;
    }
  }
}

/** {@link bindRelaxedCosts} over every action in slices (see `Pace`): cost functions may take any time. */
export function* boundRelaxedCostsSteps(
  p: CompiledProblem,
  startRow: Float64Array,
  pace: Pace,
): Generator<void, { low: Float64Array; estimate: Float64Array }, void> {
  const n = p.actions.length;
  const costs = { low: new Float64Array(n), estimate: new Float64Array(n) };
  const at: { state: WorldState | null } = { state: null };
  for (let from = 0; from < n; from += PACE_EVERY) {
    if (pace.due()) yield* pace.pause();
    bindRelaxedCosts(p, startRow, costs.low, costs.estimate, from, Math.min(n, from + PACE_EVERY), at);
  }
  return costs;
}
