import type { ActionSpec } from "../core/action.js";
import { LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import type { ActionFilter } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Plan } from "../planner/index.js";
import { buildDependencyGraph, criticalPath } from "./dependencies.js";

/**
 * Keys with a meaning when no action declares them as a resource: `cost`
 * (the action's planning cost), `durationMs` (its duration), `steps` (1 per
 * action) and `makespanMs` (the plan's schedule length, a plan-level
 * measure). A resource an action declares under one of these names wins for
 * that action.
 */
export const DERIVED_METRICS = ["cost", "durationMs", "steps", "makespanMs"] as const;

/** Where a plan's actions start from: step 0 starts at the plan's start state. */
function stateBefore(plan: Plan, index: number): Readonly<WorldState> {
  return index === 0 ? (plan.startState ?? {}) : (plan.expectedStates[index - 1] ?? {});
}

/** How much of `key` one action contributes. */
function actionAmount(plan: Plan, index: number, key: string): number {
  const action = plan.actions[index] as ActionSpec;
  const declared = action.resources?.[key];
  if (declared !== undefined) return declared;
  if (key === "cost") return action.getCost(stateBefore(plan, index));
  if (key === "durationMs") return action.durationMs ?? 0;
  if (key === "steps") return 1;
  return 0;
}

function accepts(filter: ActionFilter | undefined, action: ActionSpec, owner: string): boolean {
  if (!filter) return true;
  let verdict: unknown;
  try {
    verdict = filter(action);
  } catch (error) {
    throw new LangGoapError(
      "INVALID_GOAL",
      `${owner}: its where filter threw on action "${action.name}": ${(error as Error)?.message ?? error}`,
      { action: action.name },
      { cause: error },
    );
  }
  return verdict === true;
}

/** The schedule length of a plan when nothing but its dependencies limits parallelism. */
export function uncapacitatedMakespan(plan: Plan): number {
  return criticalPath(
    plan.actions.map((a) => a.durationMs ?? 0),
    buildDependencyGraph(plan),
  ).makespan;
}

/** Options of {@link planTotal}. */
export interface PlanTotalOptions {
  /** Sum only over actions this accepts. */
  readonly where?: ActionFilter;
  /** Label of the constraint or objective asking, for error messages. */
  readonly owner?: string;
  /** The plan's makespan when already known (e.g. under resource capacities). */
  readonly makespanMs?: number;
}

const PLAN_TOTAL_OPTIONS_KEYS = { where: true, owner: true, makespanMs: true } as const satisfies OptionKeys<PlanTotalOptions>;

/**
 * A resource summed over a plan's actions (see {@link DERIVED_METRICS} for
 * the keys that mean something without a declared resource).
 *
 * @example
 * ```ts
 * planTotal(plan, "usd");                                  // 0.07
 * planTotal(plan, "usd", { where: (a) => a.name !== "search" }); // 0.05
 * planTotal(plan, "cost");                                  // plan.totalCost
 * ```
 */
export function planTotal(plan: Plan, key: string, options: PlanTotalOptions = {}): number {
  checkOptionKeys(options, PLAN_TOTAL_OPTIONS_KEYS, "planTotal()");
  const owner = options.owner ?? `total of "${key}"`;
  if (key === "makespanMs" && !plan.actions.some((a) => a.resources?.makespanMs !== undefined)) {
    if (options.where) {
      throw new LangGoapError("INVALID_GOAL", `${owner}: makespanMs measures the whole plan's schedule; a where filter cannot apply to it`);
    }
    return options.makespanMs ?? uncapacitatedMakespan(plan);
  }
  let total = 0;
  for (let i = 0; i < plan.actions.length; i++) {
    if (accepts(options.where, plan.actions[i] as ActionSpec, owner)) total += actionAmount(plan, i, key);
  }
  return total;
}

/** Every resource key the plan's actions declare, sorted. */
export function declaredResourceKeys(plan: Plan): string[] {
  const keys = new Set<string>();
  for (const a of plan.actions) for (const k of Object.keys(a.resources ?? {})) keys.add(k);
  return [...keys].sort();
}
