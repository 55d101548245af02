/** The number of goal atoms that do not hold: cheap, not admissible (one action may make several true, or cost less than 1). */
import { passTests } from "../compiled-problem.js";
import { defineHeuristic } from "./heuristic.js";

export const goalCount = defineHeuristic({
  name: "goal-count",
  summary: "goal conditions not yet met; fast, not optimal",
  admissible: false,
  lazy: true,
  provesDeadEnds: false,
  create: ({ p }) => ({
    evaluate: (row, offset) => {
      let n = 0;
      for (const g of p.goalAtoms) {
        const atom = p.atoms[g]!;
        if (!passTests(p, row, offset, atom.testStart, atom.testEnd)) n++;
      }
      return n;
    },
  }),
});
