import { describeValue, LangGoapError } from "../../../core/errors.js";
import { isStochasticModel, type TransitionModel } from "../../transitions.js";
import type { StrategyContext } from "../../types.js";
import { GOAL_REWARD, type ScalarHeuristic } from "./evaluate.js";
import type { RolloutPolicy } from "./rollouts.js";

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

/** {@link MCTSStrategyOptions} with every default filled in and checked. @internal */
export interface ResolvedOptions {
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

/** True when the search samples outcomes from a model that lists their distributions (MCTS's exact mode). */
function hasOutcomeDistributions(options: MCTSStrategyOptions): boolean {
  const model = options.transitionModel;
  return model !== undefined && options.determinize !== true && isStochasticModel(model) && typeof model.distribution === "function";
}

/**
 * The options with their defaults (which depend on whether the model lists
 * outcome distributions), each checked: a bad one throws `INVALID_OPTION`
 * naming the field. @internal
 */
export function resolveOptions(options: MCTSStrategyOptions): ResolvedOptions {
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

/**
 * The steps the search looks ahead: the smaller of the option and the
 * context's `stepsRemaining` (at least 1), or undefined when neither is finite.
 */
export function horizonOf(option: number, context: StrategyContext): number | undefined {
  const left = context.stepsRemaining;
  const fromContext = typeof left === "number" && left >= 0 ? Math.floor(left) : Number.POSITIVE_INFINITY;
  const steps = Math.min(option, fromContext);
  return Number.isFinite(steps) ? Math.max(1, steps) : undefined;
}
