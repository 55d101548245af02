/**
 * The guide's villager driven by a behaviour tree whose root is the guide's
 * utility selector (section 11, "Behavior Tree with Utility Selector"): it
 * scores fleeing, eating, resting and gathering wood with considerations
 * and response curves on every tick, and runs the best. Eating, resting and
 * gathering are plan-executing branches (PlanNode): GOAP plans the steps
 * and leaf nodes play them one after another, replanning when a leaf fails
 * or the world breaks the running step. See examples/lib/village-tree.ts.
 *
 * Part 1 lives the same day as examples/village-agent.ts (one GoapAgent)
 * and checks that the tree gives the same outcome, event for event.
 * Part 2 lets a wolf prowl mid-chop: the flee branch (plain condition and
 * action leaves) takes over, the meal's plan is interrupted, and once the
 * wolf is gone the eat branch plans afresh from the shelter.
 * Part 3 is the STUP flow: STUP chooses the goal by utility and hands over
 * its plan, and the tree executes the plan's actions leaf after leaf.
 *
 * Run: npx tsx examples/village-tree.ts
 */
import { BehaviourTree, formatStupTable, PlanNode, StupSelector, Timeout } from "../src/utility/index.js";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "./lib/village.js";
import {
  createVillageWorld,
  followAgent,
  runVillageAgentDay,
  senseVillage,
  VILLAGE_PLAN_OPTIONS,
  VILLAGE_TICK,
} from "./lib/village-day.js";
import { buildVillagerTree, runVillageTreeDay, walkLeaf, workLeaf } from "./lib/village-tree.js";

const checks: [string, boolean][] = [];
const check = (label: string, ok: boolean) => {
  checks.push([label, ok]);
  console.log(`${ok ? "ok  " : "FAIL"} ${label}`);
};

// ---------------------------------------------------------------- Part 1
console.log("Part 1 — the village day, lived by a behaviour tree\n");
const treeDay = runVillageTreeDay(true);
const agentDay = runVillageAgentDay(false);
const { tree } = treeDay.villager;
console.log(`\nThe tree (${tree.nodes.length} nodes): ${tree.nodes.map((n) => n.name).join(", ")}\n`);
check(
  "the tree has 20 nodes, a utility selector at the root",
  tree.nodes.length === 20 && tree.root.constructor.name === "UtilitySelector",
);
check(
  "the same events, at the same times and places, as the GoapAgent version",
  treeDay.timeline.join("\n") === agentDay.timeline.join("\n"),
);
check("the same facts at the end of the day", JSON.stringify(treeDay.facts) === JSON.stringify(agentDay.facts));
check("the villager ends where the GoapAgent one does", treeDay.world.villager === agentDay.world.villager);
check(
  "it replanned when the tree was carried away mid-chop",
  treeDay.events.some((e) => e.startsWith('plan dropped: preconditions of "chop_wood" no longer hold: near_tree')),
);
check(
  "it ate, rested and gathered wood, in that order",
  ['achieved {"is_hungry":false}', 'achieved {"is_tired":false}', 'achieved {"has_wood":true}']
    .map((line) => treeDay.events.indexOf(line))
    .every((at, i, all) => at >= 0 && (i === 0 || at > (all[i - 1] as number))),
);

// ---------------------------------------------------------------- Part 2
console.log("\nPart 2 — a wolf prowls from 2.0 s to 7.0 s\n");
const world = createVillageWorld();
const events: string[] = [];
const note = (line: string) => {
  events.push(line);
  console.log(`${world.time.toFixed(1).padStart(5)}s  x=${world.villager.toFixed(1).padStart(5)}  ${line}`);
};
const villager = buildVillagerTree(world, { onAgent: (agent) => followAgent(agent, note) });
const WOLF = { from: 2, to: 7 };
let chosen: string | null = null;
let fledUnderThreat = true;
let safeWhenWolfLeft = false;
let wolfSeen = false;
let wolfGone = false;
for (let frame = 0; frame < 300; frame++) {
  world.time += VILLAGE_TICK;
  const wolf = world.time >= WOLF.from - 1e-9 && world.time < WOLF.to - 1e-9;
  if (wolf && !wolfSeen) {
    wolfSeen = true;
    note("!! a wolf appears");
  }
  if (!wolf && wolfSeen && !wolfGone) {
    wolfGone = true;
    safeWhenWolfLeft = senseVillage(world).near_shelter === true;
    note("!! the wolf is gone");
  }
  villager.tree.update({ ...senseVillage(world), threat: wolf ? 1 : 0 });
  villager.tree.tick(VILLAGE_TICK);
  const selection = villager.root.lastSelection;
  if (wolf && selection?.chosen !== "flee") fledUnderThreat = false;
  if (selection && selection.chosen !== chosen) {
    chosen = selection.chosen;
    note(`utility: ${chosen}  [${selection.scores.map((s) => `${s.action.name} ${s.score.toFixed(2)}`).join(", ")}]`);
  }
}
const at = (line: string) => events.indexOf(line);
const fleeAt = events.findIndex((e) => e.startsWith("utility: flee"));
const firstChopDone = at("done  chop_wood");
console.log();
check(
  "the wolf made flee the best choice while the villager was chopping (it beat eat's momentum)",
  fleeAt > at("start chop_wood") && (firstChopDone < 0 || firstChopDone > fleeAt),
);
check("and the villager fled on every tick the wolf was near", fledUnderThreat);
check("it reached the shelter before the wolf left (the 5 s timeout was enough)", safeWhenWolfLeft);
const replanned = events.findIndex((e, i) => i > fleeAt && e.startsWith("plan: go_to_tree -> chop_wood"));
check("then the eat branch planned the meal afresh from the shelter", replanned > at("!! the wolf is gone"));
check(
  "and the villager still ate, rested and gathered wood",
  ['achieved {"is_hungry":false}', 'achieved {"is_tired":false}', 'achieved {"has_wood":true}'].every((line) => at(line) > replanned),
);

// ---------------------------------------------------------------- Part 3
console.log("\nPart 3 — STUP chooses, the tree executes\n");
const stupWorld = createVillageWorld();
const stup = new StupSelector({
  actions: createVillageActions(),
  planOptions: VILLAGE_PLAN_OPTIONS,
  seed: 3,
  goals: [
    // A hungry villager thinks of nothing else (rank 1); otherwise rest and wood compete by utility per cost.
    { name: "eat", goal: VILLAGE_GOALS.notHungry, score: (s) => (s.is_hungry ? 1 : 0), rank: 1 },
    { name: "rest", goal: VILLAGE_GOALS.rested, score: (s) => (s.is_tired ? 0.9 : 0) },
    { name: "wood", goal: VILLAGE_GOALS.gatherWood, score: 0.3 },
  ],
});
const chosenGoals: string[] = [];
const planner = new PlanNode({
  name: "stup",
  actions: createVillageActions(),
  selector: stup,
  planOptions: VILLAGE_PLAN_OPTIONS,
  leaves: {
    go_to_tree: walkLeaf(stupWorld, "tree"),
    chop_wood: new Timeout({ child: workLeaf("chop_wood"), limit: { seconds: 3 } }),
    go_to_campfire: walkLeaf(stupWorld, "campfire"),
    cook_food: workLeaf("cook_food"),
    eat_food: workLeaf("eat_food"),
    go_to_shelter: walkLeaf(stupWorld, "shelter"),
    sleep: workLeaf("sleep", (reason) => {
      if (reason === "completed") stupWorld.slept = true;
    }),
  },
  onAgent: (agent) =>
    agent.on("planFound", ({ plan }) => {
      const selection = planner.lastSelection;
      chosenGoals.push(selection?.name ?? "?");
      console.log(`${stupWorld.time.toFixed(1).padStart(5)}s  STUP chose "${selection?.name}": ${plan.actionNames.join(" -> ")}`);
      console.log(formatStupTable(selection?.table ?? []).replace(/^/gm, "         "));
    }),
});
const stupTree = new BehaviourTree({ name: "stup-villager", root: planner, blackboard: villageStartState() });
let idleAt = -1;
for (let frame = 0; frame < 300 && idleAt < 0; frame++) {
  stupWorld.time += VILLAGE_TICK;
  stupTree.update(senseVillage(stupWorld));
  if (stupTree.tick(VILLAGE_TICK) === "failure" && planner.lastFailure === "no goal was selected") idleAt = stupWorld.time;
}
console.log(`${stupWorld.time.toFixed(1).padStart(5)}s  nothing left to want: STUP selects no goal`);
check(
  "STUP chose eat first (the only rank-1 goal while hungry), then wood, then rest once tired at 8 s",
  chosenGoals.join() === "eat,wood,rest",
);
check(
  "the tree carried out each chosen plan until STUP had nothing left",
  idleAt > 0 && stupTree.blackboard.is_hungry === false && stupTree.blackboard.is_tired === false && stupTree.blackboard.has_wood === true,
);

if (checks.some(([, ok]) => !ok)) {
  console.error("\nThe villager's behaviour tree did not behave as expected.");
  process.exitCode = 1;
} else {
  console.log("\nAll checks passed.");
}
