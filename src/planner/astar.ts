/**
 * A* over compiled problems. This is the one big, dense file of the planner:
 * the search loop, its state arena, hash table and open list live together
 * so V8 keeps everything monomorphic and allocation-free per expansion.
 */

import { checkActionEntry } from "../core/action.js";
import {
  type ActionSpec,
  callTracer,
  checkStateValues,
  describeValue,
  type GoalLike,
  GoalSpec,
  LangGoapError,
  toGoalSpec,
  type WorldState,
} from "../core/index.js";
import { budgetExhaustion, checkBudget, type ResolvedBudget, resolveBudget } from "./budget.js";
import { type CompiledProblem, compileSteps } from "./compile.js";
import { explainNoPlan } from "./explain.js";
import { createHeuristic, lmcutHeuristic, opcountHeuristic, type RelaxedModel, relaxedModelSteps } from "./heuristics.js";
import { LmCut } from "./lmcut.js";
import { OperatorCounting } from "./operator-counting.js";
import { PACE_EVERY, Pace, PlanningStopped } from "./pace.js";
import { relevanceOf, relevantEffectMasks } from "./relevance.js";
import { assertValidSteps, pruneSteps } from "./replay.js";
import { type BitLayout, bitLayoutOf, packStart, startBitsSearch } from "./search-bits.js";
import { startFloatSearch } from "./search-float.js";
import { finishedRun, type SearchOutcome, type SearchRun, type SearchSetup, SearchWorkspace } from "./search-setup.js";
import { type HeuristicName, type NoPlanExplanation, Plan, type PlanDetailedResult, type PlanOptions } from "./types.js";

const HEURISTICS: readonly HeuristicName[] = ["zero", "goal-count", "hmax", "hadd", "hff", "lmcut", "opcount"];

function validateOptions(options: PlanOptions): void {
  const bad = (field: string, expected: string, value: unknown) =>
    new LangGoapError("INVALID_OPTION", `plan options: ${field} must be ${expected}, got ${describeValue(value)}`, { field, value });
  if (options.heuristic !== undefined && !HEURISTICS.includes(options.heuristic)) {
    throw bad("heuristic", `one of ${HEURISTICS.join(", ")}`, options.heuristic);
  }
  if (options.weight !== undefined && !(options.weight >= 1 && Number.isFinite(options.weight)))
    throw bad("weight", "a finite number >= 1", options.weight);
  checkBudget(options, "plan options");
}

/**
 * Specificity first: more preconditions earlier, then declaration order. A
 * counting sort (stable, as the comparison sort it replaces), linear and in
 * slices: sorting a million actions by comparison blocks for seconds.
 */
function* bySpecificity(actions: readonly ActionSpec[], pace: Pace): Generator<void, ActionSpec[], void> {
  const n = actions.length;
  const count = new Int32Array(n);
  let most = 0;
  for (let i = 0; i < n; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const c = Object.keys((actions[i] as ActionSpec).preconditions).length;
    count[i] = c;
    if (c > most) most = c;
  }
  // Bucket `most - c` holds the actions with c preconditions: the most specific first.
  const next = new Int32Array(most + 2);
  for (let i = 0; i < n; i++) next[most - (count[i] as number) + 1]++;
  for (let b = 1; b <= most + 1; b++) next[b] = (next[b] as number) + (next[b - 1] as number);
  const sorted: ActionSpec[] = new Array(n);
  for (let i = 0; i < n; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const b = most - (count[i] as number);
    sorted[next[b] as number] = actions[i] as ActionSpec;
    next[b] = (next[b] as number) + 1;
  }
  return sorted;
}

/** {@link validateActions} in slices: a frozen copy, or a coded error naming the bad entry. */
function* validatedActions(actions: readonly ActionSpec[], pace: Pace): Generator<void, readonly ActionSpec[], void> {
  if (!Array.isArray(actions)) {
    throw new LangGoapError("INVALID_ACTION", `expected an array of ActionSpec, got ${describeValue(actions)}`);
  }
  const seen = new Set<string>();
  for (let i = 0; i < actions.length; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    checkActionEntry(actions[i], i, seen);
  }
  return Object.freeze([...actions]);
}

/** Longest stretch of asynchronous search between two yields to the event loop, in ms. */
export const YIELD_EVERY_MS = 5;

/** Gives the event loop a turn: timers, I/O and abort signals run. */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0)));
}

function abortReason(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason.message ? `${reason.name}: ${reason.message}` : reason.name;
  return reason === undefined ? "aborted" : String(reason);
}

/** The result of a planning call stopped by its signal or time budget before any search began. */
function stoppedBeforeSearch(stop: PlanningStopped, options: PlanOptions, budget: ResolvedBudget, began: number): PlanDetailedResult {
  const elapsedMs = performance.now() - began;
  return {
    plan: null,
    status: stop.status,
    stats: { nodesExpanded: 0, nodesGenerated: 0, planningTimeMs: elapsedMs },
    usedBlacklistFallback: false,
    ...(stop.status === "budget_exhausted"
      ? { budget: budgetExhaustion("time", budget, { nodesExpanded: 0, nodesStored: 0, elapsedMs }) }
      : { abortReason: abortReason(options.signal) }),
  };
}

/**
 * Adds `explanation` as a property computed on first read: explaining "no
 * plan" compiles the problem again, which per-frame planners that never
 * read it should not pay for.
 */
function withLazyExplanation<T extends object>(result: T, explain: () => NoPlanExplanation): T {
  Object.defineProperty(result, "explanation", {
    enumerable: true,
    configurable: true,
    get(): NoPlanExplanation {
      const value = explain();
      Object.defineProperty(result, "explanation", { value, enumerable: true, configurable: true, writable: false });
      return value;
    },
  });
  return result;
}

/**
 * @internal The steps of one planning call, from validating the actions to
 * the end of the search: yields whenever `sliceMs` have passed since the
 * last yield (`Infinity`: never, as {@link planDetailed} runs). Every phase
 * counts against the time budget and stops on the signal. Exposed for
 * tests that drive the steps one by one.
 */
export function* planningSteps(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: PlanOptions,
  sliceMs: number,
): Generator<void, PlanDetailedResult, void> {
  const began = performance.now();
  validateOptions(options);
  const budget = resolveBudget(options);
  const deadline = began + budget.timeBudgetMs;
  const pace = new Pace(sliceMs, deadline, options.signal);
  let all: readonly ActionSpec[];
  try {
    all = yield* validatedActions(actions, pace);
  } catch (error) {
    if (!(error instanceof PlanningStopped)) throw error;
    return stoppedBeforeSearch(error, options, budget, began);
  }
  if (typeof start !== "object" || start === null || Array.isArray(start)) {
    throw new LangGoapError("INVALID_STATE", `plan: start state must be an object, got ${describeValue(start)}`);
  }
  checkStateValues(start, "plan");
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
  const list = blacklisted.size ? all.filter((a) => !blacklisted.has(a.name)) : all;
  let outcome = yield* search(start, goalSpec, list, options, heuristic, budget, deadline, pace);
  if (outcome.status === "no_plan" && blacklisted.size > 0 && options.blacklistFallback !== false) {
    const retry = yield* search(start, goalSpec, all, options, heuristic, budget, deadline, pace);
    retry.nodesExpanded += outcome.nodesExpanded;
    retry.nodesGenerated += outcome.nodesGenerated;
    outcome = retry;
    usedBlacklistFallback = outcome.status === "found";
  }
  const elapsed = performance.now() - began;
  callTracer(searchTracer, "onSearchComplete", outcome.nodesExpanded, elapsed, outcome.status === "found");

  if (outcome.status !== "found" || !outcome.actions) {
    const result: PlanDetailedResult = {
      plan: null,
      status: outcome.status,
      stats: stats(outcome.nodesExpanded, outcome.nodesGenerated),
      usedBlacklistFallback: false,
      ...(outcome.status === "budget_exhausted"
        ? {
            budget: budgetExhaustion(
              outcome.limit ?? "time",
              { maxNodes: outcome.maxNodes ?? budget.maxNodes, maxExpansions: budget.maxExpansions, timeBudgetMs: budget.timeBudgetMs },
              { nodesExpanded: outcome.nodesExpanded, nodesStored: outcome.nodesStored ?? 0, elapsedMs: elapsed },
            ),
          }
        : {}),
      ...(outcome.status === "aborted" ? { abortReason: abortReason(options.signal) } : {}),
      ...(outcome.expansions ? { expansions: outcome.expansions } : {}),
    };
    if (outcome.status !== "no_plan") return result;
    const snapshot = { ...start };
    return withLazyExplanation(result, () => explainNoPlan(snapshot, goalSpec, all));
  }

  const found = assertValidSteps(start, outcome.actions, goalSpec);
  const used = outcome.heuristic ?? heuristic;
  let kept = outcome.actions;
  let replay = found;
  let pruned = 0;
  // An optimal search (admissible heuristic, weight 1) over positive-cost
  // steps cannot return a removable step: dropping one would give a cheaper
  // valid plan. Pruning is then skipped, which matters for per-frame planning.
  const provablyMinimal =
    (used === "hmax" || used === "zero" || used === "lmcut") &&
    (options.weight ?? 1) === 1 &&
    found.stepCosts.length > 0 &&
    found.stepCosts.every((c) => c > 0);
  if (options.prune !== false && kept.length > 0 && !provablyMinimal) {
    ({ actions: kept, replay, pruned } = pruneSteps(start, kept, goalSpec, found.totalCost));
  }
  const plan = new Plan({
    actions: kept,
    stateChanges: replay.changes,
    startState: { ...start },
    totalCost: replay.totalCost,
    metadata: {
      nodesExpanded: outcome.nodesExpanded,
      nodesGenerated: outcome.nodesGenerated,
      planningTimeMs: performance.now() - began,
      actionsPruned: pruned,
      heuristic: used,
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
 * Finds the cheapest plan, with details: status, counters, an explanation
 * when there is no plan (computed when first read), the budget's figures
 * when one ran out, and recorded expansions on request.
 *
 * Every search is bounded: by default it stops after
 * {@link DEFAULT_TIME_BUDGET_MS} (10 s) or {@link DEFAULT_MAX_NODES}
 * states held (fewer for wide states, to stay within 256 MB), whichever
 * comes first, with status `budget_exhausted` — never `no_plan`, which
 * means the search proved there is no plan. Synchronous: it blocks the
 * event loop while it searches; {@link planDetailedAsync} does not.
 *
 * @example
 * ```ts
 * const { plan, status, stats } = planDetailed({ wood: 0 }, { wood: { gte: 3 } }, [chop], { heuristic: "hmax" });
 * status;              // "found"
 * stats.nodesExpanded; // 3
 * planDetailed({ n: 0 }, { n: 3 }, [addTwo], { timeBudgetMs: 50 }).budget?.limit; // "time"
 * ```
 */
export function planDetailed(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: PlanOptions = {},
): PlanDetailedResult {
  const step = planningSteps(start, goal, actions, options, Number.POSITIVE_INFINITY).next();
  if (!step.done) throw new LangGoapError("INVALID_STATE", "internal error: a synchronous search paused");
  return step.value;
}

/**
 * {@link planDetailed} without blocking the event loop: the search runs in
 * slices of at most {@link YIELD_EVERY_MS} ms and yields between them, so
 * timers, I/O and other requests go on, and an `AbortSignal` (e.g.
 * `AbortSignal.timeout(500)`) stops it within one slice, with status
 * `aborted`. Plans, statuses and counters are those of `planDetailed`.
 * The graph's planner node plans this way.
 *
 * @example
 * ```ts
 * const result = await planDetailedAsync(start, goal, actions, { signal: AbortSignal.timeout(500) });
 * if (result.status === "aborted") console.log(result.abortReason);
 * ```
 */
export async function planDetailedAsync(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: PlanOptions = {},
): Promise<PlanDetailedResult> {
  const steps = planningSteps(start, goal, actions, options, YIELD_EVERY_MS);
  let step = steps.next();
  while (!step.done) {
    await yieldToEventLoop();
    step = steps.next();
  }
  return step.value;
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

/**
 * {@link plan} without blocking the event loop (see {@link planDetailedAsync}).
 *
 * @example
 * ```ts
 * const p = await planAsync({ wood: 0 }, { wood: { gte: 3 } }, [chop], { signal });
 * ```
 */
export async function planAsync(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: PlanOptions = {},
): Promise<Plan | null> {
  return (await planDetailedAsync(start, goal, actions, options)).plan;
}

/** A compiled domain kept for reuse: planning the same actions and goal again only re-encodes the start. */
interface CompiledEntry {
  readonly actions: readonly ActionSpec[];
  readonly goalKey: string;
  readonly p: CompiledProblem;
  readonly model: RelaxedModel;
  readonly layout: BitLayout | null;
  /** Relevance analysis for the boolean engine: computed at the first search that wants it; `null` when it prunes nothing. */
  relevantBits?: SearchSetup["relevantBits"] | null;
  /** Arrays reused by this problem's searches. */
  readonly workspace: SearchWorkspace;
  /** LM-cut's graph of this problem, built at the first search that uses it (building it costs more than a small search). */
  lmcut?: LmCut;
  /** The operator-counting program of this problem, built at the first search that uses it. */
  opcount?: OperatorCounting;
  /** Interned values when it was compiled: only values interned since (new strings in start states) count against the cap. */
  readonly compiledValues: number;
  inUse: boolean;
}

const compiledCache = new WeakMap<ActionSpec, CompiledEntry[]>();
const ENTRIES_PER_DOMAIN = 8;
/** Values interned after compiling beyond which a cached problem is dropped (keys with unbounded string values). */
const MAX_INTERNED_VALUES = 4096;

function sameActions(a: readonly ActionSpec[], b: readonly ActionSpec[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function* acquireCompiled(
  start: Readonly<WorldState>,
  goal: GoalSpec,
  sorted: readonly ActionSpec[],
  pace: Pace,
): Generator<void, CompiledEntry, void> {
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
  const p = yield* compileSteps(start, goal, sorted, pace);
  const model = yield* relaxedModelSteps(p, p.start, pace);
  yield* pace.check();
  const layout = bitLayoutOf(p);
  yield* pace.check();
  const entry: CompiledEntry = {
    actions: sorted,
    goalKey,
    p,
    model,
    layout,
    workspace: new SearchWorkspace(),
    compiledValues: p.valueCount(),
    inUse: true,
  };
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
  // A large domain interns many values from the start (two per boolean fact): only growth since then is unbounded.
  if (entry.p.valueCount() - entry.compiledValues > MAX_INTERNED_VALUES) {
    const list = entry.actions[0] ? compiledCache.get(entry.actions[0]) : undefined;
    const i = list?.indexOf(entry) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  }
}

function* search(
  start: Readonly<WorldState>,
  goal: GoalSpec,
  actionList: readonly ActionSpec[],
  options: PlanOptions,
  heuristicName: HeuristicName,
  budget: ResolvedBudget,
  deadline: number,
  pace: Pace,
): Generator<void, SearchOutcome, void> {
  if (options.signal?.aborted) return { status: "aborted", actions: null, nodesExpanded: 0, nodesGenerated: 0 };
  // Counts of a finished first phase, for a stop while the second one is set up.
  let expanded = 0;
  let generated = 0;
  let compiled: CompiledEntry | undefined;
  try {
    compiled = yield* acquireCompiled(start, goal, yield* bySpecificity(actionList, pace), pace);
    const run = (name: HeuristicName, phaseBudget: ResolvedBudget) =>
      searchWith(compiled as CompiledEntry, goal, options, name, phaseBudget, deadline, pace);
    // The default on a boolean domain of at most ESCALATE_MAX_ACTIONS actions (both heuristics are admissible):
    // LM-cut from the start on a domain of LMCUT_FIRST_ACTIONS actions or more, where it pays from the first states;
    // on a smaller one hmax (cheapest per state, as per-frame planning wants) while the search goes well, LM-cut
    // once hmax has expanded ESCALATE_AFTER states. A long plan keeps hmax: it needs an expansion per step anyway.
    const auto = options.heuristic === undefined && compiled.layout !== null && compiled.actions.length <= ESCALATE_MAX_ACTIONS;
    // A numeric domain whose facts change by `inc`/`dec`: hmax and the operator-counting bound, the larger.
    if (options.heuristic === undefined && compiled.layout === null && opcountOf(compiled).hasRows) {
      const outcome = yield* run("opcount", budget);
      return { ...outcome, heuristic: "opcount" };
    }
    const large = auto && compiled.actions.length >= LMCUT_FIRST_ACTIONS;
    if (large) {
      yield* pace.check();
      const chosen: HeuristicName = longPlanAhead(compiled) ? heuristicName : "lmcut";
      const outcome = yield* run(chosen, budget);
      return chosen === heuristicName ? outcome : { ...outcome, heuristic: chosen };
    }
    const escalate = auto && budget.maxExpansions > ESCALATE_AFTER;
    const first = escalate ? { ...budget, maxExpansions: ESCALATE_AFTER } : budget;
    const outcome = yield* run(heuristicName, first);
    if (!escalate || outcome.status !== "budget_exhausted" || outcome.limit !== "expansions") return outcome;
    expanded = outcome.nodesExpanded;
    generated = outcome.nodesGenerated;
    const rest = { ...budget, maxExpansions: budget.maxExpansions - outcome.nodesExpanded };
    // A long plan: hmax starts again (its ESCALATE_AFTER expansions repeated once); deciding before the first phase
    // would cost every small per-frame search an extra relaxation.
    yield* pace.check();
    const next = longPlanAhead(compiled) ? heuristicName : "lmcut";
    const second = yield* run(next, rest);
    return {
      ...second,
      nodesExpanded: second.nodesExpanded + outcome.nodesExpanded,
      nodesGenerated: second.nodesGenerated + outcome.nodesGenerated,
      ...(next === heuristicName ? {} : { heuristic: next }),
    };
  } catch (error) {
    if (!(error instanceof PlanningStopped)) throw error;
    return {
      status: error.status,
      actions: null,
      nodesExpanded: expanded,
      nodesGenerated: generated,
      ...(error.status === "budget_exhausted" ? { limit: "time" as const } : {}),
    };
  } finally {
    if (compiled) releaseCompiled(compiled);
  }
}

/** Sets a search up (in slices: building a heuristic or an index costs time in proportion to the domain) and runs it. */
function* searchWith(
  compiled: CompiledEntry,
  goal: GoalSpec,
  options: PlanOptions,
  heuristicName: HeuristicName,
  budget: ResolvedBudget,
  deadline: number,
  pace: Pace,
): Generator<void, SearchOutcome, void> {
  const run = yield* startSearch(compiled, goal, options, heuristicName, budget, deadline, pace);
  yield* pace.check();
  let outcome = run.step(pace.sliceEnd);
  while (outcome === null) {
    yield* pace.pause();
    outcome = run.step(pace.sliceEnd);
  }
  return outcome;
}

/**
 * Expansions after which the default search of a boolean domain switches
 * from hmax to LM-cut (chosen from `npm run bench -- scale`: 100, 300,
 * 1,000 and 2,000 solved the series in 1.17, 1.26, 1.96 and 2.72 s; 300
 * keeps per-frame searches of a few hundred states on the cheaper hmax),
 * on domains of at most 1,000 actions and unless the start's hmax
 * estimate promises a long plan (LONG_PLAN_STEPS: hmax goes on).
 */
export const ESCALATE_AFTER = 300;

/**
 * Domains with at least this many actions search with LM-cut from the start
 * by default (`npm run bench -- planner`: on chain-S, 24 actions, hmax plans
 * in 0.059 ms and LM-cut in 0.088 ms; on chain-M, 32 actions, LM-cut is
 * faster, 0.13 against 0.20 ms, and the gap widens with size). Smaller
 * domains, like game agents' tens of actions, start with hmax.
 */
const LMCUT_FIRST_ACTIONS = 32;

/** A start whose hmax estimate is at least this long (in unit costs) is a long plan: hmax goes on past ESCALATE_AFTER. */
const LONG_PLAN_STEPS = 500;

/** Domains with more actions than this keep hmax: an LM-cut evaluation costs time in proportion to the actions, per cut. */
const ESCALATE_MAX_ACTIONS = 1_000;

/**
 * True when the start's hmax estimate says the plan has at least
 * LONG_PLAN_STEPS steps of unit cost: then hundreds of expansions are what
 * a good search needs, and LM-cut would cost a cut per step.
 */
function longPlanAhead(compiled: CompiledEntry): boolean {
  const { p, model } = compiled;
  if (model.relax(p.start, 0, 0, true) > 0) return false;
  let h0 = 0;
  for (const g of p.goalAtoms) h0 = Math.max(h0, model.cost[g] as number);
  return h0 >= LONG_PLAN_STEPS;
}

function lmcutOf(compiled: CompiledEntry): LmCut {
  compiled.lmcut ??= new LmCut(compiled.p, compiled.model);
  compiled.lmcut.rebindCosts();
  return compiled.lmcut;
}

function reboundOpcount(compiled: CompiledEntry): OperatorCounting {
  const counting = opcountOf(compiled);
  counting.rebind(compiled.p.start);
  return counting;
}

/** The problem's operator-counting program, built once (the caller rebinds it to the search's start). */
function opcountOf(compiled: CompiledEntry): OperatorCounting {
  compiled.opcount ??= new OperatorCounting(compiled.p, compiled.model);
  return compiled.opcount;
}

function relevantBitsOf(compiled: CompiledEntry): SearchSetup["relevantBits"] | null {
  if (compiled.relevantBits === undefined) {
    const relevance = compiled.layout ? relevanceOf(compiled.p) : null;
    if (relevance && compiled.layout) {
      const { clear, set } = relevantEffectMasks(compiled.layout, relevance);
      compiled.relevantBits = { action: relevance.action, effClear: clear, effSet: set };
    } else compiled.relevantBits = null;
  }
  return compiled.relevantBits;
}

function* startSearch(
  compiled: CompiledEntry,
  goal: GoalSpec,
  options: PlanOptions,
  heuristicName: HeuristicName,
  budget: ResolvedBudget,
  deadline: number,
  pace: Pace,
): Generator<void, SearchRun, void> {
  const { p, model } = compiled;
  const tracer = options.recordExpansions ? options.tracer : undefined;

  // Reachability pre-check: relaxed reachability proves most unreachable goals at once.
  yield* pace.check();
  if (model.relax(p.start, 0, 0, true) > 0) {
    callTracer(tracer, "onSearchDeadEnd", "not_reachable", { goal: goal.conditions });
    return finishedRun({ status: "no_plan", actions: null, nodesExpanded: 0, nodesGenerated: 0 });
  }
  yield* pace.check();
  const h =
    heuristicName === "lmcut"
      ? lmcutHeuristic(lmcutOf(compiled))
      : heuristicName === "opcount"
        ? opcountHeuristic(reboundOpcount(compiled), p, model)
        : createHeuristic(heuristicName, p, model);
  yield* pace.check();
  const relevantBits =
    options.relevance === false || options.recordExpansions === true ? undefined : (relevantBitsOf(compiled) ?? undefined);
  yield* pace.check();
  const setup: SearchSetup = {
    p,
    h,
    goal,
    weight: options.weight ?? 1,
    maxExpansions: budget.maxExpansions,
    maxNodes: budget.maxNodes,
    defaultNodes: budget.defaultNodes,
    deadline,
    signal: options.signal,
    tracer,
    record: options.recordExpansions === true,
    // Recorded expansions show whole states, so a recording search sees every fact.
    relevantBits,
    workspace: compiled.workspace,
  };
  const packed = compiled.layout ? packStart(p, compiled.layout) : null;
  return compiled.layout && packed ? startBitsSearch(setup, compiled.layout, packed) : startFloatSearch(setup);
}
