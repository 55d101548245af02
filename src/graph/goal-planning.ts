import {
  type ActionSpec,
  callWithin,
  compareScores,
  type GoalSpec,
  isTimeoutError,
  LangGoapError,
  MultiGoal,
  type PlanningTracer,
  type WorldState,
} from "../core/index.js";
import {
  type BudgetExhaustion,
  explainNoPlan,
  type NoPlanExplanation,
  Plan,
  type PlanningStrategy,
  planWithStatus,
  type SearchStatus,
  type StrategyContext,
  type StrategyResult,
} from "../planner/index.js";
import type { GoapLogger } from "./logger.js";

/** @internal How the planner node plans one goal. */
export interface GoalPlanningContext {
  readonly actions: readonly ActionSpec[];
  /** All of the graph's actions (plans must only use these). */
  readonly known: ReadonlyMap<string, ActionSpec>;
  readonly blacklisted: readonly string[];
  readonly chooseStrategy: (goal: GoalSpec) => PlanningStrategy;
  readonly priorPlan: Plan | null;
  readonly currentStep: number;
  /** Actions the run may still execute (its termination policies' step limit), when it has one. */
  readonly stepsRemaining?: number | undefined;
  readonly signal: AbortSignal | undefined;
  /** Time limit of one strategy call in ms. @defaultValue Infinity (the planner node passes its `planningTimeoutMs`) */
  readonly timeoutMs?: number;
  readonly tracer: PlanningTracer | undefined;
  readonly recordExpansions: boolean;
  readonly logger: Required<GoapLogger>;
}

/** A subgoal of a sequential MultiGoal that the run gave up on, and why. */
export interface SkippedSubgoal {
  readonly index: number;
  /** The subgoal's name, or its conditions as text. */
  readonly goal: string;
  /** Why it was skipped (the planner's explanation of "no plan"). */
  readonly reason: string;
}

/** @internal The outcome of planning a goal or a MultiGoal. */
export interface GoalPlanningResult {
  readonly plan: Plan | null;
  /** The goal planned for (the chosen subgoal of a MultiGoal). */
  readonly goal: GoalSpec;
  readonly subgoalIndex: number;
  /** True when the plan needed a blacklisted action. */
  readonly usedBlacklistFallback: boolean;
  /** How the search ended: `found`, or why there is no plan. */
  readonly status: SearchStatus;
  readonly explanation: NoPlanExplanation | null;
  /** Subgoals of a sequential MultiGoal skipped on the way to the planned one. */
  readonly skipped?: readonly SkippedSubgoal[];
}

interface SpecOutcome {
  readonly plan: Plan | null;
  readonly usedBlacklistFallback: boolean;
  readonly result: StrategyResult;
}

async function planSpec(goal: GoalSpec, world: Readonly<WorldState>, ctx: GoalPlanningContext): Promise<SpecOutcome> {
  const strategy = ctx.chooseStrategy(goal);
  const base = {
    ...(ctx.priorPlan ? { priorPlan: ctx.priorPlan, currentStep: ctx.currentStep } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    ...(ctx.stepsRemaining !== undefined ? { stepsRemaining: ctx.stepsRemaining } : {}),
    ...(ctx.tracer ? { tracer: ctx.tracer } : {}),
    ...(ctx.recordExpansions ? { recordExpansions: true } : {}),
  };
  let result = await planWithin(strategy, world, goal, ctx, { ...base, blacklisted: ctx.blacklisted });
  // The one place the blacklist is lifted: strategies leave blacklisted actions out and never fall back themselves,
  // so a proven "no plan" costs one more search, not two. Only after a proof: a search cut short would just be cut
  // short again.
  const lifted = !result.plan && result.status === "no_plan" && ctx.blacklisted.length > 0;
  if (lifted) result = await planWithin(strategy, world, goal, ctx, base);
  const plan = result.plan ?? null;
  if (plan && !(plan instanceof Plan)) {
    throw new LangGoapError("INVALID_STATE", `strategy "${strategy.name}" returned something other than a Plan or null`, {
      strategy: strategy.name,
    });
  }
  for (const name of plan?.actionNames ?? []) {
    if (!ctx.known.has(name)) {
      throw new LangGoapError(
        "UNKNOWN_ACTION",
        `strategy "${strategy.name}" planned action "${name}", which is not one of the graph's actions`,
        {
          strategy: strategy.name,
          action: name,
        },
      );
    }
  }
  const blacklist = new Set(ctx.blacklisted);
  const usedBlacklistFallback =
    plan !== null && (lifted || plan.metadata.usedBlacklistFallback === true || plan.actionNames.some((n) => blacklist.has(n)));
  return { plan, usedBlacklistFallback, result };
}

/**
 * One strategy call within `ctx.timeoutMs`: the strategy's signal aborts at
 * the limit, and a strategy that has not answered by then (a custom one
 * that ignores its signal) ends the search `budget_exhausted` with a time
 * limit naming it; the run's own abort ends it `aborted` at once.
 */
async function planWithin(
  strategy: PlanningStrategy,
  world: Readonly<WorldState>,
  goal: GoalSpec,
  ctx: GoalPlanningContext,
  context: StrategyContext,
): Promise<StrategyResult> {
  const began = performance.now();
  const ms = ctx.timeoutMs ?? Number.POSITIVE_INFINITY;
  try {
    return await callWithin((signal) => planWithStatus(strategy, world, goal, ctx.actions, { ...context, signal }), {
      ms,
      what: `planning strategy "${strategy.name}"`,
      details: { strategy: strategy.name },
      signal: ctx.signal,
    });
  } catch (error) {
    const stats = { nodesExpanded: 0, nodesGenerated: 0, planningTimeMs: performance.now() - began };
    if (ctx.signal?.aborted) {
      const reason: unknown = ctx.signal.reason;
      return { plan: null, status: "aborted", stats, abortReason: reason instanceof Error ? reason.message : String(reason ?? "aborted") };
    }
    if (!isTimeoutError(error)) throw error;
    const budget: BudgetExhaustion = {
      limit: "time",
      maxNodes: Number.POSITIVE_INFINITY,
      maxExpansions: Number.POSITIVE_INFINITY,
      timeBudgetMs: ms,
      nodesExpanded: 0,
      nodesStored: 0,
      elapsedMs: stats.planningTimeMs,
      message: `planning strategy "${strategy.name}" did not answer within ${ms} ms (planningTimeoutMs); raise planningTimeoutMs for longer searches`,
    };
    return { plan: null, status: "budget_exhausted", stats, budget };
  }
}

/** Why a search ended without a plan, for `noPlanExplanation`: the proof's explanation, or the budget or abort that cut it short. */
function explanationOf(goal: GoalSpec, world: Readonly<WorldState>, ctx: GoalPlanningContext, result: StrategyResult): NoPlanExplanation {
  const empty = { unreachableConditions: [], missingPreconditions: [], unusableActions: [] };
  if (result.status === "budget_exhausted") {
    const suggestion = result.budget
      ? `${result.budget.message}. Raise the strategy's budget (e.g. new AStarStrategy({ timeBudgetMs, maxNodes })) if the goal is reachable.`
      : "the search stopped on its budget without reaching the goal; the goal may be unreachable or need a larger budget";
    return { ...empty, suggestion, status: "budget_exhausted", ...(result.budget ? { budget: result.budget } : {}) };
  }
  if (result.status === "aborted") {
    return { ...empty, suggestion: `planning was aborted (${result.abortReason ?? "signal aborted"})`, status: "aborted" };
  }
  return result.explanation ?? explainNoPlan(world, goal, ctx.actions);
}

function noPlan(
  goal: GoalSpec,
  index: number,
  world: Readonly<WorldState>,
  ctx: GoalPlanningContext,
  result: StrategyResult,
): GoalPlanningResult {
  const status = result.status === "found" ? "no_plan" : result.status;
  return {
    plan: null,
    goal,
    subgoalIndex: index,
    usedBlacklistFallback: false,
    status,
    explanation: explanationOf(goal, world, ctx, { ...result, status }),
  };
}

/** @internal Plans a single goal. */
export async function planGoal(goal: GoalSpec, world: Readonly<WorldState>, ctx: GoalPlanningContext): Promise<GoalPlanningResult> {
  const { plan, usedBlacklistFallback, result } = await planSpec(goal, world, ctx);
  return plan
    ? { plan, goal, subgoalIndex: 0, usedBlacklistFallback, status: "found", explanation: null }
    : noPlan(goal, 0, world, ctx, result);
}

/**
 * @internal Plans a MultiGoal. `sequential`: from `fromIndex`, skips
 * subgoals that already hold, plans the first one that can be planned
 * (subgoals without a plan are skipped with a warning: best effort).
 * `any`: the cheapest plan over all subgoals (a subgoal that already holds
 * costs 0; ties go to list order). `best_value`: the largest value minus
 * cost (ties to the cheaper plan, then list order). In both, a feasible
 * plan beats an infeasible one whatever its cost or value.
 */
export async function planMultiGoal(
  multi: MultiGoal,
  fromIndex: number,
  world: Readonly<WorldState>,
  ctx: GoalPlanningContext,
): Promise<GoalPlanningResult> {
  const goals = multi.goals;
  if (multi.mode === "sequential") {
    let firstFailure: GoalPlanningResult | null = null;
    const skipped: SkippedSubgoal[] = [];
    for (let i = Math.max(0, fromIndex); i < goals.length; i++) {
      const goal = goals[i] as GoalSpec;
      if (goal.isSatisfied(world)) continue;
      const { plan, usedBlacklistFallback, result } = await planSpec(goal, world, ctx);
      if (plan) return { plan, goal, subgoalIndex: i, usedBlacklistFallback, status: "found", explanation: null, skipped };
      const failure = noPlan(goal, i, world, ctx, result);
      if (result.status === "aborted") return { ...failure, skipped };
      ctx.logger.warn(`sequential MultiGoal: subgoal ${i} (${goal.label}) has no plan (${result.status}) and is skipped`, { subgoal: i });
      skipped.push({ index: i, goal: goal.label, reason: failure.explanation?.suggestion || result.status });
      firstFailure ??= failure;
    }
    if (firstFailure) return { ...firstFailure, skipped };
    const last = goals.length - 1;
    return {
      plan: Plan.empty({ ...world }),
      goal: goals[last] as GoalSpec,
      subgoalIndex: last,
      usedBlacklistFallback: false,
      status: "found",
      explanation: null,
      skipped,
    };
  }

  let best: (GoalPlanningResult & { plan: Plan; net: number }) | null = null;
  let firstFailure: GoalPlanningResult | null = null;
  for (const [i, goal] of goals.entries()) {
    const found: SpecOutcome = goal.isSatisfied(world)
      ? { plan: Plan.empty({ ...world }), usedBlacklistFallback: false, result: { plan: null, status: "found" } }
      : await planSpec(goal, world, ctx);
    if (!found.plan) {
      if (found.result.status === "aborted") return noPlan(goal, i, world, ctx, found.result);
      firstFailure ??= noPlan(goal, i, world, ctx, found.result);
      continue;
    }
    const candidate = {
      plan: found.plan,
      usedBlacklistFallback: found.usedBlacklistFallback,
      goal,
      subgoalIndex: i,
      status: "found" as const,
      explanation: null,
      net: found.plan.netValue(goal),
    };
    if (!best || isBetter(multi.mode, candidate, best)) best = candidate;
  }
  if (best)
    return {
      plan: best.plan,
      goal: best.goal,
      subgoalIndex: best.subgoalIndex,
      usedBlacklistFallback: best.usedBlacklistFallback,
      status: "found",
      explanation: null,
    };
  return firstFailure ?? noPlan(goals[0] as GoalSpec, 0, world, ctx, { plan: null, status: "no_plan" });
}

/**
 * Whether candidate `a` beats `b`: a feasible plan (every hard score level
 * >= 0) always beats an infeasible one; then `best_value` compares value
 * minus cost; then plans scored the same way are ranked by their scores
 * (`compareScores`: hard levels, then soft); then the cheaper plan wins.
 * Ties keep the earlier subgoal.
 */
function isBetter(mode: MultiGoal["mode"], a: { plan: Plan; net: number }, b: { plan: Plan; net: number }): boolean {
  const feasibleA = a.plan.score.isFeasible();
  if (feasibleA !== b.plan.score.isFeasible()) return feasibleA;
  if (mode === "best_value" && a.net !== b.net) return a.net > b.net;
  if (a.plan.score.kind === b.plan.score.kind && a.plan.score.kind !== "simple") {
    const order = compareScores(a.plan.score, b.plan.score);
    if (order !== 0) return order < 0;
  }
  return a.plan.totalCost < b.plan.totalCost;
}

/** The goal a planning round or a routing decision is about: the subgoal at `index` of a MultiGoal. */
export function activeGoal(goal: GoalSpec | MultiGoal, index: number): GoalSpec {
  if (!(goal instanceof MultiGoal)) return goal;
  return goal.goals[Math.min(Math.max(0, index), goal.goals.length - 1)] as GoalSpec;
}
