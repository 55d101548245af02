/**
 * MCTS against A* on the stochastic gridworlds, episode by episode through
 * real GoapGraphs: shared by the stochastic-gridworld example and the
 * gridworld benchmark, so both report the same protocol.
 */
import { AStarStrategy, MCTSStrategy, type PlanningStrategy } from "../../src/planner/index.js";
import { type EpisodeResult, type Gridworld, goalProbability, runEpisode, tabulatePolicy } from "./gridworld.js";
import { type WelchResult, welchTTest } from "./stats.js";

/** Seeds of the episodes: 30 of them, as in LangGOAP's benchmark (42–71). */
export const EPISODE_SEEDS: readonly number[] = Array.from({ length: 30 }, (_, i) => 42 + i);

/**
 * The MCTS settings of the comparison: its defaults under a model that
 * lists outcome distributions (exact outcome weights, optimistic leaves,
 * value iteration over the search graph, discount 0.995, wall bumps
 * allowed), with a deterministic budget (iterations only) and one seed per
 * episode.
 */
export function gridworldMcts(world: Gridworld, seed: number, iterations: number): MCTSStrategy {
  return new MCTSStrategy({ transitionModel: world.model, iterations, wallClockMs: Number.POSITIVE_INFINITY, seed });
}

/** MCTS iterations per step: the default under such a model (1,000). */
export function mctsIterationsFor(_world: Gridworld): number {
  return 1000;
}

/** How one planner did over all seeds. */
export interface PlannerSummary {
  readonly planner: string;
  readonly episodes: readonly EpisodeResult[];
  readonly goalRate: number;
  readonly meanReturn: number;
  readonly meanSteps: number;
  /** Mean cliff falls, or the share of episodes ending in a hole. */
  readonly meanFalls: number;
  readonly holeRate: number;
  readonly wallMs: number;
}

/** One domain's comparison. */
export interface DomainComparison {
  readonly domain: string;
  readonly astar: PlannerSummary;
  readonly mcts: PlannerSummary;
  /** One-sided Welch t-test of "MCTS reaches the goal more often" on 0/1 goal outcomes. */
  readonly welch: WelchResult;
  /** Exact goal probability of A*'s replanning policy (dynamic programming over the model). */
  readonly astarExact: number;
  /** The best goal probability any policy reaches within the step limit, and without moving into walls. */
  readonly bestExact: number;
  readonly bestExactWithoutWallBumps: number;
}

async function runPlanner(world: Gridworld, planner: string, make: (seed: number) => PlanningStrategy): Promise<PlannerSummary> {
  const began = performance.now();
  const episodes: EpisodeResult[] = [];
  for (const seed of EPISODE_SEEDS) episodes.push(await runEpisode(world, make(seed), seed));
  const mean = (f: (e: EpisodeResult) => number) => episodes.reduce((s, e) => s + f(e), 0) / episodes.length;
  return {
    planner,
    episodes,
    goalRate: mean((e) => (e.reachedGoal ? 1 : 0)),
    meanReturn: mean((e) => e.totalReturn),
    meanSteps: mean((e) => e.steps),
    meanFalls: mean((e) => e.cliffFalls),
    holeRate: mean((e) => (e.fellInHole ? 1 : 0)),
    wallMs: performance.now() - began,
  };
}

/** 0/1 goal outcomes of a planner's episodes. */
export function goalOutcomes(summary: PlannerSummary): number[] {
  return summary.episodes.map((e) => (e.reachedGoal ? 1 : 0));
}

/** Runs A* and MCTS over {@link EPISODE_SEEDS} on one world, and the exact references. */
export async function compareOnWorld(world: Gridworld): Promise<DomainComparison> {
  const astar = await runPlanner(world, "A*", () => new AStarStrategy());
  const mcts = await runPlanner(world, "MCTS", (seed) => gridworldMcts(world, seed, mctsIterationsFor(world)));
  return {
    domain: world.topology.name,
    astar,
    mcts,
    welch: welchTTest(goalOutcomes(mcts), goalOutcomes(astar), "greater"),
    astarExact: goalProbability(world, await tabulatePolicy(world, new AStarStrategy())),
    bestExact: goalProbability(world),
    bestExactWithoutWallBumps: goalProbability(world, undefined, { allowNoOps: false }),
  };
}
