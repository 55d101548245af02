/**
 * The village NPC from the Godot GOAP guide (section 10): a hungry villager
 * with an axe plans how to eat, then how to rest, printing every step with its
 * cost and how many search nodes the planner expanded.
 *
 *   npm run demo
 */
import { planDetailed } from "../src/planner/index.js";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "./lib/village.js";

const actions = createVillageActions();
const scenarios = [
  { title: "Hungry villager with an axe", state: villageStartState(), goal: VILLAGE_GOALS.notHungry },
  { title: "Hungry villager who already has wood", state: { ...villageStartState(), has_wood: true }, goal: VILLAGE_GOALS.notHungry },
  { title: "Tired villager", state: { ...villageStartState(), is_hungry: false, is_tired: true }, goal: VILLAGE_GOALS.rested },
];
const expected = [
  ["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"],
  ["go_to_campfire", "cook_food", "eat_food"],
  ["go_to_shelter", "sleep"],
];

let failures = 0;
for (const [i, { title, state, goal }] of scenarios.entries()) {
  const { plan, status, stats } = planDetailed(state, goal, actions);
  console.log(`\n${title} — goal ${JSON.stringify(goal)}`);
  if (!plan) {
    console.log(`  no plan (${status})`);
    failures++;
    continue;
  }
  let running = 0;
  plan.actions.forEach((action, step) => {
    const cost = action.getCost(step === 0 ? state : plan.expectedStates[step - 1]!);
    running += cost;
    console.log(`  ${step + 1}. ${action.name.padEnd(15)} cost ${cost}  (total ${running})  — ${action.description ?? ""}`);
  });
  console.log(
    `  plan cost ${plan.totalCost}; ${stats.nodesExpanded} nodes expanded, ${stats.nodesGenerated} generated, ${stats.planningTimeMs.toFixed(2)} ms`,
  );
  if (JSON.stringify(plan.actionNames) !== JSON.stringify(expected[i])) {
    console.error(`  ✗ expected ${expected[i]!.join(" → ")}`);
    failures++;
  } else {
    console.log("  ✓ matches the guide");
  }
}
if (failures > 0) {
  console.error(`\n${failures} scenario(s) did not plan as the guide says`);
  process.exitCode = 1;
}
