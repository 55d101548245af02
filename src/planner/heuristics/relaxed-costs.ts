/**
 * The action costs of the delete relaxation, bound to a start state. A
 * static cost is used as it is. A cost function counts as 0 in the
 * admissible costs (its value elsewhere may be lower than anywhere we
 * look) and as its value at the start in the estimates (1 when it cannot
 * be evaluated there), so reusing a compiled problem from another start
 * re-estimates it.
 * @internal
 */
import type { WorldState } from "../../core/index.js";
import type { CompiledProblem } from "../compiled-problem.js";

/** Fills `low` (admissible bounds) and `estimate` per action; `low` keeps 0 for cost functions. */
export function bindRelaxedCosts(p: CompiledProblem, startRow: Float64Array, low: Float64Array, estimate: Float64Array): void {
  let startState: WorldState | null = null;
  for (const a of p.actions) {
    if (a.staticCost >= 0) {
      low[a.index] = a.staticCost;
      estimate[a.index] = a.staticCost;
    } else {
      let value = 1;
      try {
        startState ??= p.decodeState(startRow, 0);
        value = a.spec.getCost(startState);
      } catch {
        // A cost that cannot be evaluated at the start is estimated as 1.
      }
      estimate[a.index] = value;
    }
  }
}
