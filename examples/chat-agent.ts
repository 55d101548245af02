/**
 * Chat agent: a conversation with a villager that plans. Each message is
 * read as a goal, the goal is planned and run, and the agent replies with
 * what it did; the world carries over from turn to turn on one thread.
 *
 * createGoapChatAgent builds a LangGraph graph with the `messages` channel
 * (as createReactAgent does): invoke it with `{ messages }`, read the reply
 * from the last message (text, and the structured report in
 * `additional_kwargs.goap`). Sleeping needs a human's approval here: the
 * run pauses (`__interrupt__`) and resumes with `Command({ resume: true })`.
 *
 * Offline: a scripted chat model (FakeStructuredChatModel, which validates
 * each answer against the goal schema as a real client does) stands in for
 * the LLM. Swap in `new ChatOpenAI({ model: "gpt-4o-mini" })` for a real one.
 *
 * Run: npx tsx examples/chat-agent.ts
 */
import { type AIMessage, HumanMessage } from "@langchain/core/messages";
import { Command, INTERRUPT, MemorySaver } from "@langchain/langgraph";
import { ActionSpec, type FactCatalog } from "../src/core/index.js";
import { createGoapChatAgent, type GoapChatReport } from "../src/integrations/index.js";
import { FakeStructuredChatModel } from "../src/testing/index.js";
import { createVillageActions, villageStartState } from "./lib/village.js";

/** The village, where sleeping in the shelter needs the owner's yes. */
const actions = [
  ...createVillageActions().filter((a) => a.name !== "sleep"),
  new ActionSpec({
    name: "sleep",
    cost: 1,
    preconditions: { near_shelter: true },
    effects: { is_tired: false },
    requireHumanApproval: true,
    description: "Sleep in the shelter, once its owner agrees.",
  }),
];

const facts: FactCatalog = {
  is_hungry: { type: "boolean", description: "the villager needs to eat" },
  is_tired: { type: "boolean", description: "the villager needs rest" },
  has_wood: { type: "boolean", description: "the villager carries wood" },
  has_food: { type: "boolean", description: "the villager carries a cooked meal" },
  has_axe: { type: "boolean", description: "the villager owns an axe" },
  near_tree: { type: "boolean", description: "the villager stands by a tree" },
  near_campfire: { type: "boolean", description: "the villager stands by the campfire" },
  near_shelter: { type: "boolean", description: "the villager stands by the shelter" },
};

/** What a model would answer for each request (the third names a fact the village does not have, twice). */
const llm = new FakeStructuredChatModel({
  responses: [
    { conditions: { is_hungry: false }, reasoning: "hungry: the villager must eat" },
    { conditions: { is_hungry: false, is_tired: false }, reasoning: "tired too: rest, and stay fed" },
    { conditions: { is_thirsty: false }, reasoning: "thirsty: drink" },
    { conditions: { is_thirsty: false }, reasoning: "thirsty: drink" },
    { conditions: { has_axe: false }, reasoning: "give the axe away" },
  ],
});

const agent = createGoapChatAgent({
  llm,
  actions,
  facts,
  worldState: { ...villageStartState(), is_tired: true },
  checkpointer: new MemorySaver(),
  logger: { warn: (m) => console.warn(`  warning: ${m}`), error: (m) => console.error(`  error: ${m}`) },
});
const config = { configurable: { thread_id: "villager" } };

interface Expected {
  readonly say: string;
  readonly status: GoapChatReport["status"];
  readonly plan: readonly string[];
  readonly reply: RegExp;
  /** Answer to an approval the turn pauses at. */
  readonly approve?: boolean;
}

const turns: Expected[] = [
  {
    say: "I'm hungry",
    status: "goal_achieved",
    plan: ["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"],
    reply: /^Done: is_hungry = false\./,
  },
  // Planned from the world turn 1 left: fed already, so only rest is left (the shelter's owner is asked first).
  { say: "now I'm tired too", status: "goal_achieved", plan: ["go_to_shelter", "sleep"], reply: /^Done: /, approve: true },
  { say: "I'm thirsty", status: "not_understood", plan: [], reply: /^I cannot do that: I know nothing about is_thirsty\./ },
  { say: "give my axe away", status: "no_plan", plan: [], reply: /^I cannot do that: no plan reaches has_axe = false/ },
];

const problems: string[] = [];
for (const turn of turns) {
  console.log(`\nyou    ${turn.say}`);
  let result = await agent.invoke({ messages: [new HumanMessage(turn.say)] }, config);
  const interrupts = (result as Record<string, unknown>)[INTERRUPT] as { value: { action: string } }[] | undefined;
  if (interrupts?.length) {
    console.log(`agent  (asks a human: may I run "${interrupts[0]?.value.action}"?) -> ${turn.approve ? "yes" : "no"}`);
    if (turn.approve === undefined) problems.push(`"${turn.say}" paused for an approval it should not need`);
    result = await agent.invoke(new Command({ resume: turn.approve ?? false }), config);
  } else if (turn.approve !== undefined) {
    problems.push(`"${turn.say}" should have paused for an approval`);
  }
  const reply = result.messages.at(-1) as AIMessage;
  const report = reply.additional_kwargs.goap as GoapChatReport;
  console.log(reply.text.replace(/^/gm, "agent  "));
  if (report.status !== turn.status) problems.push(`"${turn.say}": status ${report.status}, expected ${turn.status}`);
  if (report.plan.join(",") !== turn.plan.join(",")) problems.push(`"${turn.say}": plan [${report.plan}], expected [${turn.plan}]`);
  if (!turn.reply.test(reply.text)) problems.push(`"${turn.say}": reply ${JSON.stringify(reply.text)} does not match ${turn.reply}`);
}

const { values } = await agent.getState(config);
console.log(`\nworld  ${JSON.stringify(values.worldState)}`);
if (values.worldState.is_hungry !== false || values.worldState.is_tired !== false) {
  problems.push("the villager should end fed and rested");
}
if (values.messages.length !== turns.length * 2) problems.push(`the thread should hold ${turns.length * 2} messages`);

if (problems.length > 0) {
  for (const problem of problems) console.error(`WRONG  ${problem}`);
  process.exitCode = 1;
} else {
  console.log("\nEvery turn planned on the world the previous one left, and each reply said what was done or why not.");
}
