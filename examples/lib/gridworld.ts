/**
 * Stochastic gridworlds with Gymnasium's conventions (row 0 at the top,
 * `(row, col)` cells), shared by the stochastic-gridworld example and the
 * gridworld benchmark.
 *
 * - FrozenLake 4x4 (`SFFF/FHFH/FFFH/HFFG`): falling into a hole ends the
 *   episode; reward 1 at the goal, 0 otherwise; at most 100 steps.
 * - CliffWalking 4x12: start bottom-left, goal bottom-right, the cliff in
 *   between; stepping into it costs -100 and sends the agent back to the
 *   start (the episode goes on); every step costs -1; at most 50 steps here
 *   (Gymnasium sets no limit; the limit turns "reached the goal" into a
 *   rate that can be compared).
 *
 * Every move slips to one of the two perpendicular directions with
 * probability `slip` (split evenly), as in LangGOAP's benchmark fixture.
 *
 * The planning model is honest for both planners: holes are dead ends
 * (moves need `terminated: false`), so A* plans the shortest path that
 * avoids them on the declared effects, and walking into the cliff is a
 * pointless loop it never plans. A* just does not know about slipping;
 * MCTS is given the slippery model and can weigh the risk.
 */
import { ActionSpec, GoalSpec, type WorldState } from "../../src/core/index.js";
import { GoapGraph, MaxActionsPolicy } from "../../src/graph/index.js";
import { type PlanningStrategy, type ScalarHeuristic, StochasticTransitionModel, slipOutcomes } from "../../src/planner/index.js";

export interface Cell {
  readonly row: number;
  readonly col: number;
}

/** A grid, its hazards, its rewards and its step limit. */
export interface GridTopology {
  readonly name: string;
  readonly rows: number;
  readonly cols: number;
  readonly start: Cell;
  readonly goal: Cell;
  /** Cells that end the episode in failure. */
  readonly holes: readonly Cell[];
  /** Cells that send the agent back to the start. */
  readonly cliffs: readonly Cell[];
  readonly stepReward: number;
  readonly goalReward: number;
  readonly holeReward: number;
  readonly cliffReward: number;
  readonly maxSteps: number;
}

/** FrozenLake 4x4, Gymnasium's default map. */
export function frozenLake4x4(): GridTopology {
  const map = ["SFFF", "FHFH", "FFFH", "HFFG"];
  const holes: Cell[] = [];
  map.forEach((line, row) => {
    [...line].forEach((ch, col) => {
      if (ch === "H") holes.push({ row, col });
    });
  });
  return {
    name: "FrozenLake 4x4",
    rows: 4,
    cols: 4,
    start: { row: 0, col: 0 },
    goal: { row: 3, col: 3 },
    holes,
    cliffs: [],
    stepReward: 0,
    goalReward: 1,
    holeReward: 0,
    cliffReward: 0,
    maxSteps: 100,
  };
}

/** CliffWalking 4x12. */
export function cliffWalking4x12(): GridTopology {
  return {
    name: "CliffWalking 4x12",
    rows: 4,
    cols: 12,
    start: { row: 3, col: 0 },
    goal: { row: 3, col: 11 },
    holes: [],
    cliffs: Array.from({ length: 10 }, (_, i) => ({ row: 3, col: i + 1 })),
    stepReward: -1,
    goalReward: -1,
    holeReward: 0,
    cliffReward: -100,
    maxSteps: 50,
  };
}

/** A ready world: actions, goal, start state, slippery model and an MCTS estimate. */
export interface Gridworld {
  readonly topology: GridTopology;
  readonly actions: readonly ActionSpec[];
  /** `done: true`, for planning. */
  readonly goal: GoalSpec;
  /** The same conditions, replanned after every action without a replan limit, for episodes in a graph. */
  readonly episodeGoal: GoalSpec;
  readonly start: WorldState;
  readonly slip: number;
  readonly model: StochasticTransitionModel;
  /** Minus the Manhattan distance to the goal, scaled to [-1, 0]: domain knowledge for MCTS rollouts. */
  readonly heuristic: ScalarHeuristic;
}

const MOVES = { north: [-1, 0], south: [1, 0], east: [0, 1], west: [0, -1] } as const;
type Move = keyof typeof MOVES;
const PERPENDICULAR: Record<Move, readonly [Move, Move]> = {
  north: ["west", "east"],
  south: ["west", "east"],
  east: ["north", "south"],
  west: ["north", "south"],
};

/** Builds the actions, goal, start state and slippery model of a topology. */
export function createGridworld(topology: GridTopology, options: { readonly slip?: number } = {}): Gridworld {
  const slip = options.slip ?? 0.2;
  const has = (cells: readonly Cell[], row: number, col: number) => cells.some((c) => c.row === row && c.col === col);
  const land = (row: number, col: number): WorldState => {
    const r = Math.min(topology.rows - 1, Math.max(0, row));
    const c = Math.min(topology.cols - 1, Math.max(0, col));
    if (has(topology.cliffs, r, c)) return { row: topology.start.row, col: topology.start.col, done: false, terminated: false, fell: true };
    if (r === topology.goal.row && c === topology.goal.col) return { row: r, col: c, done: true, terminated: true, fell: false };
    return { row: r, col: c, done: false, terminated: has(topology.holes, r, c), fell: false };
  };
  const byName = new Map<Move, ActionSpec>();
  for (const [name, [dr, dc]] of Object.entries(MOVES) as Array<[Move, readonly [number, number]]>) {
    byName.set(
      name,
      new ActionSpec({
        name,
        preconditions: { terminated: false },
        effects: (s) => land((s.row as number) + dr, (s.col as number) + dc) as Record<string, boolean | number>,
        effectKeys: ["row", "col", "done", "terminated", "fell"],
        cost: 1,
        description: `move one cell ${name}`,
      }),
    );
  }
  const actions = [...byName.values()];
  const outcomes = Object.fromEntries(
    [...byName.keys()].map((name) => [
      name,
      slipOutcomes(
        slip,
        PERPENDICULAR[name].map((m) => byName.get(m) as ActionSpec),
      ),
    ]),
  );
  const span = topology.rows + topology.cols - 2;
  const goal = new GoalSpec({ conditions: { done: true }, name: `reach the ${topology.name} goal` });
  return {
    topology,
    actions,
    goal,
    episodeGoal: goal.with({ policy: { replanStrategy: "every_action", maxReplans: 0 } }),
    start: { row: topology.start.row, col: topology.start.col, done: false, terminated: false, fell: false },
    slip,
    model: new StochasticTransitionModel({ outcomes, actions }),
    heuristic: (s) => -(Math.abs(topology.goal.row - (s.row as number)) + Math.abs(topology.goal.col - (s.col as number))) / span,
  };
}

/** What happened in one episode. */
export interface EpisodeResult {
  /** The graph's final status (`goal_achieved`, `no_plan` in a hole, `terminated` at the step limit). */
  readonly status: string;
  readonly reachedGoal: boolean;
  /** Ended in a hole (FrozenLake). */
  readonly fellInHole: boolean;
  /** Times the agent stepped into the cliff (CliffWalking). */
  readonly cliffFalls: number;
  readonly steps: number;
  /** Sum of Gymnasium rewards. */
  readonly totalReturn: number;
  readonly actions: readonly string[];
}

/**
 * Runs one episode through a real {@link GoapGraph}: the goal replans after
 * every action (`every_action`, no replan limit), the executor samples each
 * action's outcome from the slippery model with the graph's generator
 * seeded by `seed`, and a {@link MaxActionsPolicy} ends the run at the step
 * limit. A hole leaves no applicable action, so the run ends with `no_plan`.
 */
export async function runEpisode(world: Gridworld, strategy: PlanningStrategy, seed: number): Promise<EpisodeResult> {
  const graph = new GoapGraph(world.actions, {
    strategy,
    transitionModel: world.model,
    seed,
    terminationPolicies: [new MaxActionsPolicy(world.topology.maxSteps)],
    logger: {},
  });
  const result = await graph.invoke(world.episodeGoal, world.start);
  let totalReturn = 0;
  let cliffFalls = 0;
  for (const step of result.executionHistory) {
    const after = step.stateAfter;
    if (after.fell === true) {
      cliffFalls++;
      totalReturn += world.topology.cliffReward;
    } else if (after.done === true) totalReturn += world.topology.goalReward;
    else if (after.terminated === true) totalReturn += world.topology.holeReward;
    else totalReturn += world.topology.stepReward;
  }
  const final = result.worldState;
  return {
    status: result.status,
    reachedGoal: final.done === true,
    fellInHole: final.terminated === true && final.done !== true,
    cliffFalls,
    steps: result.executionHistory.length,
    totalReturn,
    actions: result.executionHistory.map((step) => step.actionName),
  };
}

/** A decision rule over states: the action to take, or undefined to stop. */
export type GridPolicy = (state: Readonly<WorldState>) => ActionSpec | undefined;

function cellKey(state: Readonly<WorldState>): string {
  return `${state.row},${state.col},${state.fell === true}`;
}

/** Every state the slippery model can reach from the start. */
export function reachableStates(world: Gridworld): WorldState[] {
  const seen = new Map<string, WorldState>([[cellKey(world.start), world.start]]);
  const queue = [world.start];
  while (queue.length > 0) {
    const state = queue.shift() as WorldState;
    for (const action of world.actions) {
      if (!action.isApplicable(state)) continue;
      for (const outcome of world.model.distribution(state, action)) {
        const next = { ...state, ...outcome.updates };
        if (!seen.has(cellKey(next))) {
          seen.set(cellKey(next), next);
          queue.push(next);
        }
      }
    }
  }
  return [...seen.values()];
}

/**
 * The exact probability of reaching the goal within the step limit, by
 * dynamic programming over the slippery model: for a fixed `policy`, or
 * (without one) for the best possible policy. `allowNoOps: false` forbids
 * moves into a wall, which the planners never plan.
 */
export function goalProbability(world: Gridworld, policy?: GridPolicy, options: { readonly allowNoOps?: boolean } = {}): number {
  const states = reachableStates(world);
  const chosen = new Map(states.map((s) => [cellKey(s), policy?.(s)]));
  let p = new Map(states.map((s) => [cellKey(s), s.done === true ? 1 : 0]));
  const value = (state: WorldState, action: ActionSpec, from: Map<string, number>) =>
    world.model
      .distribution(state, action)
      .reduce((sum, o) => sum + o.probability * (from.get(cellKey({ ...state, ...o.updates })) ?? 0), 0);
  for (let step = 0; step < world.topology.maxSteps; step++) {
    const next = new Map<string, number>();
    for (const state of states) {
      const key = cellKey(state);
      if (state.done === true || state.terminated === true) {
        next.set(key, state.done === true ? 1 : 0);
        continue;
      }
      let best = 0;
      const candidates = policy ? [chosen.get(key)].filter((a): a is ActionSpec => a !== undefined) : world.actions;
      for (const action of candidates) {
        const stays = Object.entries(action.getEffects(state)).every(([k, v]) => state[k] === v);
        if (!policy && options.allowNoOps === false && stays) continue;
        best = Math.max(best, value(state, action, p));
      }
      next.set(key, best);
    }
    p = next;
  }
  return p.get(cellKey(world.start)) ?? 0;
}

/** The first action `strategy` plans from each reachable state, as a fixed policy. */
export async function tabulatePolicy(world: Gridworld, strategy: PlanningStrategy): Promise<GridPolicy> {
  const table = new Map<string, ActionSpec | undefined>();
  for (const state of reachableStates(world)) {
    if (state.terminated === true) continue;
    table.set(cellKey(state), (await strategy.plan(state, world.goal, world.actions))?.actions[0]);
  }
  return (state) => table.get(cellKey(state));
}

/** Renders the grid with the agent's visits, for printing. */
export function renderGrid(topology: GridTopology, path: readonly Cell[] = []): string {
  const lines: string[] = [];
  for (let row = 0; row < topology.rows; row++) {
    let line = "";
    for (let col = 0; col < topology.cols; col++) {
      const at = (cells: readonly Cell[]) => cells.some((c) => c.row === row && c.col === col);
      if (row === topology.start.row && col === topology.start.col) line += "S";
      else if (row === topology.goal.row && col === topology.goal.col) line += "G";
      else if (at(topology.holes)) line += "H";
      else if (at(topology.cliffs)) line += "C";
      else line += at(path) ? "*" : ".";
    }
    lines.push(line);
  }
  return lines.join("\n");
}
