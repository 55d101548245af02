import { abortReasonText } from "../../../core/abort-reason.js";
import { type ActionSpec, validateActions } from "../../../core/action.js";
import type { WorldState } from "../../../core/facts.js";
import { type GoalSpec, toGoalSpec } from "../../../core/goal.js";
import { createRng } from "../../../core/rng.js";
import { callTracer } from "../../../core/tracer.js";
import { planningKeys } from "../../compile.js";
import { explainNoPlan } from "../../explain.js";
import { Plan } from "../../plan.js";
import { DETERMINISTIC_MODEL, isStochasticModel, type TransitionModel } from "../../transitions.js";
import type { StrategyContext, StrategyResult } from "../../types.js";
import { BasePlanningStrategy } from "../base.js";
import { createStateAnalyzer } from "./analysis.js";
import { estimateState } from "./evaluate.js";
import { extractPath } from "./extract.js";
import type { DecisionNode } from "./node.js";
import { type MCTSStrategyOptions, type ResolvedOptions, resolveOptions } from "./options.js";
import { buildPlan, exploredWithoutGoal, iterationBudget } from "./result.js";
import { NOTHING_SPENT, TreeReuse } from "./reuse.js";
import { HeuristicRollout, StochasticRollout } from "./rollouts.js";
import { runSearch } from "./run.js";
import { MctsSearch } from "./search.js";
import { createStateKey } from "./state-key.js";

/** States the plan completion may visit after the tree runs out. */
const COMPLETION_NODES = 5000;

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
  readonly #reuse: TreeReuse;

  constructor(options: MCTSStrategyOptions = {}) {
    super();
    this.#settings = resolveOptions(options);
    this.#options = options;
    this.#reuse = new TreeReuse(options.reuseTree === true, this.#settings.treeReuseDecay);
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
      this.#reuse.keep(null);
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
    const reused = this.#reuse.take(start, signature, keyOf);
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

    const { done, stopReason, sweeps, closed, policy, horizon } = await runSearch(search, root, this.#settings, context, began);
    this.#reuse.keep({ root, table: search.table, nextId: search.nextId, signature, keyOf });

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
      if (context.signal?.aborted) return { plan: null, status: "aborted", stats, abortReason: abortReasonText(context.signal) };
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
    const plan = buildPlan(this.name, this.#settings.backup, start, path, {
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
    return this.#reuse.advance(typeof action === "string" ? action : action.name, observedState);
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
}

/** The actions a context allows: all but the blacklisted ones. */
function withoutBlacklisted(all: readonly ActionSpec[], context: StrategyContext): readonly ActionSpec[] {
  const blacklisted = new Set(context.blacklisted ?? []);
  return blacklisted.size > 0 ? all.filter((a) => !blacklisted.has(a.name)) : all;
}
