import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec, LangGoapError } from "../../src/core/index.js";
import { successfulActionNames } from "../../src/graph/index.js";
import { createGoapAgent } from "../../src/integrations/index.js";
import { FakeStructuredChatModel } from "../../src/testing/index.js";
import { RecordingTracer } from "../../src/tracing/index.js";
import { quietLogger } from "../graph/support.js";
import { researchModel, researchTools } from "./support.js";

async function rejection(promise: Promise<unknown>): Promise<LangGoapError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LangGoapError);
    return error as LangGoapError;
  }
  throw new Error("expected a rejection");
}

describe("createGoapAgent end to end", () => {
  it("plans over the tools, runs them, and stores each output under its result key", async () => {
    const { tools, calls } = researchTools();
    const agent = await createGoapAgent(tools, { report_ready: true }, { ...researchModel, logger: quietLogger() });

    expect(agent.constructor.name).toBe("CompiledStateGraph");
    expect(agent.goapGoal).toBeInstanceOf(GoalSpec);
    expect((agent.goapGoal as GoalSpec).conditions).toEqual({ report_ready: true });

    const result = await agent.invoke({ goal: agent.goapGoal, worldState: { topic: "GOAP" } });
    expect(result.status).toBe("goal_achieved");
    expect(calls).toEqual(["premium_search", "summarize", "write_report"]);
    expect(result.plan?.totalCost).toBe(4);
    expect(result.worldState).toEqual({
      topic: "GOAP",
      has_sources: true,
      sources: ["premium:GOAP:1", "premium:GOAP:2"],
      has_summary: true,
      summary: "summary of 2 source(s): premium:GOAP:1, premium:GOAP:2",
      report_ready: true,
      report: "# GOAP\nsummary of 2 source(s): premium:GOAP:1, premium:GOAP:2",
    });
  });

  it("survives a search outage by replanning to the fallback tool", async () => {
    const { tools, calls } = researchTools({ premiumDown: true });
    const tracer = new RecordingTracer();
    const agent = await createGoapAgent(tools, { report_ready: true }, { ...researchModel, tracer, logger: quietLogger() });
    const result = await agent.goapGraph.invoke(agent.goapGoal, { topic: "GOAP" });

    expect(result.status).toBe("goal_achieved");
    expect(calls).toEqual(["premium_search", "free_search", "summarize", "write_report"]);
    expect(result.replanCount).toBe(1);
    expect(result.blacklistedActions).toEqual(["premium_search"]);
    expect(result.executionHistory[0]).toMatchObject({
      actionName: "premium_search",
      success: false,
      error: "401 Unauthorized: API key revoked",
    });
    expect(successfulActionNames(result)).toEqual(["free_search", "summarize", "write_report"]);
    expect(result.worldState.report).toBe("# GOAP\nsummary of 1 source(s): free:GOAP:1");
    expect(tracer.names.filter((n) => n === "replan")).toHaveLength(1);
    expect(tracer.names.at(-1)).toBe("goal_achieved");
  });

  it("passes compile options through: runs persist to the checkpointer by thread", async () => {
    const { tools } = researchTools();
    const agent = await createGoapAgent(
      tools,
      { report_ready: true },
      { ...researchModel, checkpointer: new MemorySaver(), logger: quietLogger() },
    );
    const config = { configurable: { thread_id: "research-1" } };
    await agent.invoke({ goal: agent.goapGoal, worldState: { topic: "GOAP" } }, config);
    const snapshot = await agent.getState(config);
    expect(snapshot.next).toEqual([]);
    expect(snapshot.values.status).toBe("goal_achieved");
    expect(agent.goapGraph.restorePlan(snapshot.values.plan)?.actionNames).toEqual(["premium_search", "summarize", "write_report"]);
  });

  it("runs the goal it was built with when the input gives none: invoke, stream, withConfig copies and a thread", async () => {
    const { tools, calls } = researchTools();
    const agent = await createGoapAgent(
      tools,
      { report_ready: true },
      { ...researchModel, checkpointer: new MemorySaver(), logger: quietLogger() },
    );
    const config = { configurable: { thread_id: "no-goal-1" } };
    const result = await agent.invoke({ worldState: { topic: "GOAP" } }, config);
    expect(result.status).toBe("goal_achieved");
    expect(result.replanReason).toBeNull();
    expect(result.goal).toMatchObject({ kind: "GoalSpec", spec: { conditions: { report_ready: true } } });
    expect(calls).toEqual(["premium_search", "summarize", "write_report"]);

    const updates: string[] = [];
    const copy = agent.withConfig({ configurable: { thread_id: "no-goal-2" } });
    for await (const chunk of await copy.stream({ worldState: { topic: "maps" } }, { streamMode: "updates" })) {
      updates.push(...Object.keys(chunk));
    }
    expect(updates[0]).toBe("planner");
    expect((await agent.getState({ configurable: { thread_id: "no-goal-2" } })).values.status).toBe("goal_achieved");
    // A goal given in the input still wins.
    const other = await agent.invoke(
      { goal: { has_sources: true }, worldState: { topic: "x" } },
      { configurable: { thread_id: "no-goal-3" } },
    );
    expect(successfulActionNames(other)).toEqual(["premium_search"]);
  });

  it("keeps the paused-thread refusal on withConfig copies", async () => {
    const { tools } = researchTools();
    const review = new ActionSpec({
      name: "review",
      preconditions: { report_ready: true },
      effects: { reviewed: true },
      requireHumanApproval: true,
    });
    const agent = await createGoapAgent(
      [...tools, review],
      { reviewed: true },
      { ...researchModel, checkpointer: new MemorySaver(), logger: quietLogger() },
    );
    const config = { configurable: { thread_id: "paused-copy" } };
    const paused = await agent.invoke({ worldState: { topic: "GOAP" } }, config);
    expect(paused.status).toBe("awaiting_human");
    for (const graph of [agent, agent.withConfig({ tags: ["copy"] })]) {
      const refused = await graph.invoke({ worldState: { topic: "other" } }, config).catch((e: unknown) => e);
      expect((refused as LangGoapError).code).toBe("THREAD_PAUSED");
    }
  });

  it("accepts ready-made actions next to the tools", async () => {
    const { tools } = researchTools();
    const review = new ActionSpec({ name: "review", preconditions: { report_ready: true }, effects: { reviewed: true }, cost: 1 });
    const agent = await createGoapAgent([...tools, review], { reviewed: true }, { ...researchModel, logger: quietLogger() });
    const result = await agent.goapGraph.invoke(agent.goapGoal, { topic: "x" });
    expect(successfulActionNames(result)).toEqual(["premium_search", "summarize", "write_report", "review"]);
  });

  it("takes any other goapifyTool option per tool through toolOptions", async () => {
    const { tools, calls } = researchTools();
    const agent = await createGoapAgent(
      tools,
      { has_sources: true },
      {
        effects: { premium_search: { has_sources: true } },
        toolOptions: { premium_search: { input: { topic: "subject" }, resultKey: "hits" } },
        logger: quietLogger(),
      },
    );
    const result = await agent.goapGraph.invoke(agent.goapGoal, { subject: "maps" });
    expect(calls).toEqual(["premium_search"]);
    expect(result.worldState.hits).toEqual(["premium:maps:1", "premium:maps:2"]);
  });
});

describe("createGoapAgent goals in plain language", () => {
  it("interprets a sentence once, with the chat model, at construction", async () => {
    const { tools } = researchTools();
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { report_ready: true }, reasoning: "a report is asked for" }] });
    const agent = await createGoapAgent(tools, "Write me a report on GOAP", { ...researchModel, llm, logger: quietLogger() });

    expect(llm.callCount).toBe(1);
    expect(llm.calls[0]?.structured?.name).toBe("goal");
    expect((agent.goapGoal as GoalSpec).conditions).toEqual({ report_ready: true });
    await agent.goapGraph.invoke(agent.goapGoal, { topic: "GOAP" });
    const second = await agent.goapGraph.invoke(agent.goapGoal, { topic: "LangGraph" });
    expect(second.worldState.report).toBe("# LangGraph\nsummary of 2 source(s): premium:LangGraph:1, premium:LangGraph:2");
    expect(llm.callCount).toBe(1);
  });

  it("interprets a sentence offline with the keyword interpreter", async () => {
    const { tools } = researchTools();
    const agent = await createGoapAgent(tools, "I need the report", { ...researchModel, interpreter: "keyword", logger: quietLogger() });
    expect((agent.goapGoal as GoalSpec).conditions).toEqual({ report_ready: true });
    const result = await agent.goapGraph.invoke(agent.goapGoal, { topic: "GOAP" });
    expect(result.status).toBe("goal_achieved");
  });

  it("refuses a sentence with neither a model nor the keyword interpreter", async () => {
    const { tools } = researchTools();
    const error = await rejection(createGoapAgent(tools, "write the report", researchModel));
    expect(error.code).toBe("INVALID_OPTION");
    expect(error.message).toBe(
      'createGoapAgent: goals written as sentences need options.llm (a LangChain chat model) to interpret them, or options.interpreter: "keyword" for offline keyword matching',
    );
  });
});

describe("createGoapAgent checks its options", () => {
  it("warns once, listing every tool the planner would treat as a no-op", async () => {
    const { tools } = researchTools();
    const logger = quietLogger();
    await createGoapAgent(
      tools,
      { has_sources: true },
      { effects: { premium_search: { has_sources: true } }, resources: { summarize: { usd: 0.01 } }, logger },
    );
    expect(logger.messages).toEqual([
      "createGoapAgent: tools [free_search, write_report] declare neither effects nor resources, so the planner treats them as no-op actions and never needs them; pass effects: { free_search: { ... } }",
    ]);
  });

  it("stays quiet when every tool has effects", async () => {
    const { tools } = researchTools();
    const logger = quietLogger();
    await createGoapAgent(tools, { report_ready: true }, { ...researchModel, logger });
    expect(logger.messages).toEqual([]);
  });

  it("rejects per-tool options for tools it was not given", async () => {
    const { tools } = researchTools();
    const error = await rejection(createGoapAgent(tools, { report_ready: true }, { ...researchModel, costs: { web_search: 2 } }));
    expect(error.message).toBe(
      'createGoapAgent: options.costs names "web_search", which is not one of the tools [premium_search, free_search, summarize, write_report]',
    );
  });

  it("rejects a field given both in a per-tool map and in toolOptions", async () => {
    const { tools } = researchTools();
    const error = await rejection(
      createGoapAgent(tools, { report_ready: true }, { ...researchModel, toolOptions: { summarize: { cost: 9 } } }),
    );
    expect(error.message).toBe('createGoapAgent: tool "summarize" gets cost from both options.costs and options.toolOptions; give it once');
  });

  it("rejects values that are neither tools nor actions, and empty tool lists", async () => {
    const { tools } = researchTools();
    const notATool = (x: number) => x + 1;
    const error = await rejection(createGoapAgent([...tools, notATool as never], { report_ready: true }, researchModel));
    expect(error.message).toMatch(
      /^createGoapAgent tools\[4\]: expected a LangChain tool, got a function; wrap plain functions with tool\(\)/,
    );
    expect((await rejection(createGoapAgent([], { done: true }))).message).toMatch(/tools must be a non-empty array/);
  });
});
