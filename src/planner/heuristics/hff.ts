/** hff: the cost of a relaxed plan extracted from hadd's best supporters (each action counted once per repetition needed). Not admissible. */
import { defineHeuristic, EVALUATION_PAUSED } from "./heuristic.js";
import { RELAX_PAUSED } from "./relaxed-model.js";

export const hff = defineHeuristic({
  name: "hff",
  summary: "relaxed plan cost; faster, not always optimal",
  admissible: false,
  lazy: true,
  provesDeadEnds: true,
  create: ({ p, model }) => {
    const repsUsed = new Float64Array(p.actions.length);
    const visited = new Uint8Array(p.atoms.length);
    const stack: number[] = [];
    /** The relaxed plan's cost from a finished relaxation (mode 1) that left `goalsLeft` goal atoms unreached. */
    const valueAfter = (goalsLeft: number): number => {
      if (goalsLeft > 0) return Number.POSITIVE_INFINITY;
      repsUsed.fill(0);
      visited.fill(0);
      let h = 0;
      for (const g of p.goalAtoms) stack.push(g);
      while (stack.length > 0) {
        const atom = stack.pop() as number;
        if (visited[atom]) continue;
        visited[atom] = 1;
        if ((model.cost[atom] as number) === 0) continue;
        const a = model.supporter[atom] as number;
        if (a < 0) continue;
        const reps = model.supporterReps[atom] as number;
        if ((repsUsed[a] as number) < reps) {
          h += (model.costEstimate[a] as number) * (reps - (repsUsed[a] as number));
          repsUsed[a] = reps;
        }
        for (const pre of p.actions[a]!.preAtoms) if (!visited[pre]) stack.push(pre);
      }
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
