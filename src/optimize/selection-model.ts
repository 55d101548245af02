/**
 * @internal The plan-selection MILP: one binary per candidate, exactly one
 * chosen; each constraint's total is a linear expression of the choice,
 * with non-negative slack variables measuring how far it is exceeded
 * (`over`) or missed (`under`), in the row's own unit. The lexicographic levels of `evaluate.ts`
 * become one linear objective each.
 */

import type { GoalSpec } from "../core/goal.js";
import { activeObjectives, hardWeight, hasPreferences, type ObjectiveMode, type PlanEvaluation, signedObjective } from "./evaluate.js";
import { type LinearTerm, type MilpModel, MilpModelBuilder, type MilpObjective } from "./model.js";

/** The model and its objectives, most important first. */
export interface SelectionModel {
  readonly model: MilpModel;
  readonly levels: readonly MilpObjective[];
  /** Names of the candidate binaries, in candidate order. */
  readonly pickNames: readonly string[];
}

const minimize = (terms: LinearTerm[]): MilpObjective => ({ sense: "minimize", terms, constant: 0 });

/** The power of two nearest to `magnitude` (1 for 0): dividing by it is exact in floating point. */
export function powerOfTwoNear(magnitude: number): number {
  return magnitude > 0 && Number.isFinite(magnitude) ? 2 ** Math.round(Math.log2(magnitude)) : 1;
}

/** Builds the selection model for evaluated candidates with their total costs; `excluded` candidates cannot be chosen. */
export function selectionModel(
  evaluations: readonly PlanEvaluation[],
  costs: readonly number[],
  excluded: readonly boolean[],
  goal: GoalSpec,
  mode: ObjectiveMode,
): SelectionModel {
  const b = new MilpModelBuilder();
  const pickNames = evaluations.map((_, i) => `pick_${i}`);
  // An excluded candidate (one that cannot run at all) is fixed at 0.
  const picks = pickNames.map((name, i) => b.addVariable(name, { lower: 0, upper: excluded[i] ? 0 : 1, integer: true }));
  b.addConstraint(
    "choose_one",
    picks.map((p) => [p, 1] as const),
    { min: 1, max: 1 },
  );

  const hardTerms: LinearTerm[] = [];
  const preferenceTerms: LinearTerm[] = [];
  goal.constraints.forEach((c, k) => {
    const totals = evaluations.map((e) => e.constraintTotals[k] as number);
    // Rows are written in units of `unit` (a power of two, so the scaling is
    // exact): a makespan in ms next to a 0/1 choice would otherwise span nine
    // orders of magnitude, which javascript-lp-solver cannot pivot on.
    const unit = powerOfTwoNear(Math.max(Math.abs(c.max ?? 0), Math.abs(c.min ?? 0), ...totals.map(Math.abs)));
    const total = picks.map((p, i) => [p, (totals[i] as number) / unit] as [number, number]);
    const weight = (c.level === "hard" ? hardWeight(c.weight) : c.weight) * unit;
    const sink = c.level === "hard" ? hardTerms : preferenceTerms;
    if (c.max !== undefined) {
      const over = b.addVariable(`over_${k}`);
      b.addConstraint(`max_${k}`, [...total, [over, -1]], { max: c.max / unit });
      sink.push({ variable: over, coefficient: weight });
    }
    if (c.min !== undefined) {
      const under = b.addVariable(`under_${k}`);
      b.addConstraint(`min_${k}`, [...total, [under, 1]], { min: c.min / unit });
      sink.push({ variable: under, coefficient: weight });
    }
  });
  // Rewards and metrics are constants per candidate.
  picks.forEach((p, i) => {
    const e = evaluations[i] as PlanEvaluation;
    const perPlan = e.preference - e.softPenalty;
    if (perPlan !== 0) preferenceTerms.push({ variable: p, coefficient: perPlan });
  });
  const objectiveTerms = activeObjectives(goal).map((o) =>
    picks.map((p, i) => ({ variable: p, coefficient: -signedObjective(goal, o, evaluations[i]?.objectiveValues[o] as number) })),
  );

  const levels: MilpObjective[] = [];
  if (hardTerms.length > 0) levels.push(minimize(hardTerms));
  if (mode === "weighted") {
    levels.push(minimize([...preferenceTerms, ...objectiveTerms.flat()]));
  } else {
    if (hasPreferences(goal)) levels.push(minimize(preferenceTerms));
    for (const terms of objectiveTerms) levels.push(minimize(terms));
  }
  levels.push(minimize(picks.map((p, i) => ({ variable: p, coefficient: costs[i] as number }))));
  levels.push(minimize(picks.map((p, i) => ({ variable: p, coefficient: i }))));
  const model = b.setObjective("minimize", []).build();
  return { model, levels, pickNames };
}
