/** hmax: the costliest goal atom under the delete relaxation (`RelaxedModel.goalHmax`). Admissible. */
import { defineHeuristic } from "./heuristic.js";

export const hmax = defineHeuristic({
  name: "hmax",
  summary: "admissible: cost-optimal plans",
  admissible: true,
  lazy: true,
  provesDeadEnds: true,
  create: ({ model }) => ({ evaluate: (row, offset) => model.goalHmax(row, offset) }),
});
