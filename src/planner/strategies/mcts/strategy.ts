import {
  type ActionSpec,
  callTracer,
  createRng,
  describeValue,
  type GoalSpec,
  LangGoapError,
  toGoalSpec,
  validateActions,
  type WorldState,
} from "../../../core/index.js";
import { type BudgetExhaustion, budgetExhaustion } from "../../budget.js";
import { planningKeys } from "../../compile.js";
import { explainNoPlan } from "../../explain.js";
import { DETERMINISTIC_MODEL, isStochasticModel, type TransitionModel } from "../../transitions.js";
import { Plan, type StrategyContext, type StrategyResult } from "../../types.js";
import { BasePlanningStrategy } from "../base.js";
import { createStateAnalyzer } from "./analysis.js";
import { estimateState, GOAL_REWARD, type ScalarHeuristic } from "./evaluate.js";
import { type ExtractionSource, extractPath } from "./extract.js";
import { type HorizonPolicy, settleWithinHorizon } from "./horizon.js";
import { type DecisionNode, decayGraph, recommendedEdge } from "./node.js";
import { HeuristicRollout, type RolloutPolicy, StochasticRollout } from "./rollouts.js";
import { MctsSearch } from "./search.js";
import { createStateKey } from "./state-key.js";

/**
 * Why an MCTS search stopped iterating, in `plan.metadata.stopReason`:
 * `"iterations"` (the iteration budget ran out: the same seed gives the same
 * plan on any machine), `"terminal"` (the start is a dead end or the goal:
 * nothing left to search), `"time"` (`wallClockMs` ended the iterations or
 * exact mode's exploration of the graph: the plan depends on the machine's
 * speed), `"signal"` (the caller's `AbortSignal` fired).
 */
export type MctsStopReason = "iterations" | "terminal" | "time" | "signal";

/** Options of {@link MCTSStrategy}. */
export interface MCTSStrategyOptions {
  /** Iteration budget per `plan` call. @defaultValue 200; 1000 under a model with outcome distributions (see {@link MCTSStrategy}) */
  readonly iterations?: number;
  /** Wall-clock budget per `plan` call; `Infinity` disables it. @defaultValue 200 */
  readonly wallClockMs?: number;
  /**
   * UCB1 exploration constant (> 0), for returns spanning [0, 1] (scaled up with `deadEndPenalty`).
   * @defaultValue Math.SQRT2; 0.5 under a model with outcome distributions (its optimistic start explores already)
   */
  readonly c?: number;
  /** Actions simulated per rollout. @defaultValue 20 */
  readonly rolloutDepth?: number;
  /**
   * Return factor per action, in (0, 1]: reaching the goal k actions later
   * is worth `discount^k`, so below 1 the search trades the chance of
   * reaching the goal against the time it takes (at 0.995 a goal 140
   * actions away is worth half of one reached now). It does not minimise
   * cost like A*.
   * @defaultValue 0.95; 0.995 under a model with outcome distributions
   * (where reaching the goal at all matters more than a few steps: a lower
   * discount trades safety for speed)
   */
  readonly discount?: number;
  /**
   * Risk aversion: a dead end (the goal unmet and no action left) returns
   * `-deadEndPenalty` instead of 0, so a move that risks one must buy that
   * much more chance of reaching the goal. 0 treats a dead end like never
   * arriving; a few units make the search accept detours and waiting to
   * stay clear of irreversible failures.
   *
   * The price of that safety is time, weighed by `discount`, and the search
   * knows no step limit outside it (a `MaxActionsPolicy`, an episode's
   * length). On FrozenLake 4x4 with 20% slips (discount 0.995) the exact
   * optimum with a penalty of 3 is a slow route that bumps into walls and
   * waits for lucky slips: it falls into a hole 0.3% of the time within
   * 100 steps instead of 13.4%, and reaches the goal 99.4% of the time
   * eventually instead of 86.6%, but only 44.7% of the time within 100
   * steps (86.4% without a penalty). Tell the search the step limit
   * ({@link MCTSStrategyOptions.horizon}; a `GoapGraph` with a
   * `MaxActionsPolicy` does it by itself) and the same penalty plays the
   * best policy within the limit: 86.1% goal, 9.2% holes within 100 steps.
   * @defaultValue 0
   */
  readonly deadEndPenalty?: number;
  /**
   * Actions left before the run is cut off: outcomes within that many
   * actions count, a goal (or a dead end) reached later counts nothing, so
   * a safe route too slow to arrive in time loses to a faster one, and the
   * choice changes as the steps run out. When the context gives
   * `stepsRemaining` (a graph with a `MaxActionsPolicy` fills it), the
   * smaller of the two is used. Applies to the value iteration that ends a
   * search under a model with outcome distributions (Bellman backups);
   * elsewhere it is not used. The value iteration makes at most 300,000
   * action updates (one per tried action and step left, fewer when values
   * stop changing): on a graph too big for the full horizon the search plays
   * as without one (`metadata.horizonLayers` is 0; otherwise the steps it
   * counted).
   * `Infinity` counts every outcome however late (discounted).
   * @defaultValue Infinity, or `context.stepsRemaining` when given
   * @example
   * ```ts
   * // FrozenLake, episodes of 100 steps: risk-averse, but in a hurry when time runs short.
   * new MCTSStrategy({ transitionModel: slippery, deadEndPenalty: 3, horizon: 100 });
   * ```
   */
  readonly horizon?: number;
  /** Seed of the search's generator: same seed and budget by iterations, same plan. @defaultValue 0 */
  readonly seed?: number;
  /** @defaultValue the declared effects ({@link DeterministicTransitionModel}) */
  readonly transitionModel?: TransitionModel;
  /** @defaultValue {@link HeuristicRollout} for deterministic models, {@link StochasticRollout} otherwise */
  readonly rolloutPolicy?: RolloutPolicy;
  /** Domain estimate of non-goal states. @defaultValue minus the fraction of unmet goal conditions */
  readonly scalarHeuristic?: ScalarHeuristic;
  /**
   * Keep the search graph between calls: the next `plan` call starts from
   * it (visit counts decayed) when its start state is in the graph with the
   * same goal and actions, as when a graph replans after each action.
   * {@link MCTSStrategy.advance} says so explicitly. @defaultValue false
   */
  readonly reuseTree?: boolean;
  /** Factor applied to reused visit counts, in [0, 1]. @defaultValue 0.6 */
  readonly treeReuseDecay?: number;
  /** Return the best partial plan when no path to the goal was found, instead of `null`. @defaultValue false */
  readonly anytimeFallback?: boolean;
  /** Build the tree over expected outcomes even under a stochastic model (determinized UCT). @defaultValue false */
  readonly determinize?: boolean;
  /**
   * How returns update the statistics: `"bellman"` (MaxUCT: an action is
   * worth the average of its outcomes' values, a state its best action's)
   * or `"mean"` (classic UCT: everything averages the returns seen).
   * @defaultValue "bellman"
   */
  readonly backup?: "bellman" | "mean";
  /**
   * Also consider actions expected to change nothing. A* never uses them;
   * under a stochastic model one may still pay off through its slips
   * (bumping into a wall to slide sideways), at the price of a wider tree.
   * @defaultValue false; true under a model with outcome distributions
   */
  readonly allowNoOps?: boolean;
}

interface ResolvedOptions {
  /** Outcome distributions are known: exact outcome weights, optimistic leaves, value iteration at the end. */
  readonly exact: boolean;
  readonly allowNoOps: boolean;
  /** The value of an unsearched state when no rollout policy or estimate is given (exact mode), else undefined. */
  readonly leafValue: number | undefined;
  readonly iterations: number;
  readonly wallClockMs: number;
  readonly c: number;
  readonly rolloutDepth: number;
  readonly discount: number;
  readonly deadEndPenalty: number;
  readonly horizon: number;
  readonly seed: number;
  readonly treeReuseDecay: number;
  readonly backup: "bellman" | "mean";
}

/** States the plan completion may visit after the tree runs out. */
const COMPLETION_NODES = 5000;

/** How often a long search lets timers and abort signals run. */
const YIELD_EVERY_MS = 15;

/** Most value-iteration sweeps over the search graph after an exact-mode search. */
const SETTLE_SWEEPS = 1000;

/** Exact mode explores every state and action when the graph stays within this many states. */
const CLOSE_MAX_NODES = 5000;

/** True when the search samples outcomes from a model that lists their distributions (MCTS's exact mode). */
function hasOutcomeDistributions(options: MCTSStrategyOptions): boolean {
  const model = options.transitionModel;
  return model !== undefined && options.determinize !== true && isStochasticModel(model) && typeof model.distribution === "function";
}

function resolveOptions(options: MCTSStrategyOptions): ResolvedOptions {
  const exact = hasOutcomeDistributions(options);
  const ownLeaves = options.rolloutPolicy !== undefined || options.scalarHeuristic !== undefined || options.rolloutDepth !== undefined;
  const resolved = {
    exact,
    allowNoOps: options.allowNoOps ?? exact,
    leafValue: exact && !ownLeaves ? GOAL_REWARD : undefined,
    iterations: options.iterations ?? (exact ? 1000 : 200),
    wallClockMs: options.wallClockMs ?? 200,
    c: options.c ?? (exact ? 0.5 : Math.SQRT2),
    rolloutDepth: options.rolloutDepth ?? 20,
    discount: options.discount ?? (exact ? 0.995 : 0.95),
    deadEndPenalty: options.deadEndPenalty ?? 0,
    horizon: options.horizon ?? Number.POSITIVE_INFINITY,
    seed: options.seed ?? 0,
    treeReuseDecay: options.treeReuseDecay ?? 0.6,
    backup: options.backup ?? "bellman",
  };
  const fail = (field: string, expected: string) => {
    throw new LangGoapError(
      "INVALID_OPTION",
      `MCTSStrategy.${field} must be ${expected}, got ${describeValue(resolved[field as keyof typeof resolved])}`,
      {
        field,
      },
    );
  };
  const { iterations, wallClockMs, c, rolloutDepth, discount, deadEndPenalty, horizon, seed, treeReuseDecay } = resolved;
  if (!(Number.isInteger(iterations) || iterations === Number.POSITIVE_INFINITY) || iterations < 1) fail("iterations", "an integer >= 1");
  if (!(typeof wallClockMs === "number" && wallClockMs > 0)) fail("wallClockMs", "a number > 0 (Infinity disables it)");
  if (iterations === Number.POSITIVE_INFINITY && wallClockMs === Number.POSITIVE_INFINITY) {
    fail("iterations", "finite when wallClockMs is Infinity (the search needs a budget)");
  }
  if (!(typeof c === "number" && c > 0 && Number.isFinite(c))) fail("c", "a finite number > 0");
  if (!(Number.isInteger(rolloutDepth) && rolloutDepth >= 0)) fail("rolloutDepth", "an integer >= 0");
  if (!(typeof discount === "number" && discount > 0 && discount <= 1)) fail("discount", "a number in (0, 1]");
  if (!(typeof deadEndPenalty === "number" && deadEndPenalty >= 0 && Number.isFinite(deadEndPenalty)))
    fail("deadEndPenalty", "a finite number >= 0");
  if (!(Number.isInteger(horizon) || horizon === Number.POSITIVE_INFINITY) || horizon < 1) fail("horizon", "an integer >= 1 or Infinity");
  if (!(typeof seed === "number" && Number.isFinite(seed))) fail("seed", "a finite number");
  if (resolved.backup !== "bellman" && resolved.backup !== "mean") {
    throw new LangGoapError("INVALID_OPTION", `MCTSStrategy.backup must be "bellman" or "mean", got ${describeValue(options.backup)}`, {
      field: "backup",
    });
  }
  if (!(typeof treeReuseDecay === "number" && treeReuseDecay >= 0 && treeReuseDecay <= 1)) fail("treeReuseDecay", "a number in [0, 1]");
  return resolved;
}

/** What the last search left behind for {@link MCTSStrategy.advance}. */
interface SearchGraph {
  readonly root: DecisionNode;
  readonly table: Map<string, DecisionNode>;
  readonly nextId: number;
  readonly signature: string;
  readonly keyOf: (state: Readonly<WorldState>, spent: ReadonlySet<string>) => string;
}

const NOTHING_SPENT: ReadonlySet<string> = new Set();

/**
 * True when `table` proves the goal unreachable from every state in it:
 * no state meets the goal, every applicable action of every state was
 * tried, and every outcome of every try is in the graph (under a sampling
 * model only when the model's full distribution was laid out).
 */
function exploredWithoutGoal(table: ReadonlyMap<string, DecisionNode>, stochastic: boolean): boolean {
  for (const node of table.values()) {
    if (node.terminal === "goal" || node.untried.length > 0) return false;
    if (stochastic && node.edges.some((edge) => edge.probabilities === null)) return false;
  }
  return true;
}

/** The signal's reason, for people (as A* reports it). */
function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason.message ? `${reason.name}: ${reason.message}` : reason.name;
  return reason === undefined ? "aborted" : String(reason);
}

/** The figures of a search that ran out of iterations or time without finding a path to the goal. */
function iterationBudget(
  outOfTime: boolean,
  iterations: number,
  wallClockMs: number,
  done: number,
  states: number,
  elapsedMs: number,
): BudgetExhaustion {
  const figures = budgetExhaustion(
    outOfTime ? "time" : "expansions",
    { maxNodes: Number.POSITIVE_INFINITY, maxExpansions: iterations, timeBudgetMs: wallClockMs },
    { nodesExpanded: done, nodesStored: states, elapsedMs },
  );
  const which = outOfTime ? `its time budget (wallClockMs ${wallClockMs})` : `its iteration budget (iterations ${iterations})`;
  return {
    ...figures,
    message: `MCTS stopped by ${which} after ${done} iterations and ${states} states in its graph (${Math.round(elapsedMs)} ms) without finding a path to the goal; the goal may still be reachable: raise iterations or wallClockMs, or plan with A*`,
  };
}

/** Graphs larger than this are not carried over to the next search. */
const MAX_REUSED_NODES = 200_000;

/**
 * Monte Carlo tree search (UCT) as a planning strategy: for stochastic
 * worlds, huge branching, or when a good-enough plan within a budget beats
 * an optimal one too late.
 *
 * Each iteration descends by UCB1, expands one action, simulates a rollout
 * from the new state and backs the discounted return up the path. Returns
 * are 1 at the goal, 0 at a dead end (no action applies; less with
 * `deadEndPenalty`), and the state estimate in [0, 1) where a rollout stops. States are shared across paths (a
 * transposition table), so everything learned about a state serves every
 * way of reaching it. Under a stochastic {@link TransitionModel} each
 * action's outcomes are sampled from the model (chance nodes), so an
 * action that sometimes slips into a hole is valued by what it really
 * risks. The search stops at the first of `iterations`, `wallClockMs` and
 * `context.signal`, and `metadata.stopReason` says which ({@link MctsStopReason});
 * with the iteration budget alone, the same seed gives the same plan.
 *
 * Under a model that lists outcome distributions (`distribution`, as
 * `StochasticTransitionModel` does) the defaults pursue the chance of
 * reaching the goal: the first visit of an action lays out all its outcomes
 * with their probabilities (a 10% slip into a hole weighs on it at once),
 * a state not searched yet is valued optimistically (the goal's return)
 * instead of by a rollout, unless a `rolloutPolicy`, `scalarHeuristic` or
 * `rolloutDepth` is given; after the iterations a graph of at most 5,000
 * states is explored to the end (every action of every state,
 * `metadata.exploredEveryState`), and value iteration over the graph makes
 * every value agree before the action is chosen
 * (`metadata.valueIterationSweeps`) — on a closed graph that is the exact
 * optimum of the discounted problem. The discount (0.995), waiting
 * moves (`allowNoOps`), exploration (`c` 0.5) and budget (1,000
 * iterations) default to suit it. On FrozenLake and CliffWalking with 20%
 * slips this plays within 5 points of the best policy's exact goal
 * probability (`npm run bench -- gridworld`). Options given explicitly
 * always win.
 *
 * The plan is read along expected outcomes (see `metadata.extraction`);
 * with `anytimeFallback` a search that found no path to the goal still
 * returns its best partial plan (`metadata.partial: true`).
 *
 * @example
 * ```ts
 * const mcts = new MCTSStrategy({ transitionModel: slippery, iterations: 500, wallClockMs: Infinity, seed: 7 });
 * const p = await mcts.plan(start, goal, actions);
 * p?.actionNames[0]; // the action recommended at the root
 * ```
 */
export class MCTSStrategy extends BasePlanningStrategy {
  readonly name = "mcts";
  readonly transitionModel: TransitionModel;
  readonly #options: MCTSStrategyOptions;
  readonly #settings: ResolvedOptions;
  #last: SearchGraph | null = null;
  #carryover: SearchGraph | null = null;

  constructor(options: MCTSStrategyOptions = {}) {
    super();
    this.#settings = resolveOptions(options);
    this.#options = options;
    this.transitionModel = options.transitionModel ?? DETERMINISTIC_MODEL;
  }

  /**
   * {@link MCTSStrategy.plan} with why the search ended. `no_plan` only with
   * a proof: relaxed reachability rules the goal out, or the search graph
   * holds every state reachable from the start (every action of every
   * state tried, every outcome laid out) and none meets the goal. A search
   * that ran out of iterations or time without a path is `budget_exhausted`
   * with its figures (iterations as `nodesExpanded`, states in the graph
   * as `nodesStored`): the goal may well be reachable.
   *
   * @example
   * ```ts
   * const { plan, status, budget } = await new MCTSStrategy({ iterations: 200 }).planDetailed(start, goal, actions);
   * if (status === "budget_exhausted") console.log(budget?.message);
   * ```
   */
  async planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<StrategyResult> {
    const began = performance.now();
    const goalSpec = toGoalSpec(goal);
    const all = validateActions(actions);
    const tracer = context.tracer;
    if (goalSpec.isSatisfied(start)) {
      callTracer(tracer, "onSearchComplete", 0, performance.now() - began, true);
      const plan = Plan.empty({ ...start }, { strategy: this.name, planningTimeMs: performance.now() - began });
      return { plan, status: "found", stats: { nodesExpanded: 0, nodesGenerated: 0, planningTimeMs: plan.metadata.planningTimeMs } };
    }
    const stochastic = isStochasticModel(this.transitionModel) && this.#options.determinize !== true;
    const usable = this.#usableActions(start, goalSpec, all, context, stochastic);
    if (usable === null) {
      callTracer(tracer, "onSearchDeadEnd", "not_reachable", { goal: goalSpec.conditions });
      callTracer(tracer, "onSearchComplete", 0, performance.now() - began, false);
      this.#last = null;
      return {
        plan: null,
        status: "no_plan",
        stats: { nodesExpanded: 0, nodesGenerated: 0, planningTimeMs: performance.now() - began },
        explanation: explainNoPlan(start, goalSpec, withoutBlacklisted(all, context)),
      };
    }

    const { iterations, wallClockMs, rolloutDepth } = this.#settings;
    const keyOf = createStateKey(planningKeys(goalSpec, usable));
    const estimate = (state: Readonly<WorldState>) => estimateState(state, goalSpec, this.#options.scalarHeuristic);
    const signature = `${goalSpec.label}\u0000${usable.map((a) => a.name).join("\u0000")}\u0000${stochastic}`;
    const reused = this.#takeCarryover(start, signature, keyOf) ?? this.#reuseLast(start, signature, keyOf);
    const search = new MctsSearch(
      {
        goal: goalSpec,
        actions: usable,
        model: this.transitionModel,
        stochastic,
        rng: createRng(this.#settings.seed),
        c: this.#settings.c,
        discount: this.#settings.discount,
        deadEndReturn: -this.#settings.deadEndPenalty,
        rolloutDepth,
        rollout: this.#options.rolloutPolicy ?? (stochastic ? new StochasticRollout() : new HeuristicRollout()),
        analyze: createStateAnalyzer({ goal: goalSpec, actions: usable, model: this.transitionModel, estimate, keyOf, stochastic }),
        keyOf,
        allowNoOps: this.#settings.allowNoOps,
        exactOutcomes: this.#settings.exact,
        leafValue: this.#settings.leafValue,
        backup: this.#settings.backup,
        tracer: context.recordExpansions ? tracer : undefined,
      },
      reused ?? undefined,
    );
    const root = search.nodeFor({ ...start }, NOTHING_SPENT).node;

    let done = 0;
    let stopReason: MctsStopReason = "iterations";
    let lastYield = performance.now();
    while (done < iterations) {
      const now = performance.now();
      if (now - began >= wallClockMs) {
        stopReason = "time";
        break;
      }
      if (context.signal?.aborted) {
        stopReason = "signal";
        break;
      }
      if (now - lastYield >= YIELD_EVERY_MS) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        lastYield = performance.now();
        if (context.signal?.aborted) {
          stopReason = "signal";
          break;
        }
      }
      search.iterate(root);
      done++;
      if (root.terminal !== null) {
        stopReason = "terminal";
        break;
      }
    }
    // Exact mode: a small graph is explored to the end, then value iteration makes every value agree (sampled
    // backups leave values off the sampled paths stale): on a closed graph that is the exact optimum.
    // The closure runs in slices, yielding like the iterations do; value iteration is capped at 300,000 updates.
    let sweeps = 0;
    let closed = false;
    let policy: HorizonPolicy | undefined;
    let horizon: number | undefined;
    if (this.#settings.exact && this.#settings.backup === "bellman") {
      for (;;) {
        const closure = search.closeGraph(CLOSE_MAX_NODES, Math.min(began + wallClockMs, performance.now() + YIELD_EVERY_MS));
        closed = closure === "closed";
        if (closure !== "paused") break;
        // A closure cut short leaves the played policy to the clock: the result says so.
        if (performance.now() - began >= wallClockMs) {
          if (stopReason !== "signal") stopReason = "time";
          break;
        }
        if (context.signal?.aborted) {
          stopReason = "signal";
          break;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      sweeps = search.settle(SETTLE_SWEEPS);
      const steps = horizonOf(this.#settings.horizon, context);
      // After the stationary values (which leave no stale value behind), the horizon's layers decide: with k actions left,
      // only what happens within k counts.
      if (steps !== undefined) {
        horizon = steps;
        policy =
          settleWithinHorizon(search.table, {
            horizon: steps,
            discount: this.#settings.discount,
            deadEndReturn: -this.#settings.deadEndPenalty,
          }) ?? undefined;
      }
    }
    this.#last = this.#options.reuseTree === true ? { root, table: search.table, nextId: search.nextId, signature, keyOf } : null;

    const path = extractPath(root, {
      goal: goalSpec,
      actions: usable,
      model: this.transitionModel,
      keyOf,
      estimate,
      completionNodes: COMPLETION_NODES,
      backup: this.#settings.backup,
      ...(policy ? { recommend: (node: DecisionNode, depth: number) => policy.choose(node, policy.horizon - depth) } : {}),
    });
    const elapsed = performance.now() - began;
    const found = path.reachesGoal || (this.#options.anytimeFallback === true && path.actions.length > 0);
    callTracer(tracer, "onSearchComplete", done, elapsed, path.reachesGoal);
    const stats = { nodesExpanded: done, nodesGenerated: search.nextId, planningTimeMs: elapsed };
    if (!found) {
      callTracer(tracer, "onSearchDeadEnd", "no_path_found", { iterations: done });
      if (context.signal?.aborted) return { plan: null, status: "aborted", stats, abortReason: abortReason(context.signal) };
      if (exploredWithoutGoal(search.table, stochastic)) {
        return { plan: null, status: "no_plan", stats, explanation: explainNoPlan(start, goalSpec, usable) };
      }
      return {
        plan: null,
        status: "budget_exhausted",
        stats,
        budget: iterationBudget(stopReason === "time", iterations, wallClockMs, done, search.table.size, elapsed),
      };
    }
    const plan = this.#toPlan(start, path, {
      iterations: done,
      nodesGenerated: search.nextId,
      elapsed,
      reusedTree: reused !== null,
      graphSize: search.table.size,
      root,
      sweeps,
      closed,
      stopReason,
      policy,
      horizon,
    });
    return { plan, status: "found", stats };
  }

  /**
   * Tells the strategy what happened after it planned: `action` ran and the
   * world is now `observedState`. With `reuseTree`, the search graph (every
   * state's statistics, visit counts scaled by `treeReuseDecay`) is kept
   * for the next `plan` call when that call starts from `observedState`
   * with the same goal and actions; the observed state becomes the root.
   * Otherwise nothing is kept. Returns whether the graph was kept.
   *
   * @example
   * ```ts
   * const p = await mcts.plan(world, goal, actions);
   * world = await run(p.actions[0]);
   * mcts.advance(p.actions[0], world);
   * ```
   */
  advance(action: ActionSpec | string, observedState: Readonly<WorldState>): boolean {
    this.#carryover = null;
    const last = this.#last;
    this.#last = null;
    if (this.#options.reuseTree !== true || last === null || last.table.size > MAX_REUSED_NODES) return false;
    const name = typeof action === "string" ? action : action.name;
    if (!last.root.edges.some((edge) => edge.action.name === name)) return false;
    if (!last.table.has(last.keyOf(observedState, NOTHING_SPENT))) return false;
    decayGraph(last.table.values(), this.#settings.treeReuseDecay);
    this.#carryover = last;
    return true;
  }

  /** Without `advance`: the last graph, when the new search starts in it (a graph runs plan after plan). */
  #reuseLast(
    start: Readonly<WorldState>,
    signature: string,
    keyOf: (state: Readonly<WorldState>, spent: ReadonlySet<string>) => string,
  ): { table: Map<string, DecisionNode>; nextId: number } | null {
    const last = this.#last;
    this.#last = null;
    if (this.#options.reuseTree !== true || last === null || last.signature !== signature || last.table.size > MAX_REUSED_NODES)
      return null;
    if (!last.table.has(keyOf(start, NOTHING_SPENT))) return null;
    decayGraph(last.table.values(), this.#settings.treeReuseDecay);
    return { table: last.table, nextId: last.nextId };
  }

  #takeCarryover(
    start: Readonly<WorldState>,
    signature: string,
    keyOf: (state: Readonly<WorldState>, spent: ReadonlySet<string>) => string,
  ): { table: Map<string, DecisionNode>; nextId: number } | null {
    const carry = this.#carryover;
    this.#carryover = null;
    if (carry === null || carry.signature !== signature) return null;
    return carry.table.has(keyOf(start, NOTHING_SPENT)) ? { table: carry.table, nextId: carry.nextId } : null;
  }

  /**
   * The actions to search with: blacklisted ones left out, never brought
   * back (the graph's planner lifts a blacklist). `null` when they provably
   * cannot reach the goal (relaxed reachability; only decided for
   * deterministic search, since sampled outcomes may reach further).
   */
  #usableActions(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    all: readonly ActionSpec[],
    context: StrategyContext,
    stochastic: boolean,
  ): readonly ActionSpec[] | null {
    const allowed = withoutBlacklisted(all, context);
    if (stochastic) return allowed;
    return explainNoPlan(start, goal, allowed).unreachableConditions.length === 0 ? allowed : null;
  }

  #toPlan(
    start: Readonly<WorldState>,
    path: { actions: ActionSpec[]; states: WorldState[]; reachesGoal: boolean; source: ExtractionSource },
    facts: {
      iterations: number;
      nodesGenerated: number;
      elapsed: number;
      reusedTree: boolean;
      graphSize: number;
      root: DecisionNode;
      /** Value-iteration sweeps after the search (exact mode). */
      sweeps: number;
      /** Whether exact mode explored every state and action. */
      closed: boolean;
      stopReason: MctsStopReason;
      /** The finite-horizon policy that chose the actions, when a horizon was known and the graph small enough. */
      policy: HorizonPolicy | undefined;
      /** The horizon known to the search (option or context), when the value iteration ran. */
      horizon: number | undefined;
    },
  ): Plan {
    let totalCost = 0;
    let before: Readonly<WorldState> = start;
    path.actions.forEach((action, i) => {
      totalCost += action.getCost(before);
      before = path.states[i] as WorldState;
    });
    const best = facts.policy
      ? facts.policy.choose(facts.root, facts.policy.horizon)
      : recommendedEdge(facts.root.edges, this.#settings.backup);
    return new Plan({
      actions: path.actions,
      expectedStates: path.states,
      startState: { ...start },
      totalCost,
      metadata: {
        strategy: this.name,
        nodesExpanded: facts.iterations,
        nodesGenerated: facts.nodesGenerated,
        planningTimeMs: facts.elapsed,
        iterations: facts.iterations,
        rootVisits: facts.root.visits,
        expectedReturn: best?.value ?? 0,
        extraction: path.source,
        partial: !path.reachesGoal,
        reusedTree: facts.reusedTree,
        graphSize: facts.graphSize,
        stopReason: facts.stopReason,
        ...(facts.sweeps > 0 ? { valueIterationSweeps: facts.sweeps, exploredEveryState: facts.closed } : {}),
        ...(facts.horizon !== undefined ? { horizon: facts.horizon, horizonLayers: facts.policy?.layers ?? 0 } : {}),
      },
    });
  }
}

/**
 * The steps the search looks ahead: the smaller of the option and the
 * context's `stepsRemaining` (at least 1), or undefined when neither is finite.
 */
function horizonOf(option: number, context: StrategyContext): number | undefined {
  const left = context.stepsRemaining;
  const fromContext = typeof left === "number" && left >= 0 ? Math.floor(left) : Number.POSITIVE_INFINITY;
  const steps = Math.min(option, fromContext);
  return Number.isFinite(steps) ? Math.max(1, steps) : undefined;
}

/** The actions a context allows: all but the blacklisted ones. */
function withoutBlacklisted(all: readonly ActionSpec[], context: StrategyContext): readonly ActionSpec[] {
  const blacklisted = new Set(context.blacklisted ?? []);
  return blacklisted.size > 0 ? all.filter((a) => !blacklisted.has(a.name)) : all;
}
