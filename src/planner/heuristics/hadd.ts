/** hadd: the sum of the goal atoms' relaxed costs (preconditions summed, numeric repetitions counted). Not admissible. */
import { defineHeuristic, EVALUATION_PAUSED } from "./heuristic.js";
import { RELAX_PAUSED } from "./relaxed-model.js";

export const hadd = defineHeuristic({
  name: "hadd",
  summary: "sum of relaxed costs; faster, not always optimal",
  admissible: false,
  lazy: true,
  provesDeadEnds: true,
  create: ({ p, model }) => {
    const goals = [...new Set(p.goalAtoms)];
    /** The value from a finished relaxation (mode 1) that left `goalsLeft` goal atoms unreached. */
    const valueAfter = (goalsLeft: number): number => {
      if (goalsLeft > 0) return Number.POSITIVE_INFINITY;
      let h = 0;
      for (const g of goals) h += model.cost[g] as number;
      return h;
    };
    return {
      evaluate: (row, offset) => valueAfter(model.relax(row, offset, 1, true)),
      startEvaluation: (row, offset) => model.relaxStart(row, offset, 1, true),
      resumeEvaluation: (sliceEnd) => {
        const left = model.relaxUntil(sliceEnd);
        return left === RELAX_PAUSED ? EVALUATION_PAUSED : valueAfter(left);
      },
    };
  },
});
