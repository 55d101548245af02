/**
 * A* over compiled problems. This is the one big, dense file of the planner:
 * the search loop, its state arena, hash table and open list live together
 * so V8 keeps everything monomorphic and allocation-free per expansion.
 */
import {
  type ActionSpec,
  callTracer,
  describeValue,
  type GoalLike,
  GoalSpec,
  LangGoapError,
  toGoalSpec,
  validateActions,
  type WorldState,
} from "../core/index.js";
import { type CompiledProblem, compileProblem } from "./compile.js";
import { explainNoPlan } from "./explain.js";
import { createHeuristic, RelaxedModel } from "./heuristics.js";
import { assertValidPlan, prunePlan } from "./replay.js";
import { type BitLayout, bitLayoutOf, packStart, searchBits } from "./search-bits.js";
import { searchFloat } from "./search-float.js";
import type { SearchOutcome, SearchSetup } from "./search-setup.js";
import { type HeuristicName, type NoPlanExplanation, Plan, type PlanDetailedResult, type PlanOptions } from "./types.js";

const HEURISTICS: readonly HeuristicName[] = ["zero", "goal-count", "hmax", "hadd", "hff"];

function validateOptions(options: PlanOptions): void {
  const bad = (field: string, expected: string, value: unknown) =>
    new LangGoapError("INVALID_OPTION", `plan options: ${field} must be ${expected}, got ${describeValue(value)}`, { field, value });
  if (options.heuristic !== undefined && !HEURISTICS.includes(options.heuristic)) {
    throw bad("heuristic", `one of ${HEURISTICS.join(", ")}`, options.heuristic);
  }
  if (options.weight !== undefined && !(options.weight >= 1 && Number.isFinite(options.weight)))
    throw bad("weight", "a finite number >= 1", options.weight);
  if (options.maxExpansions !== undefined && !(options.maxExpansions >= 0))
    throw bad("maxExpansions", "a number >= 0", options.maxExpansions);
  if (options.timeBudgetMs !== undefined && !(options.timeBudgetMs >= 0)) throw bad("timeBudgetMs", "a number >= 0", options.timeBudgetMs);
}

/** Specificity first: more preconditions earlier, then declaration order (stable sort). */
function bySpecificity(actions: readonly ActionSpec[]): ActionSpec[] {
  return [...actions].sort((a, b) => Object.keys(b.preconditions).length - Object.keys(a.preconditions).length);
}

/**
 * Finds the cheapest plan, with details: status, counters, an explanation
 * when there is no plan, and recorded expansions on request.
 *
 * @example
 * ```ts
 * const { plan, status, stats } = planDetailed({ wood: 0 }, { wood: { gte: 3 } }, [chop], { heuristic: "hmax" });
 * status;              // "found"
 * stats.nodesExpanded; // 3
 * ```
 */
export function planDetailed(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: PlanOptions = {},
): PlanDetailedResult {
  const began = performance.now();
  validateOptions(options);
  const all = validateActions(actions);
  if (typeof start !== "object" || start === null || Array.isArray(start)) {
    throw new LangGoapError("INVALID_STATE", `plan: start state must be an object, got ${describeValue(start)}`);
  }
  const goalSpec = toGoalSpec(goal);
  const heuristic = options.heuristic ?? "hmax";
  // Search hooks (expand, dead end, complete) are part of search recording: off unless asked for.
  const searchTracer = options.recordExpansions ? options.tracer : undefined;
  const stats = (expanded: number, generated: number) => ({
    nodesExpanded: expanded,
    nodesGenerated: generated,
    planningTimeMs: performance.now() - began,
  });

  // A goal that decides satisfaction itself (e.g. NirvanaGoal, never
  // satisfied) gives A* nothing to search toward: say so instead of guessing.
  if (Object.getPrototypeOf(goalSpec).isSatisfied !== GoalSpec.prototype.isSatisfied) {
    const explanation: NoPlanExplanation = {
      unreachableConditions: [],
      missingPreconditions: [],
      unusableActions: [],
      suggestion: `goal "${goalSpec.label}" decides its own satisfaction (isSatisfied is overridden), so A* cannot search toward it; plan it with UtilityStrategy or a custom strategy`,
    };
    return { plan: null, status: "no_plan", stats: stats(0, 0), explanation, usedBlacklistFallback: false };
  }

  if (goalSpec.isSatisfied(start)) {
    callTracer(searchTracer, "onSearchComplete", 0, 0, true);
    const plan = Plan.empty({ ...start }, { strategy: "astar", heuristic, planningTimeMs: performance.now() - began });
    return { plan, status: "found", stats: stats(0, 0), usedBlacklistFallback: false };
  }

  const blacklisted = new Set(options.blacklisted ?? []);
  let usedBlacklistFallback = false;
  let outcome = search(start, goalSpec, blacklisted.size ? all.filter((a) => !blacklisted.has(a.name)) : all, options, heuristic, began);
  if (outcome.status === "no_plan" && blacklisted.size > 0 && options.blacklistFallback !== false) {
    const retry = search(start, goalSpec, all, options, heuristic, began);
    retry.nodesExpanded += outcome.nodesExpanded;
    retry.nodesGenerated += outcome.nodesGenerated;
    outcome = retry;
    usedBlacklistFallback = outcome.status === "found";
  }
  const elapsed = performance.now() - began;
  callTracer(searchTracer, "onSearchComplete", outcome.nodesExpanded, elapsed, outcome.status === "found");

  if (outcome.status !== "found" || !outcome.actions) {
    return {
      plan: null,
      status: outcome.status,
      stats: stats(outcome.nodesExpanded, outcome.nodesGenerated),
      ...(outcome.status === "no_plan" ? { explanation: explainNoPlan(start, goalSpec, all) } : {}),
      usedBlacklistFallback: false,
      ...(outcome.expansions ? { expansions: outcome.expansions } : {}),
    };
  }

  const found = assertValidPlan(start, outcome.actions, goalSpec);
  let kept = outcome.actions;
  let replay = found;
  let pruned = 0;
  // An optimal search (admissible heuristic, weight 1) over positive-cost
  // steps cannot return a removable step: dropping one would give a cheaper
  // valid plan. Pruning is then skipped, which matters for per-frame planning.
  const provablyMinimal =
    (heuristic === "hmax" || heuristic === "zero") &&
    (options.weight ?? 1) === 1 &&
    found.states.length > 0 &&
    kept.every((a, i) => a.getCost(i === 0 ? start : found.states[i - 1]!) > 0);
  if (options.prune !== false && kept.length > 0 && !provablyMinimal) {
    ({ actions: kept, replay, pruned } = prunePlan(start, kept, goalSpec, found.totalCost));
  }
  const plan = new Plan({
    actions: kept,
    expectedStates: replay.states,
    startState: { ...start },
    totalCost: replay.totalCost,
    metadata: {
      nodesExpanded: outcome.nodesExpanded,
      nodesGenerated: outcome.nodesGenerated,
      planningTimeMs: performance.now() - began,
      actionsPruned: pruned,
      heuristic,
      strategy: "astar",
      usedBlacklistFallback,
    },
  });
  return {
    plan,
    status: "found",
    stats: stats(outcome.nodesExpanded, outcome.nodesGenerated),
    usedBlacklistFallback,
    ...(outcome.expansions ? { expansions: outcome.expansions } : {}),
  };
}

/**
 * Finds the cheapest plan from `start` to `goal`, or `null` when none exists
 * (or a budget ran out: use {@link planDetailed} to tell the two apart).
 * With the default admissible heuristic (`hmax`) the plan is cost-optimal.
 *
 * @example
 * ```ts
 * const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 2 } }, cost: 2 });
 * plan({ wood: 0 }, { wood: { gte: 3 } }, [chop])?.actionNames; // ["chop", "chop"]
 * ```
 */
export function plan(start: Readonly<WorldState>, goal: GoalLike, actions: readonly ActionSpec[], options: PlanOptions = {}): Plan | null {
  return planDetailed(start, goal, actions, options).plan;
}

/** A compiled domain kept for reuse: planning the same actions and goal again only re-encodes the start. */
interface CompiledEntry {
  readonly actions: readonly ActionSpec[];
  readonly goalKey: string;
  readonly p: CompiledProblem;
  readonly model: RelaxedModel;
  readonly layout: BitLayout | null;
  inUse: boolean;
}

const compiledCache = new WeakMap<ActionSpec, CompiledEntry[]>();
const ENTRIES_PER_DOMAIN = 8;
/** Interned values beyond which a cached problem is dropped (keys with unbounded string values). */
const MAX_INTERNED_VALUES = 4096;

function sameActions(a: readonly ActionSpec[], b: readonly ActionSpec[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function acquireCompiled(start: Readonly<WorldState>, goal: GoalSpec, sorted: readonly ActionSpec[]): CompiledEntry {
  const goalKey = JSON.stringify(goal.conditions);
  const head = sorted[0];
  const list = head ? compiledCache.get(head) : undefined;
  if (list) {
    for (const entry of list) {
      // A cost or effect function may itself plan over the same domain: never share an entry that is in use.
      if (!entry.inUse && entry.goalKey === goalKey && sameActions(entry.actions, sorted) && entry.p.rebindStart(start)) {
        entry.model.rebindStart(entry.p.start);
        entry.inUse = true;
        return entry;
      }
    }
  }
  const p = compileProblem(start, goal, sorted);
  const entry: CompiledEntry = { actions: sorted, goalKey, p, model: new RelaxedModel(p, p.start), layout: bitLayoutOf(p), inUse: true };
  if (head) {
    const entries = list ?? [];
    entries.unshift(entry);
    if (entries.length > ENTRIES_PER_DOMAIN) entries.pop();
    compiledCache.set(head, entries);
  }
  return entry;
}

function releaseCompiled(entry: CompiledEntry): void {
  entry.inUse = false;
  if (entry.p.valueCount() > MAX_INTERNED_VALUES) {
    const list = entry.actions[0] ? compiledCache.get(entry.actions[0]) : undefined;
    const i = list?.indexOf(entry) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  }
}

function search(
  start: Readonly<WorldState>,
  goal: GoalSpec,
  actionList: readonly ActionSpec[],
  options: PlanOptions,
  heuristicName: HeuristicName,
  began: number,
): SearchOutcome {
  if (options.signal?.aborted) return { status: "aborted", actions: null, nodesExpanded: 0, nodesGenerated: 0 };
  const compiled = acquireCompiled(start, goal, bySpecificity(actionList));
  try {
    return searchCompiled(compiled, goal, options, heuristicName, began);
  } finally {
    releaseCompiled(compiled);
  }
}

function searchCompiled(
  compiled: CompiledEntry,
  goal: GoalSpec,
  options: PlanOptions,
  heuristicName: HeuristicName,
  began: number,
): SearchOutcome {
  const { p, model } = compiled;
  const tracer = options.recordExpansions ? options.tracer : undefined;

  // Reachability pre-check: relaxed reachability proves most unreachable goals at once.
  if (model.relax(p.start, 0, 0, true) > 0) {
    callTracer(tracer, "onSearchDeadEnd", "not_reachable", { goal: goal.conditions });
    return { status: "no_plan", actions: null, nodesExpanded: 0, nodesGenerated: 0 };
  }
  const setup: SearchSetup = {
    p,
    h: createHeuristic(heuristicName, p, model),
    goal,
    weight: options.weight ?? 1,
    maxExpansions: options.maxExpansions ?? Number.POSITIVE_INFINITY,
    deadline: options.timeBudgetMs !== undefined ? began + options.timeBudgetMs : Number.POSITIVE_INFINITY,
    signal: options.signal,
    tracer,
    record: options.recordExpansions === true,
  };
  const packed = compiled.layout ? packStart(p, compiled.layout) : null;
  return compiled.layout && packed ? searchBits(setup, compiled.layout, packed) : searchFloat(setup);
}
