/**
 * The GOAP planner as a Deep Agents sub-agent: a real `createDeepAgent`
 * (npm deepagents) whose scripted model delegates with the `task` tool;
 * the GOAP sub-agent plans and runs the village domain offline.
 */
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { createDeepAgent } from "deepagents";
import { describe, expect, it } from "vitest";
import { createVillageActions, villageStartState } from "../../examples/lib/village.js";
import { createGoapSubagent } from "../../src/integrations/index.js";
import { FakeStructuredChatModel } from "../../src/testing/index.js";

const facts = {
  is_hungry: { type: "boolean", description: "the villager needs to eat", synonyms: ["hungry", "eat"] },
  is_tired: { type: "boolean", description: "the villager needs rest", synonyms: ["tired", "rest"] },
} as const;

function delegate(task: string): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: [{ id: "call_goap_1", name: "task", args: { description: task, subagent_type: "goap_planner" } }],
  });
}

describe("createGoapSubagent", () => {
  it("is a Deep Agents sub-agent: the deep agent delegates with its task tool and gets the GOAP result", async () => {
    const model = new FakeStructuredChatModel({
      responses: [
        delegate("I'm hungry, please sort out dinner"),
        (call: { messages: readonly BaseMessage[] }) => {
          const answer = call.messages.find((m) => ToolMessage.isInstance(m));
          return new AIMessage(`The planner reports: ${String(answer?.content).split("\n")[0]}`);
        },
      ],
    });
    const goap = createGoapSubagent(createVillageActions(), {
      interpreter: "keyword",
      interpreterOptions: { facts },
      worldState: villageStartState(),
      description: "Plans and runs the villager's actions to reach a goal given in words.",
    });
    const agent = createDeepAgent({ model, subagents: [goap] });
    const result = await agent.invoke({ messages: [{ role: "user", content: "Make sure the villager eats tonight." }] });
    const messages = result.messages as BaseMessage[];
    const toolAnswer = messages.find((m) => ToolMessage.isInstance(m));
    expect(String(toolAnswer?.content)).toMatch(/^GOAP Result: goal_achieved/);
    expect(String(toolAnswer?.content)).toContain("eat_food");
    expect(messages.at(-1)?.content).toBe("The planner reports: GOAP Result: goal_achieved");
    // The deep agent's model was offered the task tool (whose description lists the GOAP planner) and called twice.
    expect(model.boundTools[0]).toContain("task");
    expect(model.callCount).toBe(2);
  });

  it("answers with the status and reason when the task cannot be done or understood", async () => {
    const goap = createGoapSubagent(createVillageActions(), {
      interpreter: "keyword",
      interpreterOptions: { facts },
      worldState: villageStartState(),
    });
    const understood = await goap.runnable.invoke({ messages: [{ role: "user", content: "rest" }] });
    const last = understood.messages.at(-1) as AIMessage;
    expect(last.additional_kwargs.goap).toMatchObject({ status: "goal_achieved" });
    const puzzled = await goap.runnable.invoke({ messages: [{ role: "user", content: "fly to the moon" }] });
    expect(String(puzzled.messages.at(-1)?.content)).toMatch(/^goap_planner: could not turn the task into a goal: /);
    expect(() => createGoapSubagent(createVillageActions(), { name: " " })).toThrow(/name must be a non-empty string/);
  });
});
