/**
 * @internal Choosing exactly one plan among candidates whose totals are
 * constants is a lexicographic minimum over a list: no solver needed. Each
 * level of `evaluate.ts` is a number per candidate (hard penalty,
 * preference, each objective, cost, position), so one pass keeps the best.
 * The selection MILP (`selection-model.ts`) solves the same levels and
 * picks the same candidate; it stays for cross-checking.
 */
import type { GoalSpec } from "../core/goal.js";
import { activeObjectives, hasPreferences, type ObjectiveMode, type PlanEvaluation, signedObjective } from "./evaluate.js";

/** The chosen candidate and the value of each level at it, most important first. */
export interface ExactSelection {
  /** Index of the chosen candidate; -1 when every candidate is excluded. */
  readonly index: number;
  readonly levelValues: readonly number[];
}

/** The level values of one candidate, in the order the selection MILP uses. */
export function selectionLevels(evaluation: PlanEvaluation, cost: number, goal: GoalSpec, mode: ObjectiveMode): number[] {
  const levels: number[] = [];
  if (goal.constraints.some((c) => c.level === "hard")) levels.push(evaluation.hardPenalty);
  const objectives = activeObjectives(goal).map((o) => -signedObjective(goal, o, evaluation.objectiveValues[o] as number));
  if (mode === "weighted") {
    levels.push(evaluation.preference + objectives.reduce((a, b) => a + b, 0));
  } else {
    if (hasPreferences(goal)) levels.push(evaluation.preference);
    levels.push(...objectives);
  }
  levels.push(cost);
  return levels;
}

/** The lexicographically least candidate (earlier candidates win exact ties); `excluded` ones cannot be chosen. */
export function selectExactly(
  evaluations: readonly PlanEvaluation[],
  costs: readonly number[],
  excluded: readonly boolean[],
  goal: GoalSpec,
  mode: ObjectiveMode,
): ExactSelection {
  let best = -1;
  let bestLevels: number[] = [];
  evaluations.forEach((evaluation, i) => {
    if (excluded[i]) return;
    const levels = selectionLevels(evaluation, costs[i] as number, goal, mode);
    if (best < 0 || lexLess(levels, bestLevels)) {
      best = i;
      bestLevels = levels;
    }
  });
  return { index: best, levelValues: best < 0 ? [] : [...bestLevels, best] };
}

function lexLess(a: readonly number[], b: readonly number[]): boolean {
  for (let k = 0; k < a.length; k++) {
    const x = a[k] as number;
    const y = b[k] as number;
    if (x !== y) return x < y;
  }
  return false;
}
