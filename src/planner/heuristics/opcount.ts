/** hmax and the operator-counting bound over numeric net change (operator-counting.ts), the larger: both admissible. */
import { defineHeuristic, type HeuristicContext } from "./heuristic.js";
import { OperatorCounting } from "./operator-counting.js";

/**
 * The problem's operator-counting program, built once per compiled problem
 * (not rebound: the default policy asks whether it has rows before any
 * search; each search rebinds it to its start).
 */
export function operatorCountingOf({ p, model, kept }: HeuristicContext): OperatorCounting {
  return kept("opcount", () => new OperatorCounting(p, model));
}

export const opcount = defineHeuristic({
  name: "opcount",
  summary: "admissible: hmax and a linear program over numeric inc/dec",
  admissible: true,
  lazy: true,
  provesDeadEnds: true,
  create: (context) => {
    const { p, model } = context;
    const counting = operatorCountingOf(context);
    return {
      beginSearch: () => counting.rebind(p.start),
      evaluate: (row, offset) => {
        const h = model.goalHmax(row, offset);
        return h === Number.POSITIVE_INFINITY ? h : Math.max(h, counting.evaluate(row, offset));
      },
    };
  },
});
