/**
 * The village NPC of the Godot utility-AI/GOAP guide (section 10) driven by
 * a tick-based GoapAgent (section 9) in a small simulated world: the
 * villager walks, chops, cooks and eats over game ticks, sensors report
 * what is near, and when the tree is carried away mid-chop the plan is
 * invalidated and the villager plans again. Goals follow the guide's
 * `_pick_next_goal`: hungry beats tired beats gathering wood.
 *
 * The world and its script live in examples/lib/village-day.ts, shared with
 * examples/village-tree.ts, which lives the same day with a behaviour tree.
 *
 * Run: npx tsx examples/village-agent.ts
 */
import { runVillageAgentDay } from "./lib/village-day.js";

console.log("The guide's village NPC, driven by GoapAgent ticks\n");
const { events: lines } = runVillageAgentDay(true);

// Checks.
const HUNGRY_PLAN = "plan: go_to_tree -> chop_wood -> go_to_campfire -> cook_food -> eat_food (cost 8)";
const index = (line: string, from = 0) => lines.indexOf(line, from);
const dropped = lines.findIndex((l) => l.startsWith("plan dropped") && l.includes("chop_wood") && l.includes("near_tree"));
const checks: [string, boolean][] = [
  ["the first plan for 'not hungry' is go_to_tree -> chop_wood -> go_to_campfire -> cook_food -> eat_food", lines[1] === HUNGRY_PLAN],
  ["moving the tree mid-chop drops the plan (chop_wood's near_tree broke)", dropped > index("!! the tree is carried away to x=14")],
  ["the villager replans the full meal from where it stands", dropped >= 0 && lines[dropped + 1] === HUNGRY_PLAN],
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
