/**
 * The village NPC of the Godot utility-AI/GOAP guide (section 10) driven by
 * a tick-based GoapAgent (section 9) in a small simulated world: the
 * villager walks, chops, cooks and eats over game ticks, sensors report
 * what is near, and when the tree is carried away mid-chop the plan is
 * invalidated and the villager plans again. Goals follow the guide's
 * `_pick_next_goal`: hungry beats tired beats gathering wood.
 *
 * Run: npx tsx examples/village-agent.ts
 */
import type { ActionBehaviour, ActionTickContext } from "../src/utility/index.js";
import { GoapAgent } from "../src/utility/index.js";
import { createVillageActions, pickVillageGoal, villageStartState } from "./lib/village.js";

const TICK = 0.1; // seconds per frame
const SPEED = 4; // metres per second
const REACH = 1; // metres: "near"

// A one-dimensional village: positions in metres. The villager grows tired at 8 s.
const world = { villager: 2, tree: 8, campfire: 0, shelter: -6, time: 0, tiredAt: 8, slept: false };

/** Walks toward a place each tick; done once within reach. */
const walkTo =
  (place: "tree" | "campfire" | "shelter"): ActionBehaviour["execute"] =>
  (_ctx, delta) => {
    const gap = world[place] - world.villager;
    const step = Math.sign(gap) * Math.min(Math.abs(gap), SPEED * delta);
    world.villager += step;
    return Math.abs(world[place] - world.villager) < REACH;
  };

/** Works in place for `seconds`. */
const workFor =
  (seconds: number): ActionBehaviour["execute"] =>
  (ctx: ActionTickContext) =>
    ctx.elapsed >= seconds - 1e-9;

const near = (place: "tree" | "campfire" | "shelter") => Math.abs(world[place] - world.villager) < REACH;

const agent = new GoapAgent({
  name: "villager",
  actions: createVillageActions(),
  state: villageStartState(),
  replanInterval: 0.5,
  // The guide's _physics_process: update the world state from sensors.
  sensors: [
    { name: "proximity", sense: () => ({ near_tree: near("tree"), near_campfire: near("campfire"), near_shelter: near("shelter") }) },
    { name: "fatigue", sense: () => ({ is_tired: world.time >= world.tiredAt && !world.slept }) },
  ],
  behaviours: {
    go_to_tree: { execute: walkTo("tree") },
    chop_wood: { execute: workFor(1.5) },
    go_to_campfire: { execute: walkTo("campfire") },
    cook_food: { execute: workFor(2) },
    eat_food: { execute: workFor(1) },
    go_to_shelter: { execute: walkTo("shelter") },
    sleep: {
      execute: workFor(3),
      exit: (_ctx, reason) => {
        if (reason === "completed") world.slept = true;
      },
    },
  },
  // The guide's _pick_next_goal, whenever the villager has nothing to do.
  selector: ({ state, idle }) => (idle ? { goal: pickVillageGoal(state) } : undefined),
});

const timeline: string[] = [];
const at = () => `${world.time.toFixed(1).padStart(5)}s  x=${world.villager.toFixed(1).padStart(5)}`;
const note = (line: string) => {
  timeline.push(line);
  console.log(`${at()}  ${line}`);
};
agent.on("goalChanged", ({ goal }) => note(`goal: ${goal?.label}`));
agent.on("planFound", ({ plan }) => note(`plan: ${plan.actionNames.join(" -> ")} (cost ${plan.totalCost})`));
agent.on("planFailed", ({ reason }) => note(`no plan: ${reason}`));
agent.on("planInvalidated", ({ reason }) => note(`plan dropped: ${reason}`));
agent.on("actionStarted", ({ action }) => note(`start ${action.name}`));
agent.on("actionCompleted", ({ action }) => note(`done  ${action.name}`));
agent.on("actionFailed", ({ action, reason }) => note(`FAILED ${action.name}: ${reason}`));
agent.on("goalAchieved", ({ goal }) => note(`achieved ${goal.label}`));
agent.on("hookFailed", ({ hook, name, error }) => note(`hook ${hook} of ${name} threw: ${error}`));

// Half a second into the first chop, the tree is carried away: the proximity sensor will report near_tree = false.
let moveTreeAt = Number.POSITIVE_INFINITY;
agent.on("actionStarted", ({ action }) => {
  if (action.name === "chop_wood" && moveTreeAt === Number.POSITIVE_INFINITY) moveTreeAt = world.time + 0.5;
});

console.log("The guide's village NPC, driven by GoapAgent ticks\n");
for (let frame = 0; frame < 300; frame++) {
  if (world.time >= moveTreeAt - 1e-9) {
    world.tree = 14;
    moveTreeAt = Number.NaN;
    note("!! the tree is carried away to x=14");
  }
  world.time += TICK;
  agent.tick(TICK);
}

// Checks.
const HUNGRY_PLAN = "plan: go_to_tree -> chop_wood -> go_to_campfire -> cook_food -> eat_food (cost 8)";
const index = (line: string, from = 0) => timeline.indexOf(line, from);
const dropped = timeline.findIndex((l) => l.startsWith("plan dropped") && l.includes("chop_wood") && l.includes("near_tree"));
const checks: [string, boolean][] = [
  ["the first plan for 'not hungry' is go_to_tree -> chop_wood -> go_to_campfire -> cook_food -> eat_food", timeline[1] === HUNGRY_PLAN],
  ["moving the tree mid-chop drops the plan (chop_wood's near_tree broke)", dropped > index("!! the tree is carried away to x=14")],
  ["the villager replans the full meal from where it stands", dropped >= 0 && timeline[dropped + 1] === HUNGRY_PLAN],
  ["and eats", index('achieved {"is_hungry":false}') > dropped],
  ["then, tired, sleeps in the shelter", index("plan: go_to_shelter -> sleep (cost 2)") > index('achieved {"is_hungry":false}')],
  ["and rests", index('achieved {"is_tired":false}') > 0],
  ["then gathers wood", index('achieved {"has_wood":true}') > index('achieved {"is_tired":false}')],
];
console.log("\nChecks:");
for (const [label, ok] of checks) console.log(`${ok ? "ok  " : "FAIL"} ${label}`);
if (checks.some(([, ok]) => !ok)) {
  console.error("\nThe village agent did not behave as the guide describes.");
  process.exitCode = 1;
}
