/**
 * GOAP inside a Deep Agent: a `createDeepAgent` (npm deepagents) whose
 * orchestrating model delegates "sort out the villager's evening" to a GOAP
 * planner sub-agent (`createGoapSubagent`). The sub-agent turns the task
 * into a goal, plans the cheapest sequence and runs it in a GoapGraph.
 *
 * Offline: the deep agent's model is a scripted fake (it calls the `task`
 * tool, then summarises the answer) and the sub-agent interprets the task
 * with the keyword interpreter. With a real chat model, pass it as `model`
 * and as the sub-agent's `llm`.
 *
 * Run: npx tsx examples/deep-agent-bridge.ts
 */
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { createDeepAgent } from "deepagents";
import { createGoapSubagent } from "../src/integrations/index.js";
import { FakeStructuredChatModel } from "../src/testing/index.js";
import { createVillageActions, villageStartState } from "./lib/village.js";

function check(condition: boolean, message: string): void {
  if (!condition) {
    console.error(`FAILED: ${message}`);
    process.exit(1);
  }
  console.log(`ok - ${message}`);
}

const model = new FakeStructuredChatModel({
  responses: [
    new AIMessage({
      content: "",
      tool_calls: [
        { id: "call_1", name: "task", args: { description: "The villager is hungry: get them fed.", subagent_type: "goap_planner" } },
      ],
    }),
    (call: { messages: readonly BaseMessage[] }) => {
      const report = String(call.messages.find((m) => ToolMessage.isInstance(m))?.content ?? "");
      return new AIMessage(`Done. ${report.split("\n")[0]}.`);
    },
  ],
});

const planner = createGoapSubagent(createVillageActions(), {
  interpreter: "keyword",
  interpreterOptions: {
    facts: { is_hungry: { type: "boolean", description: "the villager needs to eat", synonyms: ["hungry", "fed", "eat"] } },
  },
  worldState: villageStartState(),
  description: "Plans and runs the villager's actions (chop wood, cook, eat, sleep) to reach a goal given in words.",
});

const agent = createDeepAgent({ model, subagents: [planner] });
const result = await agent.invoke({ messages: [{ role: "user", content: "Please take care of the villager's evening." }] });
const messages = result.messages as BaseMessage[];
const report = String(messages.find((m) => ToolMessage.isInstance(m))?.content ?? "");
console.log(report);
console.log(`agent: ${String(messages.at(-1)?.content)}`);
check(report.startsWith("GOAP Result: goal_achieved"), "the GOAP sub-agent reached the goal");
check(report.includes("eat_food"), "the villager ate (eat_food ran)");
check(String(messages.at(-1)?.content) === "Done. GOAP Result: goal_achieved.", "the deep agent summarised the sub-agent's answer");
