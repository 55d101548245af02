/** hmax and the operator-counting bound over numeric net change (operator-counting.ts), the larger: both admissible. */
import { defineHeuristic, EVALUATION_PAUSED, type HeuristicContext } from "./heuristic.js";
import { OperatorCounting } from "./operator-counting.js";
import { RELAX_PAUSED } from "./relaxed-model.js";

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
    /** The larger of hmax `h` (of the row at `offset`) and the program's bound. */
    const valueAfter = (h: number, row: Float64Array, offset: number): number =>
      h === Number.POSITIVE_INFINITY ? h : Math.max(h, counting.evaluate(row, offset));
    // The row of the evaluation started last (see startEvaluation).
    let started = { row: p.start, offset: 0 };
    return {
      beginSearch: () => counting.rebind(p.start),
      evaluate: (row, offset) => valueAfter(model.goalHmax(row, offset), row, offset),
      // The relaxation in slices; the linear program after it in one go.
      startEvaluation: (row, offset) => {
        started = { row, offset };
        model.relaxStart(row, offset, 0, true);
      },
      resumeEvaluation: (sliceEnd) => {
        const left = model.relaxUntil(sliceEnd);
        return left === RELAX_PAUSED ? EVALUATION_PAUSED : valueAfter(model.goalHmaxAfter(left), started.row, started.offset);
      },
    };
  },
});
