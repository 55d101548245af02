import { ToolMessage } from "@langchain/core/messages";
import { ToolInputParsingException } from "@langchain/core/tools";
import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { createGoapTool, DEFAULT_GOAP_TOOL_DESCRIPTION, GOAP_TOOL_SCHEMA } from "../../src/integrations/index.js";
import { FakeStructuredChatModel } from "../../src/testing/index.js";
import { quietLogger } from "../graph/support.js";

/** A tiny kitchen: cooking needs firewood, which needs the axe. */
function kitchen() {
  const executed: string[] = [];
  const act = (name: string, spec: Omit<ConstructorParameters<typeof ActionSpec>[0], "name" | "execute">) =>
    new ActionSpec({
      ...spec,
      name,
      execute: () => {
        executed.push(name);
      },
    });
  const actions = [
    act("chop_wood", { preconditions: { has_axe: true }, effects: { has_wood: true }, cost: 2, description: "Chop firewood." }),
    act("cook", { preconditions: { has_wood: true }, effects: { has_meal: true }, cost: 1, description: "Cook a meal over the fire." }),
    act("eat", {
      preconditions: { has_meal: true },
      effects: { is_hungry: false, has_meal: false },
      cost: 1,
      description: "Eat the meal.",
    }),
  ];
  return { actions, executed };
}

const start = { has_axe: true, has_wood: false, has_meal: false, is_hungry: true };

const EXPECTED_ANSWER = [
  "GOAP Result: goal_achieved",
  "",
  "Executed actions:",
  "  - chop_wood",
  "  - cook",
  "  - eat",
  "",
  "Final world state:",
  "  has_axe: true",
  "  has_meal: false",
  "  has_wood: true",
  "  is_hungry: false",
].join("\n");

describe("createGoapTool", () => {
  it("is a LangChain tool that interprets the request, runs the plan and answers with the formatted result", async () => {
    const { actions, executed } = kitchen();
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_hungry: false }, reasoning: "eat" }] });
    const planner = createGoapTool(actions, { llm, worldState: start, graphOptions: { logger: quietLogger() } });

    expect(planner.name).toBe("goap_planner");
    expect(planner.description).toBe(DEFAULT_GOAP_TOOL_DESCRIPTION);
    expect(planner.schema).toBe(GOAP_TOOL_SCHEMA);
    expect(await planner.invoke({ request: "I'm starving" })).toBe(EXPECTED_ANSWER);
    expect(executed).toEqual(["chop_wood", "cook", "eat"]);
    expect(llm.callCount).toBe(1);
    expect(llm.calls[0]?.messages.at(-1)?.content).toBe("I'm starving");
  });

  it("answers a model's tool call with a ToolMessage", async () => {
    const { actions } = kitchen();
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_hungry: false } }] });
    const planner = createGoapTool(actions, { llm, name: "kitchen_planner", worldState: start, graphOptions: { logger: quietLogger() } });
    const message = await planner.invoke({ type: "tool_call", id: "call_1", name: "kitchen_planner", args: { request: "feed me" } });
    expect(message).toBeInstanceOf(ToolMessage);
    expect((message as ToolMessage).tool_call_id).toBe("call_1");
    expect((message as ToolMessage).content).toBe(EXPECTED_ANSWER);
  });

  it("runs nested inside a node of a checkpointed parent graph, call after call on one thread", async () => {
    const { actions, executed } = kitchen();
    const planner = createGoapTool(actions, { interpreter: "keyword", worldState: start, graphOptions: { logger: quietLogger() } });
    const Chat = Annotation.Root({ question: Annotation<string>(), answer: Annotation<string>() });
    const app = new StateGraph(Chat)
      .addNode("delegate", async (state: typeof Chat.State, config) => ({
        answer: await planner.invoke({ request: state.question }, config),
      }))
      .addEdge(START, "delegate")
      .addEdge("delegate", END)
      .compile({ checkpointer: new MemorySaver() });
    const thread = { configurable: { thread_id: "chat-1" } };
    expect((await app.invoke({ question: "I am hungry" }, thread)).answer).toBe(EXPECTED_ANSWER);
    expect((await app.invoke({ question: "hungry again" }, thread)).answer).toBe(EXPECTED_ANSWER);
    expect(executed).toEqual(["chop_wood", "cook", "eat", "chop_wood", "cook", "eat"]);
  });

  it("starts every call from a fresh copy of the configured world state", async () => {
    const { actions, executed } = kitchen();
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_hungry: false } }] });
    const worldState = { ...start };
    const planner = createGoapTool(actions, { llm, worldState, graphOptions: { logger: quietLogger() } });
    expect(await planner.invoke({ request: "hungry" })).toBe(EXPECTED_ANSWER);
    expect(await planner.invoke({ request: "hungry again" })).toBe(EXPECTED_ANSWER);
    expect(executed).toEqual(["chop_wood", "cook", "eat", "chop_wood", "cook", "eat"]);
    expect(worldState).toEqual(start);
  });

  it("works offline with the keyword interpreter", async () => {
    const { actions } = kitchen();
    const planner = createGoapTool(actions, { interpreter: "keyword", worldState: start, graphOptions: { logger: quietLogger() } });
    expect(await planner.invoke({ request: "I am hungry" })).toBe(EXPECTED_ANSWER);
  });

  it("answers with the explanation when the goal cannot be reached", async () => {
    const { actions } = kitchen();
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_hungry: false } }] });
    const planner = createGoapTool(actions, { llm, worldState: { ...start, has_axe: false }, graphOptions: { logger: quietLogger() } });
    const answer = await planner.invoke({ request: "hungry" });
    expect(answer).toMatch(/^GOAP Result: no_plan\n\nExecuted actions:\n {2}\(none\)\n\nWhy no plan was found:\n/);
    expect(answer).toContain("missing preconditions: has_axe = true");
  });

  it("rejects an empty request through its schema, before any model call", async () => {
    const { actions } = kitchen();
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_hungry: false } }] });
    const planner = createGoapTool(actions, { llm });
    await expect(planner.invoke({ request: "" })).rejects.toBeInstanceOf(ToolInputParsingException);
    expect(llm.callCount).toBe(0);
  });

  it("needs a model or the keyword interpreter, and checks its options at creation", () => {
    const { actions } = kitchen();
    const missing = () => createGoapTool(actions, {});
    expect(missing).toThrowError(LangGoapError);
    expect(missing).toThrowError(/createGoapTool\("goap_planner"\): goals written as sentences need options\.llm/);
    expect(() => createGoapTool(actions, { interpreter: "keyword", name: " " })).toThrowError(
      'createGoapTool: name must be a non-empty string, got " "',
    );
    expect(() => createGoapTool(actions, { interpreter: "keyword", worldState: [] as never })).toThrowError(
      /worldState must be an object of facts/,
    );
  });
});
