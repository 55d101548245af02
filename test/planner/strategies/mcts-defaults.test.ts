/**
 * MCTS out of the box on the slippery gridworlds (issue 14): with only the
 * transition model given, the policy MCTS plays (its first action from
 * every reachable state) reaches the goal within 5 points of the best
 * policy's exact probability, computed by dynamic programming over the
 * model. The old defaults (discount 0.95, no waiting, rollouts) did not:
 * 0.73 on FrozenLake (A*'s policy), 0.02–0.34 on CliffWalking.
 */
import { describe, expect, it } from "vitest";
import {
  cliffWalking4x12,
  createGridworld,
  frozenLake4x4,
  type Gridworld,
  goalProbability,
  reachableStates,
  tabulatePolicy,
} from "../../../examples/lib/gridworld.js";
import type { WorldState } from "../../../src/core/index.js";
import { MCTSStrategy } from "../../../src/planner/index.js";

/**
 * The exact optimum of MCTS's own objective by value iteration over every
 * reachable cell: 1 at the goal, `-penalty` in a hole, discounted per move.
 * Returns the best move's name per cell.
 */
function discountedOptimum(world: Gridworld, penalty: number, discount: number): Map<string, string> {
  const cell = (s: Readonly<WorldState>) => `${s.row},${s.col}`;
  const states = reachableStates(world);
  let value = new Map(states.map((s) => [cell(s), s.done === true ? 1 : s.terminated === true ? -penalty : 0]));
  const best = new Map<string, string>();
  for (let sweep = 0; sweep < 2000; sweep++) {
    const next = new Map(value);
    for (const state of states) {
      if (state.terminated === true) continue;
      let top = Number.NEGATIVE_INFINITY;
      for (const action of world.actions) {
        let v = 0;
        for (const o of world.model.distribution(state, action))
          v += o.probability * discount * (value.get(cell({ ...state, ...o.updates })) ?? 0);
        if (v > top + 1e-12) {
          top = v;
          best.set(cell(state), action.name);
        }
      }
      next.set(cell(state), top);
    }
    value = next;
  }
  return best;
}

describe("MCTS defaults under a model with outcome distributions", () => {
  for (const topology of [frozenLake4x4(), cliffWalking4x12()]) {
    it(`plays within 5 points of the optimal goal probability on ${topology.name}`, async () => {
      const world = createGridworld(topology, { slip: 0.2 });
      const best = goalProbability(world);
      // Seed 6 gave a 0.58 policy before exact mode explored small graphs to the end.
      for (const seed of [1, 6]) {
        // Only the budget is pinned to iterations, so the test does not depend on the machine's speed.
        const mcts = new MCTSStrategy({ transitionModel: world.model, seed, wallClockMs: Number.POSITIVE_INFINITY });
        const played = goalProbability(world, await tabulatePolicy(world, mcts));
        expect(played).toBeGreaterThanOrEqual(best - 0.05);
      }
      const plan = await new MCTSStrategy({ transitionModel: world.model }).plan(world.start, world.goal, world.actions);
      expect(plan?.metadata.exploredEveryState).toBe(true);
      expect(plan?.metadata.valueIterationSweeps).toBeGreaterThan(0);
    });
  }

  it("with deadEndPenalty 3 on FrozenLake plays the exact optimum of its objective: hole-free, but slow", async () => {
    // Issue 23: 56.7% of 30 episodes reached the goal with the penalty against 83.3% without. Not a search defect:
    // MCTS plays, cell for cell, the optimum of the discounted problem with a hole worth -3, a route that bumps into
    // walls waiting for lucky slips. It reaches the goal 99.4% of the time in the end, but the episode stops at 100 steps.
    const world = createGridworld(frozenLake4x4(), { slip: 0.2 });
    const mcts = new MCTSStrategy({ transitionModel: world.model, deadEndPenalty: 3, seed: 1, wallClockMs: Number.POSITIVE_INFINITY });
    const table = await tabulatePolicy(world, mcts);
    const optimum = discountedOptimum(world, 3, 0.995);
    const played = new Map<string, string | undefined>();
    for (const state of reachableStates(world)) if (state.terminated !== true) played.set(`${state.row},${state.col}`, table(state)?.name);
    expect(Object.fromEntries(played)).toEqual(Object.fromEntries(optimum));
    // The waiting moves: from (2,0) back north instead of east along the holes, and bumping north on the top row.
    expect(played.get("2,0")).toBe("north");
    expect(played.get("0,2")).toBe("north");
    const find = (name: string | undefined) => world.actions.find((a) => a.name === name);
    const policy = (s: Readonly<WorldState>) => find(table(s)?.name);
    expect(goalProbability(world, policy)).toBeCloseTo(0.4473, 3);
    // Within 1,000 steps the same policy reaches the goal 99%: the step limit, unknown to the planner, is what it loses to
    // (told the steps left, through `horizon` or a graph's MaxActionsPolicy, it plays 86.1%: mcts-horizon.test.ts).
    expect(goalProbability({ ...world, topology: { ...world.topology, maxSteps: 1000 } }, policy)).toBeGreaterThan(0.99);
    // Without the penalty (or with 1), the optimum is the fast route through the holes' neighbours: 86.4% within 100 steps.
    const fast = discountedOptimum(world, 1, 0.995);
    expect(goalProbability(world, (s) => find(fast.get(`${s.row},${s.col}`)))).toBeCloseTo(0.8637, 3);
  });
});
