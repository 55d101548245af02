/** hmax: the costliest goal atom under the delete relaxation (`RelaxedModel.goalHmax`). Admissible. */
import { defineHeuristic, EVALUATION_PAUSED } from "./heuristic.js";
import { RELAX_PAUSED } from "./relaxed-model.js";

export const hmax = defineHeuristic({
  name: "hmax",
  summary: "admissible: cost-optimal plans",
  admissible: true,
  lazy: true,
  provesDeadEnds: true,
  create: ({ model }) => ({
    evaluate: (row, offset) => model.goalHmax(row, offset),
    startEvaluation: (row, offset) => model.relaxStart(row, offset, 0, true),
    resumeEvaluation: (sliceEnd) => {
      const left = model.relaxUntil(sliceEnd);
      return left === RELAX_PAUSED ? EVALUATION_PAUSED : model.goalHmaxAfter(left);
    },
  }),
});
