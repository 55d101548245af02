/** LM-cut (landmark-cut.ts): admissible, incremental (a child starts from its parent's landmarks). */
import { defineHeuristic, type HeuristicContext } from "./heuristic.js";
import { LmCut } from "./landmark-cut.js";

/** The problem's LM-cut graph, built at its first search that uses it (each search rebinds it to its start's action costs). */
export function landmarkCutOf({ p, model, kept }: HeuristicContext): LmCut {
  return kept("lmcut", () => new LmCut(p, model));
}

export const lmcut = defineHeuristic({
  name: "lmcut",
  summary: "admissible, fewer states on large problems",
  admissible: true,
  lazy: true,
  provesDeadEnds: true,
  create: (context) => {
    const cuts = landmarkCutOf(context);
    return {
      evaluate: (row, offset) => cuts.evaluate(row, offset),
      childEstimate: (action) => cuts.childEstimate(action),
      // A reused problem's cost functions are re-estimated at each new start.
      beginSearch: (deadline) => {
        cuts.rebindCosts();
        cuts.beginSearch(deadline);
      },
      evaluateNode: (row, offset, node, parent, action) => cuts.evaluateNode(row, offset, node, parent, action),
    };
  },
});
