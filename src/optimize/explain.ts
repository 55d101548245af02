import { type ConstraintSpec, type GoalLike, toGoalSpec } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Plan } from "../planner/index.js";
import { evaluatePlan, type PlanEvaluation } from "./evaluate.js";

/** How far one hard constraint misses in a plan. */
export interface ResourceShortfall {
  /** The constraint's name. */
  readonly constraint: string;
  readonly key: string;
  /** The plan's summed resource. */
  readonly total: number;
  /** Which bound is missed. */
  readonly bound: "max" | "min";
  /** The bound's value. */
  readonly limit: number;
  /** By how much: `total - max` or `min - total`. */
  readonly amount: number;
}

/** Why no plan meets the hard constraints. */
export interface InfeasibilityExplanation {
  /**
   * A minimal set of hard constraints that no considered plan satisfies
   * together: drop any one of them and some plan satisfies the rest.
   */
  readonly conflictingConstraints: readonly ConstraintSpec[];
  /** The shortfalls of the least-violating plan, one per violated hard constraint. */
  readonly resourceShortfalls: readonly ResourceShortfall[];
  /** What to do about it, in words that name the constraints and amounts. */
  readonly suggestion: string;
  /** How many plans were considered. */
  readonly plansConsidered: number;
}

/** Options of {@link explainInfeasibility}. */
export interface ExplainOptions {
  /** Evaluations already computed, aligned with the plans (saves re-evaluating). */
  readonly evaluations?: readonly PlanEvaluation[];
}

function meets(constraint: ConstraintSpec, total: number): boolean {
  return constraint.violation(total) === 0;
}

/** @internal The shortfalls of one evaluated plan. */
export function shortfallsOf(goal: { readonly constraints: readonly ConstraintSpec[] }, evaluation: PlanEvaluation): ResourceShortfall[] {
  const out: ResourceShortfall[] = [];
  goal.constraints.forEach((c, i) => {
    const total = evaluation.constraintTotals[i] as number;
    if (c.level !== "hard" || meets(c, total)) return;
    const over = c.max !== undefined && total > c.max;
    const limit = (over ? c.max : c.min) as number;
    out.push(
      Object.freeze({
        constraint: c.name,
        key: c.key,
        total,
        bound: over ? "max" : "min",
        limit,
        amount: over ? total - limit : limit - total,
      }),
    );
  });
  return out;
}

function describeShortfall(s: ResourceShortfall): string {
  return s.bound === "max"
    ? `"${s.key}" totals ${s.total} but constraint "${s.constraint}" allows at most ${s.limit} (over by ${s.amount})`
    : `"${s.key}" totals ${s.total} but constraint "${s.constraint}" requires at least ${s.limit} (short by ${s.amount})`;
}

function suggestionFor(conflict: readonly ConstraintSpec[], shortfalls: readonly ResourceShortfall[], plans: number): string {
  const named = conflict.map((c) => `"${c.name}"`).join(", ");
  const where = plans === 1 ? "The plan" : `The best of ${plans} plans`;
  const detail = shortfalls.map(describeShortfall).join("; ");
  if (conflict.length === 1) {
    const only = conflict[0] as ConstraintSpec;
    const fix =
      only.max !== undefined
        ? "Raise the limit, make the actions that consume it cheaper, or offer alternatives that use less of it."
        : "Lower the minimum, or offer actions that produce more of it.";
    return `No plan considered satisfies constraint ${named} on its own. ${where}: ${detail}. ${fix}`;
  }
  return (
    `No plan considered satisfies constraints ${named} together, although dropping any one of them makes the rest satisfiable. ` +
    `${where}: ${detail}. Relax one of these constraints, or offer plans that balance them.`
  );
}

const EXPLAIN_OPTIONS_KEYS = { evaluations: true } as const satisfies OptionKeys<ExplainOptions>;

/**
 * Explains why no plan meets the goal's hard constraints: a minimal
 * conflicting set of constraints (deletion filter: a constraint is dropped
 * from the set whenever the rest still admit no plan — the property is
 * monotone, so the result is irreducible), the shortfalls of the
 * least-violating plan, and a suggestion. Returns `null` when some plan
 * satisfies every hard constraint.
 *
 * With one plan the conflicting set is one violated constraint; with many,
 * it shows trade-offs (cheap plans are slow, fast plans are expensive).
 *
 * @example
 * ```ts
 * const why = explainInfeasibility([cheapSlow, fastExpensive], goal);
 * why?.conflictingConstraints.map((c) => c.name); // ["budget", "deadline"]
 * ```
 */
export function explainInfeasibility(
  plans: Plan | readonly Plan[],
  goal: GoalLike,
  options: ExplainOptions = {},
): InfeasibilityExplanation | null {
  checkOptionKeys(options, EXPLAIN_OPTIONS_KEYS, "explainInfeasibility()");
  const spec = toGoalSpec(goal);
  const list: readonly Plan[] = Array.isArray(plans) ? plans : [plans as Plan];
  if (list.length === 0) return null;
  const evaluations = options.evaluations ?? list.map((p) => evaluatePlan(p, spec));
  const hard = spec.constraints.flatMap((c, i) => (c.level === "hard" ? [i] : []));
  const someoneMeets = (subset: readonly number[]) =>
    evaluations.some((e) => subset.every((i) => meets(spec.constraints[i] as ConstraintSpec, e.constraintTotals[i] as number)));
  if (someoneMeets(hard)) return null;

  let conflict = [...hard];
  for (const candidate of hard) {
    const rest = conflict.filter((i) => i !== candidate);
    if (!someoneMeets(rest)) conflict = rest;
  }
  let best = 0;
  evaluations.forEach((e, i) => {
    if (e.hardPenalty < (evaluations[best] as PlanEvaluation).hardPenalty) best = i;
  });
  const shortfalls = shortfallsOf(spec, evaluations[best] as PlanEvaluation);
  const conflicting = conflict.map((i) => spec.constraints[i] as ConstraintSpec);
  return Object.freeze({
    conflictingConstraints: Object.freeze(conflicting),
    resourceShortfalls: Object.freeze(shortfalls),
    suggestion: suggestionFor(conflicting, shortfalls, list.length),
    plansConsidered: list.length,
  });
}
