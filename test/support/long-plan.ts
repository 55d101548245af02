/**
 * A plan of `n` steps built directly (no search): one action that counts
 * `n` up by one, `n` times. For tests that feed a long plan to a renderer
 * or a metric.
 */
import { ActionSpec } from "../../src/core/index.js";
import { Plan } from "../../src/planner/index.js";

/** `n` steps of `tick` (cost 1, `durationMs` each when given), from `{ n: 0 }` to `{ n: n }`. */
export function countingPlan(n: number, durationMs?: number): Plan {
  const tick = new ActionSpec({ name: "tick", effects: { n: { inc: 1 } }, ...(durationMs === undefined ? {} : { durationMs }) });
  return new Plan({
    actions: Array.from({ length: n }, () => tick),
    expectedStates: Array.from({ length: n }, (_, i) => ({ n: i + 1 })),
    startState: { n: 0 },
    totalCost: n,
  });
}
