/**
 * Hungry agent: goals in plain language over the village NPC domain, and a
 * cost-driven choice between cooking and buying a meal.
 *
 * Requests such as "I'm tired and hungry" become goals ({ is_tired: false,
 * is_hungry: false }), which a GoapGraph plans and runs. Offline by default:
 * the deterministic KeywordGoalInterpreter maps words to facts through the
 * facts' descriptions and synonyms. With OPENAI_API_KEY (or ANTHROPIC_API_KEY,
 * or OLLAMA_BASE_URL) set, a real chat model interprets the requests instead,
 * through the GoalInterpreter (what GoapGraph.invokeNl uses), which checks
 * the model's answer against the facts and asks again once if it is wrong.
 *
 * Run: npx tsx examples/hungry-agent.ts
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ActionSpec, type FactCatalog, type WorldState } from "../src/core/index.js";
import { GoapGraph, type GoapLogger, type GoapRunResult, successfulActionNames } from "../src/graph/index.js";
import { GoalInterpreter, KeywordGoalInterpreter } from "../src/nl/index.js";
import { createVillageActions, villageStartState } from "./lib/village.js";

/** The village, plus a market where a coin buys a meal: cheaper than cooking, if the villager has a coin. */
const actions: ActionSpec[] = [
  ...createVillageActions(),
  new ActionSpec({ name: "go_to_market", cost: 2, effects: { near_market: true }, description: "Walk to the market." }),
  new ActionSpec({
    name: "buy_meal",
    cost: 1,
    preconditions: { near_market: true, has_coin: true },
    effects: { has_food: true, has_coin: false },
    description: "Pay a coin for a hot meal at the market.",
  }),
];

/** What each fact means and the words people use for it (the keyword interpreter's vocabulary). */
const facts: FactCatalog = {
  is_hungry: { type: "boolean", description: "the villager needs to eat", synonyms: ["hunger", "starving", "famished", "eat"] },
  is_tired: { type: "boolean", description: "the villager needs rest", synonyms: ["exhausted", "sleepy", "rest", "nap"] },
  has_wood: { type: "boolean", description: "the villager carries wood", synonyms: ["logs", "firewood", "timber"] },
  has_food: { type: "boolean", description: "the villager carries a cooked meal", synonyms: ["meal", "dinner"] },
  has_coin: { type: "boolean", description: "the villager has a coin to spend" },
  has_axe: { type: "boolean", description: "the villager owns an axe" },
  near_tree: { type: "boolean", description: "the villager stands by a tree", synonyms: ["forest"] },
  near_campfire: { type: "boolean", description: "the villager stands by the campfire", synonyms: ["fire"] },
  near_shelter: { type: "boolean", description: "the villager stands by the shelter", synonyms: ["home"] },
  near_market: { type: "boolean", description: "the villager stands at the market", synonyms: ["shop"] },
};

interface Scenario {
  readonly request: string;
  readonly state: WorldState;
  /** Conditions the goal must contain. */
  readonly expectGoal: Readonly<Record<string, unknown>>;
  /** The actions of the cheapest plan (in any valid order) and its cost. */
  readonly expectActions: readonly string[];
  readonly expectCost: number;
}

const start = { ...villageStartState(), near_market: false, has_coin: false };
const scenarios: Scenario[] = [
  {
    request: "I'm hungry",
    state: start,
    expectGoal: { is_hungry: false },
    expectActions: ["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"],
    expectCost: 8,
  },
  {
    request: "I'm hungry",
    state: { ...start, has_coin: true },
    expectGoal: { is_hungry: false },
    expectActions: ["go_to_market", "buy_meal", "eat_food"],
    expectCost: 4,
  },
  {
    request: "I'm tired and hungry",
    state: { ...start, is_tired: true, has_coin: true },
    expectGoal: { is_hungry: false, is_tired: false },
    expectActions: ["go_to_market", "buy_meal", "eat_food", "go_to_shelter", "sleep"],
    expectCost: 6,
  },
  {
    request: "Fetch some firewood",
    state: { ...start, is_hungry: false },
    expectGoal: { has_wood: true },
    expectActions: ["go_to_tree", "chop_wood"],
    expectCost: 3,
  },
];

/** A real chat model when one is configured (never in CI, which sets no keys). */
async function configuredModel(): Promise<{ llm: BaseChatModel; label: string } | undefined> {
  if (process.env.OPENAI_API_KEY) {
    const { ChatOpenAI } = await import("@langchain/openai");
    const model = process.env.OPENAI_MODEL ?? "gpt-4o-mini";
    return { llm: new ChatOpenAI({ model, temperature: 0 }), label: `OpenAI ${model} (GoalInterpreter, function calling)` };
  }
  if (process.env.ANTHROPIC_API_KEY) {
    const { ChatAnthropic } = await import("@langchain/anthropic");
    const model = process.env.ANTHROPIC_MODEL ?? "claude-sonnet-4-5";
    return { llm: new ChatAnthropic({ model, temperature: 0 }), label: `Anthropic ${model} (GoalInterpreter, tool use)` };
  }
  if (process.env.OLLAMA_BASE_URL) {
    const { ChatOllama } = await import("@langchain/ollama");
    const model = process.env.OLLAMA_MODEL ?? "llama3.2";
    return {
      llm: new ChatOllama({ model, baseUrl: process.env.OLLAMA_BASE_URL, temperature: 0 }),
      label: `Ollama ${model} (GoalInterpreter)`,
    };
  }
  return undefined;
}

const quiet: GoapLogger = {
  debug() {},
  info() {},
  warn: (m) => console.warn(`  warning: ${m}`),
  error: (m) => console.error(`  error: ${m}`),
};
const graph = new GoapGraph(actions, { logger: quiet });
const keywords = new KeywordGoalInterpreter(actions, { facts });
const model = await configuredModel();

console.log("Hungry agent: plain-language goals for a villager");
console.log(
  model
    ? `Interpreter: ${model.label}.`
    : "Interpreter: offline KeywordGoalInterpreter (deterministic; no model is called). Set OPENAI_API_KEY, ANTHROPIC_API_KEY or OLLAMA_BASE_URL to use a chat model.",
);

let failures = 0;
for (const scenario of scenarios) {
  const coin = scenario.state.has_coin ? "with a coin" : "without a coin";
  console.log(`\n"${scenario.request}" (${coin}${scenario.state.is_tired ? ", tired" : ""})`);
  let result: GoapRunResult;
  let goal: Readonly<Record<string, unknown>>;
  if (model) {
    const interpretation = await new GoalInterpreter(model.llm, actions, { facts }).interpretDetailed(scenario.request, scenario.state);
    if (interpretation.interpreted.reasoning) console.log(`  model    ${interpretation.interpreted.reasoning}`);
    goal = interpretation.goal.conditions;
    result = await graph.invoke(interpretation.goal, scenario.state);
  } else {
    const interpretation = keywords.interpretSync(scenario.request, scenario.state);
    for (const line of interpretation.reasoning.split("\n")) console.log(`  matched  ${line}`);
    goal = interpretation.goal.conditions;
    result = await graph.invoke(interpretation.goal, scenario.state);
  }
  const ran = successfulActionNames(result);
  const cost = ran.reduce((sum, name) => sum + (actions.find((a) => a.name === name)?.getCost() ?? 0), 0);
  console.log(`  goal     ${JSON.stringify(goal)}`);
  console.log(`  plan     ${ran.join(" -> ") || "(nothing to do)"}  (cost ${cost})`);
  console.log(`  status   ${result.status}`);

  const problems: string[] = [];
  for (const [key, value] of Object.entries(scenario.expectGoal)) {
    if (goal[key] !== value) problems.push(`goal should require ${key} = ${JSON.stringify(value)}`);
  }
  if (result.status !== "goal_achieved") problems.push(`status should be goal_achieved, got ${result.status}`);
  if ([...ran].sort().join(",") !== [...scenario.expectActions].sort().join(",") || cost !== scenario.expectCost) {
    problems.push(`plan should run ${scenario.expectActions.join(", ")} for cost ${scenario.expectCost}`);
  }
  for (const problem of problems) console.error(`  WRONG    ${problem}`);
  failures += problems.length;
}

if (failures > 0) {
  console.error(`\n${failures} check(s) failed.`);
  process.exitCode = 1;
} else {
  console.log("\nAll requests became the expected goals, and each ran along its cheapest plan.");
}
