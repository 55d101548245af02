/** Blind search: every state is estimated at 0, so A* is uniform-cost search. */
import { defineHeuristic } from "./heuristic.js";

export const zero = defineHeuristic({
  name: "zero",
  summary: "blind: uniform-cost search",
  admissible: true,
  // The value is known without evaluating: children are queued with it.
  lazy: false,
  provesDeadEnds: false,
  create: () => ({ evaluate: () => 0 }),
});
