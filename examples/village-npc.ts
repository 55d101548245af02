/**
 * The village NPC from the Godot GOAP guide (section 10).
 *
 * Part 1 plans the guide's three situations and prints every step with its
 * cost and how many search nodes the planner expanded.
 *
 * Part 2 lives a day: requests in plain words become goals (offline keyword
 * interpreter, or a chat model when OPENAI_API_KEY / ANTHROPIC_API_KEY is
 * set), and each goal runs in a real LangGraph graph (GoapGraph) that
 * executes the actions, notices that the axe slips on the first swing, and
 * replans around it.
 *
 *   npm run demo
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { FactCatalog, PlanningTracer, WorldState } from "../src/core/index.js";
import { GoapGraph, type GoapRunResult, successfulActionNames } from "../src/graph/index.js";
import { GoalInterpreter, KeywordGoalInterpreter } from "../src/nl/index.js";
import { type Plan, planDetailed } from "../src/planner/index.js";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "./lib/village.js";

let failures = 0;
const check = (ok: boolean, what: string) => {
  console.log(`  ${ok ? "✓" : "✗"} ${what}`);
  if (!ok) failures++;
};

// ---------------------------------------------------------------- Part 1
console.log("Part 1 — planning the guide's situations\n");
const actions = createVillageActions();
const scenarios = [
  {
    title: "Hungry villager with an axe",
    state: villageStartState(),
    goal: VILLAGE_GOALS.notHungry,
    expected: ["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"],
  },
  {
    title: "Hungry villager who already has wood",
    state: { ...villageStartState(), has_wood: true },
    goal: VILLAGE_GOALS.notHungry,
    expected: ["go_to_campfire", "cook_food", "eat_food"],
  },
  {
    title: "Tired villager",
    state: { ...villageStartState(), is_hungry: false, is_tired: true },
    goal: VILLAGE_GOALS.rested,
    expected: ["go_to_shelter", "sleep"],
  },
];

for (const { title, state, goal, expected } of scenarios) {
  const { plan, status, stats } = planDetailed(state, goal, actions);
  console.log(`${title} — goal ${JSON.stringify(goal)}`);
  if (!plan) {
    check(false, `no plan (${status})`);
    continue;
  }
  printPlan(plan, state);
  console.log(
    `  plan cost ${plan.totalCost}; ${stats.nodesExpanded} nodes expanded, ${stats.nodesGenerated} generated, ${stats.planningTimeMs.toFixed(2)} ms`,
  );
  check(plan.actionNames.join() === expected.join(), `matches the guide: ${expected.join(" → ")}`);
  console.log();
}

function printPlan(plan: Plan, start: WorldState): void {
  let total = 0;
  plan.actions.forEach((action, step) => {
    const cost = action.getCost(step === 0 ? start : plan.expectedStates[step - 1]!);
    total += cost;
    console.log(`  ${step + 1}. ${action.name.padEnd(15)} cost ${cost}  (total ${total})  — ${action.description ?? ""}`);
  });
}

// ---------------------------------------------------------------- Part 2
console.log("Part 2 — a day in the village, run in a LangGraph graph\n");

const facts: FactCatalog = {
  is_hungry: { type: "boolean", description: "the villager needs to eat", synonyms: ["hunger", "starving", "famished", "eat"] },
  is_tired: { type: "boolean", description: "the villager needs rest", synonyms: ["exhausted", "sleepy", "rest", "sleep"] },
  has_wood: { type: "boolean", description: "the villager carries wood", synonyms: ["logs", "firewood", "timber"] },
  has_food: { type: "boolean", description: "the villager carries a cooked meal", synonyms: ["meal", "dinner"] },
  has_axe: { type: "boolean", description: "the villager owns an axe" },
  near_tree: { type: "boolean", description: "the villager stands by a tree", synonyms: ["forest"] },
  near_campfire: { type: "boolean", description: "the villager stands by the campfire", synonyms: ["fire"] },
  near_shelter: { type: "boolean", description: "the villager stands by the shelter", synonyms: ["home"] },
};

// Real work for each action: the first swing of the axe slips (an error the
// graph records), so the run replans; chop_wood tolerates one failure.
let swings = 0;
const liveActions = createVillageActions().map((action) => {
  if (action.name !== "chop_wood") return action;
  return action.with({
    maxRetries: 1,
    execute: () => {
      swings++;
      if (swings === 1) throw new Error("the axe slipped");
    },
  });
});

const narrator: PlanningTracer = {
  onPlanComplete: (plan) => console.log(`  plan     ${(plan as Plan).actionNames.join(" → ")}  (cost ${(plan as Plan).totalCost})`),
  onReplan: (reason) => console.log(`  replan   because ${reason}`),
  onActionComplete: (result) => {
    const r = result as { actionName: string; success: boolean; error?: string | null };
    console.log(`  ${r.success ? "did     " : "failed  "} ${r.actionName}${r.error ? ` (${r.error})` : ""}`);
  },
};
const graph = new GoapGraph(liveActions, { tracer: narrator, seed: 7, logger: { debug() {}, info() {}, warn() {}, error: console.error } });

async function configuredModel(): Promise<{ llm: BaseChatModel; label: string } | undefined> {
  if (process.env.OPENAI_API_KEY) {
    const { ChatOpenAI } = await import("@langchain/openai");
    return { llm: new ChatOpenAI({ model: process.env.OPENAI_MODEL ?? "gpt-4o-mini", temperature: 0 }), label: "an OpenAI chat model" };
  }
  if (process.env.ANTHROPIC_API_KEY) {
    const { ChatAnthropic } = await import("@langchain/anthropic");
    return {
      llm: new ChatAnthropic({ model: process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-5", temperature: 0 }),
      label: "an Anthropic chat model",
    };
  }
  return undefined;
}
const model = await configuredModel();
const keywords = new KeywordGoalInterpreter(liveActions, { facts });
console.log(
  model
    ? `Goals are interpreted by ${model.label} (GoalInterpreter).\n`
    : "No chat model is configured, so goals are interpreted offline by the KeywordGoalInterpreter (set OPENAI_API_KEY or ANTHROPIC_API_KEY to use a model).\n",
);

let world: WorldState = { ...villageStartState(), is_tired: true };
const day = [
  { request: "I'm starving", expectGoal: { is_hungry: false } },
  { request: "Time to sleep, I'm exhausted", expectGoal: { is_tired: false } },
  { request: "Fetch some firewood for tomorrow", expectGoal: { has_wood: true } },
];
for (const { request, expectGoal } of day) {
  console.log(`"${request}"`);
  const goal = model
    ? await new GoalInterpreter(model.llm, liveActions, { facts }).interpret(request, world)
    : keywords.interpretSync(request, world).goal;
  console.log(`  goal     ${JSON.stringify(goal.conditions)}`);
  const result: GoapRunResult = await graph.invoke(goal, world);
  world = result.worldState;
  console.log(`  status   ${result.status} after ${result.replanCount} replan(s); did ${successfulActionNames(result).join(", ")}`);
  check(JSON.stringify(goal.conditions) === JSON.stringify(expectGoal), `understood as ${JSON.stringify(expectGoal)}`);
  check(result.status === "goal_achieved" && goal.isSatisfied(world), "goal achieved in the world state");
  console.log();
}
check(swings === 3, "the axe slipped once; the villager replanned, chopped again, and chopped once more for firewood");

if (failures > 0) {
  console.error(`\n${failures} check(s) failed`);
  process.exitCode = 1;
} else {
  console.log("\nAll checks passed.");
}
