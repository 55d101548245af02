/**
 * Stochastic gridworlds: MCTS (slippery transition model) against A*
 * (declared effects) over 30 seeded episodes each, run through real
 * GoapGraphs that replan after every action. Reports goal rates, Gymnasium
 * returns, a one-sided Welch t-test on the goal outcomes, the exact goal
 * probabilities of A*'s policy and of the best policy, and the cost of one
 * planning call. Then MCTS with its defaults (only the transition model
 * given) over `BENCH_GRIDWORLD_EPISODES` (500) episodes per domain, its goal
 * rate beside the best policy's exact goal probability (dynamic
 * programming over the model) and the exact probability of the policy it
 * plays (its first action from every state).
 */

import {
  compareOnWorld,
  EPISODE_SEEDS,
  goalOutcomes,
  gridworldMcts,
  mctsIterationsFor,
  type PlannerSummary,
} from "../../examples/lib/comparison.js";
import {
  cliffWalking4x12,
  createGridworld,
  frozenLake4x4,
  goalProbability,
  runEpisode,
  tabulatePolicy,
} from "../../examples/lib/gridworld.js";
import { welchTTest } from "../../examples/lib/stats.js";
import { AStarStrategy, MCTSStrategy } from "../../src/planner/index.js";
import { emit, timeIt } from "../emit.js";

const round = (x: number, digits = 4) => Number(x.toFixed(digits));

function plannerRecord(domain: string, s: PlannerSummary): Record<string, unknown> {
  return {
    suite: "gridworld",
    domain,
    planner: s.planner,
    episodes: s.episodes.length,
    goalRate: round(s.goalRate),
    meanReturn: round(s.meanReturn, 2),
    meanSteps: round(s.meanSteps, 2),
    holeRate: round(s.holeRate),
    meanCliffFalls: round(s.meanFalls, 3),
    wallMsPerEpisode: round(s.wallMs / s.episodes.length, 1),
  };
}

const DEFAULT_EPISODES = Number(process.env.BENCH_GRIDWORLD_EPISODES ?? 500);

/** MCTS as a user gets it: only the transition model (and one seed per episode). */
async function mctsDefaults(): Promise<void> {
  for (const topology of [frozenLake4x4(), cliffWalking4x12()]) {
    const world = createGridworld(topology, { slip: 0.2 });
    const best = goalProbability(world);
    const played = goalProbability(world, await tabulatePolicy(world, new MCTSStrategy({ transitionModel: world.model, seed: 1 })));
    let reached = 0;
    let steps = 0;
    const began = performance.now();
    for (let seed = 1; seed <= DEFAULT_EPISODES; seed++) {
      const episode = await runEpisode(world, new MCTSStrategy({ transitionModel: world.model, seed }), seed);
      if (episode.reachedGoal) reached++;
      steps += episode.steps;
    }
    const rate = reached / DEFAULT_EPISODES;
    // A binomial standard error says how far the sampled rate may sit from the policy's true probability.
    const standardError = Math.sqrt((rate * (1 - rate)) / DEFAULT_EPISODES);
    emit({
      suite: "gridworld",
      domain: topology.name,
      planner: "MCTS defaults",
      episodes: DEFAULT_EPISODES,
      goalRate: round(rate),
      standardError: round(standardError),
      bestExactGoalProbability: round(best),
      pointsBelowBest: round((best - rate) * 100, 1),
      playedPolicyExactGoalProbability: round(played),
      meanSteps: round(steps / DEFAULT_EPISODES, 1),
      wallMsPerEpisode: round((performance.now() - began) / DEFAULT_EPISODES, 1),
    });
  }
}

export default async function gridworldBench(): Promise<void> {
  await mctsDefaults();
  const outcomes = { mcts: [] as number[], astar: [] as number[] };
  for (const topology of [frozenLake4x4(), cliffWalking4x12()]) {
    const world = createGridworld(topology, { slip: 0.2 });
    const c = await compareOnWorld(world);
    emit(plannerRecord(c.domain, c.astar));
    emit(plannerRecord(c.domain, c.mcts));
    emit({
      suite: "gridworld",
      domain: c.domain,
      comparison: "MCTS > A* (goal reached), one-sided Welch",
      mctsGoalRate: round(c.mcts.goalRate),
      astarGoalRate: round(c.astar.goalRate),
      t: round(c.welch.t),
      df: round(c.welch.df, 2),
      pValue: round(c.welch.pValue, 6),
      astarExactGoalProbability: round(c.astarExact),
      bestExactGoalProbability: round(c.bestExact),
      bestExactWithoutWallBumps: round(c.bestExactWithoutWallBumps),
    });
    outcomes.mcts.push(...goalOutcomes(c.mcts));
    outcomes.astar.push(...goalOutcomes(c.astar));

    const astar = new AStarStrategy();
    const iterations = mctsIterationsFor(world);
    const mcts = gridworldMcts(world, 42, iterations);
    const astarTime = await timeIt(() => astar.plan(world.start, world.goal, world.actions), { minMs: 300 });
    // A fresh strategy per run, so every call searches from scratch (no reused graph).
    const mctsTime = await timeIt(() => gridworldMcts(world, 42, iterations).plan(world.start, world.goal, world.actions), {
      minMs: 300,
      maxRuns: 50,
    });
    const sample = await mcts.plan(world.start, world.goal, world.actions);
    emit({ suite: "gridworld", domain: c.domain, planner: "A*", msPerPlan: round(astarTime.medianMs), runs: astarTime.runs });
    emit({
      suite: "gridworld",
      domain: c.domain,
      planner: "MCTS",
      iterations: sample?.metadata.iterations,
      msPerPlan: round(mctsTime.medianMs),
      iterationsPerSec: Math.round((sample?.metadata.iterations as number) / (mctsTime.medianMs / 1000)),
      runs: mctsTime.runs,
    });
  }
  const pooled = welchTTest(outcomes.mcts, outcomes.astar, "greater");
  emit({
    suite: "gridworld",
    domain: "both",
    comparison: "MCTS > A* (goal reached), one-sided Welch",
    episodesPerPlanner: 2 * EPISODE_SEEDS.length,
    mctsGoalRate: round(pooled.meanA),
    astarGoalRate: round(pooled.meanB),
    t: round(pooled.t),
    df: round(pooled.df, 2),
    pValue: round(pooled.pValue, 6),
  });
}
