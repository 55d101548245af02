import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { Command, INTERRUPT, MemorySaver } from "@langchain/langgraph";
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { createGoapChatAgent, type GoapChatReport } from "../../src/integrations/index.js";
import { FakeStructuredChatModel } from "../../src/testing/index.js";
import { quietLogger } from "../graph/support.js";
import { type ProviderStub, startOpenAiStub } from "../support/provider-stubs.js";
import { HUNGRY_PLAN, villageActions, villageFacts, villageStart } from "../support/village.js";
import { researchModel, researchTools } from "./support.js";

/** The villager is hungry and tired; each turn asks for one thing. */
const tiredVillager = { ...villageStart, is_tired: true };

function lastReply(messages: readonly BaseMessage[]): { text: string; report: GoapChatReport } {
  const last = messages.at(-1);
  expect(last).toBeInstanceOf(AIMessage);
  return { text: (last as AIMessage).text, report: (last as AIMessage).additional_kwargs.goap as GoapChatReport };
}

const thread = (id: string) => ({ configurable: { thread_id: id } });

describe("createGoapChatAgent: one thread, several turns", () => {
  it("reads each human message as a goal and plans the second turn on the world the first left", async () => {
    const llm = new FakeStructuredChatModel({
      responses: [
        { conditions: { is_hungry: false }, reasoning: "hungry means eat" },
        { conditions: { is_hungry: false, is_tired: false }, reasoning: "tired too: rest and stay fed" },
      ],
    });
    const agent = createGoapChatAgent({
      llm,
      actions: villageActions,
      facts: villageFacts,
      worldState: tiredVillager,
      checkpointer: new MemorySaver(),
      logger: quietLogger(),
    });
    const config = thread("villager-1");

    const first = await agent.invoke({ messages: [new HumanMessage("I'm hungry")] }, config);
    const one = lastReply(first.messages);
    expect(one.report).toMatchObject({
      request: "I'm hungry",
      status: "goal_achieved",
      achieved: true,
      goal: { is_hungry: false },
      reasoning: "hungry means eat",
      plan: HUNGRY_PLAN,
      planCost: 8,
      replanCount: 0,
      reason: null,
      changed: { is_hungry: false, near_campfire: true, near_tree: true },
    });
    expect(one.report.executed.map((s) => s.action)).toEqual(HUNGRY_PLAN);
    expect(one.text).toBe(
      [
        "Done: is_hungry = false.",
        "Plan: go_to_tree -> chop_wood -> go_to_campfire -> cook_food -> eat_food (cost 8).",
        "Ran: go_to_tree, chop_wood, go_to_campfire, cook_food, eat_food.",
        "Now: is_hungry = false, near_campfire = true, near_tree = true.",
      ].join("\n"),
    );
    expect(first.worldState).toEqual({ ...tiredVillager, is_hungry: false, near_tree: true, near_campfire: true });

    const second = await agent.invoke({ messages: [new HumanMessage("now I'm tired too")] }, config);
    expect(second.messages.map((m) => m.getType())).toEqual(["human", "ai", "human", "ai"]);
    const two = lastReply(second.messages);
    // From the world turn 1 left, only resting is left to do (from the start world it would be 7 actions, cost 10).
    expect(two.report).toMatchObject({ status: "goal_achieved", plan: ["go_to_shelter", "sleep"], planCost: 2 });
    expect(second.worldState).toMatchObject({ is_hungry: false, is_tired: false, near_shelter: true, near_tree: true });
    // The interpreter saw the carried-over world in its prompt, and was asked once per turn.
    expect(llm.callCount).toBe(2);
    expect(String(llm.calls[1]?.messages[0]?.content)).toContain(`"is_hungry":false`);
    expect(llm.calls[1]?.messages.at(-1)?.content).toBe("now I'm tired too");
  });

  it("without a checkpointer carries the world in the state the caller passes back", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_hungry: false } }, { conditions: { is_tired: false } }] });
    const agent = createGoapChatAgent({ llm, actions: villageActions, worldState: tiredVillager, logger: quietLogger() });
    const first = await agent.invoke({ messages: [new HumanMessage("I'm hungry")] });
    const second = await agent.invoke({ ...first, messages: [...first.messages, new HumanMessage("now rest")] });
    expect(lastReply(second.messages).report.plan).toEqual(["go_to_shelter", "sleep"]);
    expect(second.worldState.is_hungry).toBe(false);
  });

  it("a worldState in the input replaces the thread's", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_hungry: false } }] });
    const agent = createGoapChatAgent({ llm, actions: villageActions, checkpointer: new MemorySaver(), logger: quietLogger() });
    const result = await agent.invoke(
      { messages: [new HumanMessage("I'm hungry")], worldState: { ...villageStart, has_food: true } },
      thread("given-world"),
    );
    expect(lastReply(result.messages).report.plan).toEqual(["eat_food"]);
  });
});

describe("createGoapChatAgent streaming", () => {
  it('streams the reply in streamMode "messages", and not the interpreter\'s structured answer', async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_hungry: false }, reasoning: "eat" }] });
    const agent = createGoapChatAgent({ llm, actions: villageActions, worldState: villageStart, logger: quietLogger() });
    const chunks: [BaseMessage, Record<string, unknown>][] = [];
    for await (const chunk of await agent.stream({ messages: [new HumanMessage("I'm hungry")] }, { streamMode: "messages" })) {
      chunks.push(chunk as [BaseMessage, Record<string, unknown>]);
    }
    expect(llm.callCount).toBe(1);
    expect(chunks.map(([m, meta]) => [m.getType(), meta.langgraph_node])).toEqual([["ai", "act"]]);
    expect(chunks[0]?.[0].text).toMatch(/^Done: is_hungry = false\./);
  });
});

describe("createGoapChatAgent answers what it cannot do", () => {
  it('answers "I cannot do that" naming the unknown fact, and runs nothing', async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_thirsty: false } }] });
    const agent = createGoapChatAgent({
      llm,
      actions: villageActions,
      facts: villageFacts,
      worldState: villageStart,
      logger: quietLogger(),
    });
    const result = await agent.invoke({ messages: [new HumanMessage("I'm thirsty")] });
    const { text, report } = lastReply(result.messages);
    expect(text).toBe(
      "I cannot do that: I know nothing about is_thirsty. I can work with: is_hungry, is_tired, has_wood, has_food, has_axe, near_tree, near_campfire, near_shelter.",
    );
    expect(report).toMatchObject({ status: "not_understood", achieved: false, goal: null, unknownFacts: ["is_thirsty"], executed: [] });
    // One corrective retry, then the answer.
    expect(llm.callCount).toBe(2);
    expect(result.worldState).toEqual(villageStart);
  });

  it("explains a goal no plan reaches", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { has_axe: false } }] });
    const agent = createGoapChatAgent({
      llm,
      actions: villageActions,
      facts: villageFacts,
      worldState: villageStart,
      logger: quietLogger(),
    });
    const result = await agent.invoke({ messages: [new HumanMessage("get rid of the axe")] });
    const { text, report } = lastReply(result.messages);
    expect(report).toMatchObject({ status: "no_plan", achieved: false, goal: { has_axe: false }, plan: [], executed: [] });
    expect(report.reason).toBe("no action makes has_axe = false");
    expect(text).toBe("I cannot do that: no plan reaches has_axe = false from here (no action makes has_axe = false).");
    expect(result.worldState).toEqual(villageStart);
  });

  it("lets a failed model call fail the turn instead of calling the request not understood", async () => {
    const llm = new FakeStructuredChatModel({ responses: [new Error("503 upstream unavailable")] });
    const agent = createGoapChatAgent({ llm, actions: villageActions, logger: quietLogger() });
    await expect(agent.invoke({ messages: [new HumanMessage("I'm hungry")] })).rejects.toThrow(/503 upstream unavailable/);
  });

  it("refuses construction without a model or actions", () => {
    expect(() => createGoapChatAgent({ actions: villageActions })).toThrow(LangGoapError);
    expect(() => createGoapChatAgent({ llm: new FakeStructuredChatModel({ responses: [{}] }) })).toThrow(
      "createGoapChatAgent: give options.actions or options.tools (at least one action to plan with)",
    );
  });
});

describe("createGoapChatAgent approvals", () => {
  function approvalDomain() {
    const ran: string[] = [];
    const actions = [
      new ActionSpec({ name: "research", effects: { researched: true }, execute: () => void ran.push("research") }),
      new ActionSpec({
        name: "publish",
        preconditions: { researched: true },
        effects: { published: true },
        execute: () => void ran.push("publish"),
      }),
      new ActionSpec({
        name: "send_newsletter",
        preconditions: { published: true },
        effects: { newsletter_sent: true },
        requireHumanApproval: true,
        execute: () => void ran.push("send_newsletter"),
      }),
    ];
    return { ran, actions };
  }

  for (const withSignal of [false, true]) {
    it(`surfaces the approval interrupt to the caller and resumes with Command({ resume })${withSignal ? " (run with a signal)" : ""}`, async () => {
      const { ran, actions } = approvalDomain();
      const llm = new FakeStructuredChatModel({ responses: [{ conditions: { newsletter_sent: true } }] });
      const agent = createGoapChatAgent({ llm, actions, checkpointer: new MemorySaver(), logger: quietLogger() });
      const config = { ...thread(`approval-${withSignal}`), ...(withSignal ? { signal: new AbortController().signal } : {}) };

      const paused = await agent.invoke({ messages: [new HumanMessage("send the newsletter")] }, config);
      const interrupts = (paused as Record<string, unknown>)[INTERRUPT] as { value: Record<string, unknown> }[];
      expect(interrupts).toHaveLength(1);
      expect(interrupts[0]?.value).toMatchObject({ type: "goap_action_approval", action: "send_newsletter" });
      expect(paused.messages.map((m) => m.getType())).toEqual(["human"]);
      expect(ran).toEqual(["research", "publish"]);
      expect((await agent.getState(thread(`approval-${withSignal}`))).next).toEqual(["act"]);

      const resumed = await agent.invoke(new Command({ resume: true }), config);
      const { report } = lastReply(resumed.messages);
      expect(report).toMatchObject({ status: "goal_achieved", plan: ["research", "publish", "send_newsletter"] });
      expect(report.executed.map((s) => s.action)).toEqual(["research", "publish", "send_newsletter"]);
      // Nothing before the approval ran twice, and the model was asked once.
      expect(ran).toEqual(["research", "publish", "send_newsletter"]);
      expect(llm.callCount).toBe(1);
      expect(resumed.worldState).toMatchObject({ researched: true, published: true, newsletter_sent: true });
    });
  }

  it("refuses a new message while the thread waits for an approval, and the paused turn still resumes", async () => {
    const { ran, actions } = approvalDomain();
    const llm = new FakeStructuredChatModel({
      responses: [{ conditions: { newsletter_sent: true } }, { conditions: { researched: true } }],
    });
    const agent = createGoapChatAgent({ llm, actions, checkpointer: new MemorySaver(), logger: quietLogger() });
    await agent.invoke({ messages: [new HumanMessage("send the newsletter")] }, thread("busy"));
    const refused = await agent.invoke({ messages: [new HumanMessage("just research")] }, thread("busy")).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LangGoapError);
    expect((refused as LangGoapError).code).toBe("THREAD_PAUSED");
    expect((refused as LangGoapError).message).toBe(
      'createGoapChatAgent: thread "busy" waits for approval of "send_newsletter"; resume it with invoke(new Command({ resume: answer }), config) before sending a new message',
    );
    // Nothing was written: the paused turn resumes as if the message had not been sent.
    const snapshot = await agent.getState(thread("busy"));
    expect((snapshot.values.messages as BaseMessage[]).map((m) => m.text)).toEqual(["send the newsletter"]);
    const resumed = await agent.invoke(new Command({ resume: true }), thread("busy"));
    expect(lastReply(resumed.messages).report.status).toBe("goal_achieved");
    expect(ran).toEqual(["research", "publish", "send_newsletter"]);
    expect(llm.callCount).toBe(1);
  });

  it("reports a refused approval", async () => {
    const { ran, actions } = approvalDomain();
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { newsletter_sent: true } }] });
    const agent = createGoapChatAgent({ llm, actions, checkpointer: new MemorySaver(), logger: quietLogger() });
    await agent.invoke({ messages: [new HumanMessage("send the newsletter")] }, thread("denied"));
    const resumed = await agent.invoke(new Command({ resume: { approved: false, reason: "not today" } }), thread("denied"));
    const { text, report } = lastReply(resumed.messages);
    expect(report.achieved).toBe(false);
    expect(report.executed.at(-1)).toMatchObject({ action: "send_newsletter", success: false });
    expect(report.status).toBe("denied");
    expect(text.split("\n")[0]).toBe(
      'I stopped: newsletter_sent = true needs an action that was refused (denied: a human refused "send_newsletter", and no plan reaches the goal without it).',
    );
    expect(ran).toEqual(["research", "publish"]);
  });
});

describe("createGoapChatAgent with a real client", () => {
  let stub: ProviderStub | undefined;
  afterEach(async () => {
    await stub?.close();
    stub = undefined;
  });

  it("drives ChatOpenAI against a local stub over two turns", async () => {
    stub = await startOpenAiStub([{ conditions: { is_hungry: false } }, { conditions: { is_tired: false } }]);
    const llm = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", configuration: { baseURL: `${stub.url}/v1` }, maxRetries: 0 });
    const agent = createGoapChatAgent({
      llm,
      actions: villageActions,
      facts: villageFacts,
      worldState: tiredVillager,
      checkpointer: new MemorySaver(),
      logger: quietLogger(),
    });
    const first = await agent.invoke({ messages: [new HumanMessage("I'm hungry")] }, thread("openai"));
    expect(lastReply(first.messages).report.plan).toEqual(HUNGRY_PLAN);
    const second = await agent.invoke({ messages: [new HumanMessage("now I'm tired too")] }, thread("openai"));
    expect(lastReply(second.messages).report).toMatchObject({ status: "goal_achieved", plan: ["go_to_shelter", "sleep"] });
    expect(stub.requests).toHaveLength(2);
    const body = stub.requests[1]?.body as { messages: { role: string; content: string }[]; tool_choice?: unknown };
    expect(body.tool_choice).toBeDefined();
    expect(body.messages.at(-1)).toMatchObject({ role: "user", content: "now I'm tired too" });
    expect(body.messages[0]?.content).toContain(`"is_hungry":false`);
  });
});

describe("createGoapChatAgent with LangChain tools", () => {
  it("plans over tools given with per-tool planning models and replans around a failing one", async () => {
    const { tools, calls } = researchTools({ premiumDown: true });
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { report_ready: true } }] });
    const agent = createGoapChatAgent({ llm, tools, ...researchModel, worldState: { topic: "GOAP" }, logger: quietLogger() });
    const result = await agent.invoke({ messages: [new HumanMessage("write me a report")] });
    const { text, report } = lastReply(result.messages);
    expect(calls).toEqual(["premium_search", "free_search", "summarize", "write_report"]);
    expect(report).toMatchObject({
      status: "goal_achieved",
      replanCount: 1,
      plan: ["free_search", "summarize", "write_report"],
      planCost: 6,
    });
    expect(report.executed[0]).toEqual({ action: "premium_search", success: false, error: "401 Unauthorized: API key revoked" });
    expect(text.split("\n").slice(0, 3)).toEqual([
      "Done: report_ready = true.",
      "Plan: free_search -> summarize -> write_report (cost 6, after 1 replan).",
      "Ran: premium_search (failed: 401 Unauthorized: API key revoked), free_search, summarize, write_report.",
    ]);
    expect(result.worldState.report).toBe("# GOAP\nsummary of 1 source(s): free:GOAP:1");
  });

  it("names itself in errors about the per-tool maps", () => {
    const { tools } = researchTools();
    const llm = new FakeStructuredChatModel({ responses: [{}] });
    expect(() => createGoapChatAgent({ llm, tools, costs: { web_search: 1 } })).toThrow(
      'createGoapChatAgent: options.costs names "web_search", which is not one of the tools [premium_search, free_search, summarize, write_report]',
    );
  });
});

describe("createGoapChatAgent offline", () => {
  it("reads messages with the keyword interpreter when asked to", async () => {
    const agent = createGoapChatAgent({
      interpreter: "keyword",
      actions: villageActions,
      facts: villageFacts,
      worldState: villageStart,
      logger: quietLogger(),
    });
    const result = await agent.invoke({ messages: [new HumanMessage("I'm starving")] });
    expect(lastReply(result.messages).report).toMatchObject({ goal: { is_hungry: false }, plan: HUNGRY_PLAN });
    const lost = await agent.invoke({ messages: [new HumanMessage("sing a song")] });
    expect(lastReply(lost.messages).text).toMatch(/^I cannot do that: I could not read a goal from your request/);
    const blank = await agent.invoke({ messages: [new HumanMessage("  ")] });
    expect(lastReply(blank.messages).text).toBe("I cannot do that: I could not read a goal from your request (the message has no text).");
  });
});
