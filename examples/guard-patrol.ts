/**
 * A thief and a patrolling guard: planning around another agent's moves.
 *
 * The vault is at the end of a corridor c0 … c5. A guard walks the middle
 * of it (c2 and c3) and takes breaks in the guard room off it, one random
 * step (or none) after each of the thief's moves; meeting the guard ends
 * the thief's night. A ventilation shaft
 * (v1 … v5) reaches the vault too, one move longer and out of the guard's
 * way.
 *
 * The guard is an `AgentModel` (`UniformRandomAgentModel`: any open move,
 * equally likely), and `ExternalAgentsTransitionModel` lets it move after
 * every action. MCTS plans over that model; A* plans on the declared
 * effects alone and takes the shorter corridor. Both replan after every
 * move, over the same seeded episodes.
 *
 * Run: npx tsx examples/guard-patrol.ts
 */
import {
  ActionSpec,
  AStarStrategy,
  createRng,
  ExternalAgentsTransitionModel,
  GoalSpec,
  MCTSStrategy,
  type PlanningStrategy,
  type Rng,
  UniformRandomAgentModel,
  type WorldState,
} from "../src/index.js";

const corridor = ["c0", "c1", "c2", "c3", "c4", "c5"];
const shaft = ["c0", "v1", "v2", "v3", "v4", "v5", "c5"];

/** One move along a route, both ways, only while the thief is free. */
function movesAlong(route: readonly string[]): ActionSpec[] {
  const moves: ActionSpec[] = [];
  for (let i = 0; i + 1 < route.length; i++) {
    const [a, b] = [route[i] as string, route[i + 1] as string];
    moves.push(new ActionSpec({ name: `${a}_to_${b}`, preconditions: { thief: a, caught: false }, effects: { thief: b } }));
    moves.push(new ActionSpec({ name: `${b}_to_${a}`, preconditions: { thief: b, caught: false }, effects: { thief: a } }));
  }
  return moves;
}
const actions = [...movesAlong(corridor), ...movesAlong(shaft)];
const inVault = new GoalSpec({ conditions: { thief: "c5" } });

// The guard walks room <-> c2 <-> c3, or stays put: any open move, equally likely.
const patrol: Readonly<Record<string, readonly string[]>> = { room: ["room", "c2"], c2: ["room", "c2", "c3"], c3: ["c2", "c3"] };
const guard = new UniformRandomAgentModel<string>({
  enumerateMoves: (s) => patrol[s.guard as string] ?? [],
  defaultMove: "room",
});
const world = new ExternalAgentsTransitionModel({
  agents: [
    {
      name: "guard",
      model: guard,
      // The thief is caught walking into the guard, or when the guard walks into the thief.
      apply: (s, to) => ({ guard: to, caught: s.caught === true || s.thief === s.guard || s.thief === to }),
    },
  ],
});

const start: WorldState = { thief: "c0", guard: "c2", caught: false };
const EPISODES = 200;
const MAX_MOVES = 20;

interface Tally {
  vault: number;
  caught: number;
  moves: number;
}

async function night(strategy: PlanningStrategy, rng: Rng): Promise<"vault" | "caught" | "stuck"> {
  let state: WorldState = { ...start };
  for (let move = 0; move < MAX_MOVES; move++) {
    if (inVault.isSatisfied(state)) return "vault";
    if (state.caught === true) return "caught";
    const plan = await strategy.plan(state, inVault, actions);
    const next = plan?.actions[0];
    if (!next) return "stuck";
    // The real world: the thief's move, then the guard's, drawn with the episode's generator.
    state = { ...state, ...world.sample(state, next, rng) };
  }
  return inVault.isSatisfied(state) ? "vault" : "stuck";
}

async function tally(label: string, strategy: () => PlanningStrategy): Promise<Tally> {
  const t: Tally = { vault: 0, caught: 0, moves: 0 };
  for (let episode = 0; episode < EPISODES; episode++) {
    const outcome = await night(strategy(), createRng(1000 + episode));
    if (outcome === "vault") t.vault++;
    if (outcome === "caught") t.caught++;
  }
  console.log(
    `${label.padEnd(36)} vault ${((100 * t.vault) / EPISODES).toFixed(1).padStart(5)}%   caught ${((100 * t.caught) / EPISODES).toFixed(1).padStart(5)}%`,
  );
  return t;
}

console.log(`Thief vs patrolling guard, ${EPISODES} seeded nights each, replanning after every move`);
const astar = await tally("A* (declared effects, no guard)", () => new AStarStrategy());
const mcts = await tally(
  "MCTS (guard as an AgentModel)",
  () => new MCTSStrategy({ transitionModel: world, wallClockMs: Infinity, seed: 7 }),
);

const firstMove = (await new MCTSStrategy({ transitionModel: world, wallClockMs: Infinity, seed: 7 }).plan(start, inVault, actions))
  ?.actionNames[0];
console.log(`MCTS's first move from c0: ${firstMove} (A* walks c0_to_c1, towards the patrol)`);

const ok = firstMove === "c0_to_v1" && mcts.caught === 0 && mcts.vault === EPISODES && astar.caught >= EPISODES / 4;
if (!ok) {
  console.error("FAIL: MCTS should take the shaft and never be caught, and A* should meet the guard on many nights");
  process.exit(1);
}
console.log("OK: the guard's model keeps the thief out of the corridor");
