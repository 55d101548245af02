import { describeValue, LangGoapError } from "../core/errors.js";
import { type GoalLike, toGoalSpec } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Plan } from "../planner/index.js";
import { activeObjectives, evaluatePlan, type PlanEvaluation, signedObjective, softLevels } from "./evaluate.js";
import { annotate } from "./select.js";

/** Options of {@link paretoPlans}. */
export interface ParetoOptions {
  /**
   * Keep at most this many plans. The most crowded plan (NSGA-II crowding
   * distance; the extremes of each objective are never crowded) is dropped
   * until the cap is met, so a capped frontier still spans the trade-off
   * evenly. @defaultValue no cap
   */
  readonly maxFrontier?: number;
}

/** "Higher is better" value of each optimised objective. */
function objectiveVector(goal: ReturnType<typeof toGoalSpec>, e: PlanEvaluation): number[] {
  return activeObjectives(goal).map((o) => signedObjective(goal, o, e.objectiveValues[o] as number));
}

function dominates(a: readonly number[], b: readonly number[]): boolean {
  let strictly = false;
  for (let k = 0; k < a.length; k++) {
    if ((a[k] as number) < (b[k] as number)) return false;
    if ((a[k] as number) > (b[k] as number)) strictly = true;
  }
  return strictly;
}

/** Lexicographic order of the selection (preferences, objectives, cost, input order). */
function compareLevels(a: readonly number[], b: readonly number[]): number {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return (b[k] as number) - (a[k] as number);
  return 0;
}

/** Crowding distance of each point within `members` (boundary points: infinite). */
function crowding(vectors: readonly (readonly number[])[], members: readonly number[]): Map<number, number> {
  const distance = new Map<number, number>(members.map((i) => [i, 0]));
  const dims = vectors[members[0] as number]?.length ?? 0;
  for (let k = 0; k < dims; k++) {
    const sorted = [...members].sort((a, b) => (vectors[a]?.[k] as number) - (vectors[b]?.[k] as number) || a - b);
    const lo = vectors[sorted[0] as number]?.[k] as number;
    const hi = vectors[sorted[sorted.length - 1] as number]?.[k] as number;
    distance.set(sorted[0] as number, Number.POSITIVE_INFINITY);
    distance.set(sorted[sorted.length - 1] as number, Number.POSITIVE_INFINITY);
    if (hi === lo) continue;
    for (let s = 1; s < sorted.length - 1; s++) {
      const i = sorted[s] as number;
      const gap = ((vectors[sorted[s + 1] as number]?.[k] as number) - (vectors[sorted[s - 1] as number]?.[k] as number)) / (hi - lo);
      distance.set(i, (distance.get(i) as number) + gap);
    }
  }
  return distance;
}

const PARETO_OPTIONS_KEYS = { maxFrontier: true } as const satisfies OptionKeys<ParetoOptions>;

/**
 * The Pareto frontier of the plans that meet every hard constraint: a plan
 * stays unless another is at least as good on every optimised objective
 * (direction-aware) and strictly better on one. Without objectives, every
 * feasible plan is returned by total cost. Plans come back best first (the
 * selection's lexicographic order), each with `metadata.csp` and a score.
 *
 * @example
 * ```ts
 * const frontier = paretoPlans(candidates, goal, { maxFrontier: 3 });
 * frontier.map((p) => p.metadata.csp?.objectiveValues); // the trade-off, cheapest first
 * ```
 */
export function paretoPlans(plans: readonly Plan[], goal: GoalLike, options: ParetoOptions = {}): Plan[] {
  checkOptionKeys(options, PARETO_OPTIONS_KEYS, "paretoPlans()");
  const spec = toGoalSpec(goal);
  const cap = options.maxFrontier;
  if (cap !== undefined && !(Number.isInteger(cap) && cap >= 1)) {
    throw new LangGoapError("INVALID_OPTION", `paretoPlans: maxFrontier must be an integer >= 1, got ${describeValue(cap)}`);
  }
  if (!Array.isArray(plans) || plans.length === 0) throw new LangGoapError("INVALID_OPTION", "paretoPlans: give at least one plan");
  const evaluations = plans.map((p) => evaluatePlan(p, spec));
  const feasible = plans.flatMap((_, i) => ((evaluations[i] as PlanEvaluation).feasible ? [i] : []));
  const vectors = evaluations.map((e) => objectiveVector(spec, e));
  let frontier = feasible.filter((i) => !feasible.some((j) => j !== i && dominates(vectors[j] as number[], vectors[i] as number[])));
  const order = (i: number) => [...softLevels(evaluations[i] as PlanEvaluation, spec), -(plans[i] as Plan).totalCost, -i];
  const byOrder = (a: number, b: number) => compareLevels(order(a), order(b));

  // Thin the frontier one plan at a time, always dropping the most crowded
  // (recomputing distances after each drop keeps the survivors evenly spread).
  while (cap !== undefined && frontier.length > cap) {
    const distance = crowding(vectors, frontier);
    const victim = [...frontier].sort((a, b) => (distance.get(a) as number) - (distance.get(b) as number) || byOrder(b, a))[0];
    frontier = frontier.filter((i) => i !== victim);
  }
  frontier.sort(byOrder);
  return frontier.map((i) =>
    annotate(plans[i] as Plan, spec, evaluations[i] as PlanEvaluation, { plansEvaluated: plans.length }, "lexicographic"),
  );
}
