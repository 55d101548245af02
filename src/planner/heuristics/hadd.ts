/** hadd: the sum of the goal atoms' relaxed costs (preconditions summed, numeric repetitions counted). Not admissible. */
import { defineHeuristic } from "./heuristic.js";

export const hadd = defineHeuristic({
  name: "hadd",
  summary: "sum of relaxed costs; faster, not always optimal",
  admissible: false,
  lazy: true,
  provesDeadEnds: true,
  create: ({ p, model }) => {
    const goals = [...new Set(p.goalAtoms)];
    return {
      evaluate: (row, offset) => {
        if (model.relax(row, offset, 1, true) > 0) return Number.POSITIVE_INFINITY;
        let h = 0;
        for (const g of goals) h += model.cost[g] as number;
        return h;
      },
    };
  },
});
