import type { ActionSpec } from "../../../core/action.js";
import type { WorldState } from "../../../core/facts.js";
import type { GoalSpec } from "../../../core/goal.js";
import type { Rng } from "../../../core/rng.js";
import { sampledSuccessor, type TransitionModel } from "../../transitions.js";
import { drawOutcome, type StateOptions, type WeightedState } from "./analysis.js";
import { GOAL_REWARD, spendAction } from "./evaluate.js";

/** Everything a rollout needs; it starts at `state`, the node just expanded. */
export interface RolloutContext {
  readonly state: Readonly<WorldState>;
  /** Run-once actions already used on the path to `state`. */
  readonly spent: ReadonlySet<string>;
  readonly goal: GoalSpec;
  readonly actions: readonly ActionSpec[];
  readonly model: TransitionModel;
  /** Whether the search treats the model as stochastic. */
  readonly stochastic: boolean;
  readonly rng: Rng;
  /** Most actions simulated. */
  readonly depth: number;
  /** Factor applied to the return per simulated action. */
  readonly discount: number;
  /** Return of a dead end: 0, or less for a risk-averse search (`deadEndPenalty`). */
  readonly deadEndReturn: number;
  /** A state's applicable actions, expected successors and greedy scores (memoized per search). */
  readonly analyze: (state: Readonly<WorldState>, spent: ReadonlySet<string>) => StateOptions;
}

/**
 * Simulates from a freshly expanded node and returns the discounted
 * return: 1 at the goal, `deadEndReturn` at a dead end, the state estimate when the
 * depth runs out.
 */
export interface RolloutPolicy {
  readonly name: string;
  rollout(context: RolloutContext): number;
}

/** Picks the index of the action to simulate among `options.actions` (never empty). */
type Choose = (context: RolloutContext, options: StateOptions) => number;

function simulate(context: RolloutContext, choose: Choose, sampleOutcomes: boolean): number {
  let state = context.state;
  let spent = context.spent;
  let scale = 1;
  for (let step = 0; ; step++) {
    const options = context.analyze(state, spent);
    if (options.goalReached) return scale * GOAL_REWARD;
    if (options.actions.length === 0) return scale * context.deadEndReturn;
    if (step >= context.depth) return scale * options.estimate;
    const index = choose(context, options);
    const action = options.actions[index] as ActionSpec;
    if (!sampleOutcomes) state = options.expected[index] as WorldState;
    else if (options.outcomes) state = drawOutcome(options.outcomes[index] as readonly WeightedState[], context.rng);
    else state = sampledSuccessor(context.model, state, action, context.rng);
    spent = spendAction(spent, action);
    scale *= context.discount;
  }
}

/**
 * The greedy choice: the best {@link StateOptions.scores} (goal first, then
 * the best estimate; changing nothing and walking into a dead end last),
 * ties broken with the generator.
 * @internal
 */
export function greedyChoice(context: RolloutContext, options: StateOptions): number {
  const { scores } = options;
  let bestScore = Number.NEGATIVE_INFINITY;
  let ties = 0;
  let pick = 0;
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i] as number;
    if (score > bestScore + 1e-12) {
      bestScore = score;
      ties = 1;
      pick = i;
    } else if (Math.abs(score - bestScore) <= 1e-12) {
      // Reservoir sampling: each tied action is kept with equal probability.
      ties++;
      if (context.rng.int(1, ties) === 1) pick = i;
    }
  }
  return pick;
}

/**
 * Uniformly random applicable actions; outcomes are sampled when the
 * model is stochastic. Cheap and unbiased, but blind.
 *
 * @example
 * ```ts
 * new MCTSStrategy({ rolloutPolicy: new RandomRollout() });
 * ```
 */
export class RandomRollout implements RolloutPolicy {
  readonly name = "random";
  rollout(context: RolloutContext): number {
    return simulate(context, (ctx, options) => ctx.rng.int(0, options.actions.length - 1), context.stochastic);
  }
}

/**
 * Greedy on the state estimate over expected outcomes, simulated with the
 * expected outcomes too: the default for deterministic models.
 *
 * @example
 * ```ts
 * new MCTSStrategy({ rolloutPolicy: new HeuristicRollout(), scalarHeuristic: nearExit });
 * ```
 */
export class HeuristicRollout implements RolloutPolicy {
  readonly name = "heuristic";
  rollout(context: RolloutContext): number {
    return simulate(context, greedyChoice, false);
  }
}

/**
 * Greedy on the state estimate over expected outcomes, but each step's
 * outcome is sampled from the model: the default for stochastic models,
 * so rollouts meet the same slips the agent will.
 *
 * @example
 * ```ts
 * new MCTSStrategy({ transitionModel: slippery, rolloutPolicy: new StochasticRollout() });
 * ```
 */
export class StochasticRollout implements RolloutPolicy {
  readonly name = "stochastic";
  rollout(context: RolloutContext): number {
    return simulate(context, greedyChoice, true);
  }
}
