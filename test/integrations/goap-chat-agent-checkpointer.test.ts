/**
 * The chat agent compiles its own graph around the GOAP runs, so its
 * checkpointer did not get the time limits a `GoapGraph` puts on its saver
 * (issue 23, item 4): a `put` that never settled hung the turn forever.
 */

import { HumanMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { type Checkpoint, type CheckpointMetadata, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { createGoapChatAgent } from "../../src/integrations/index.js";
import { FakeStructuredChatModel } from "../../src/testing/index.js";
import { quietLogger } from "../graph/support.js";
import { villageActions, villageFacts, villageStart } from "../support/village.js";

/** The old code hangs: the per-test limit makes it fail fast instead. */
const NO_HANG = { timeout: 5_000 };

/** A MemorySaver whose calls of one method stop answering once `when` says so. */
class HangingSaver extends MemorySaver {
  constructor(
    private readonly method: "put" | "getTuple",
    private readonly when: (config: RunnableConfig) => boolean = () => true,
  ) {
    super();
  }

  override put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig> {
    if (this.method === "put" && this.when(config)) return new Promise(() => undefined);
    return super.put(config, checkpoint, metadata);
  }

  override getTuple(config: RunnableConfig) {
    if (this.method === "getTuple" && this.when(config)) return new Promise<never>(() => undefined);
    return super.getTuple(config);
  }
}

function agentWith(checkpointer: MemorySaver | undefined, checkpointerTimeoutMs?: number) {
  return createGoapChatAgent({
    llm: new FakeStructuredChatModel({ responses: [{ conditions: { is_hungry: false }, reasoning: "hungry means eat" }] }),
    actions: villageActions,
    facts: villageFacts,
    worldState: villageStart,
    ...(checkpointer ? { checkpointer } : {}),
    ...(checkpointerTimeoutMs === undefined ? {} : { checkpointerTimeoutMs }),
    logger: quietLogger(),
  });
}

const hungry = { messages: [new HumanMessage("I'm hungry")] };

describe("createGoapChatAgent: the checkpointer has the GoapGraph's time limits", () => {
  it("a GOAP run's checkpoint write that never settles fails the turn with TIMEOUT naming put and the thread", NO_HANG, async () => {
    // Only the writes of the GOAP run (the act node's subgraph namespace) hang: the agent's own first writes go through.
    const saver = new HangingSaver("put", (config) => String(config.configurable?.checkpoint_ns ?? "").startsWith("act"));
    const agent = agentWith(saver, 50);
    const error = await agent.invoke(hungry, { configurable: { thread_id: "chat-put" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LangGoapError);
    expect((error as LangGoapError).code).toBe("TIMEOUT");
    expect((error as LangGoapError).message).toBe('checkpointer.put (thread "chat-put") did not settle within 50 ms');
  });

  it("the agent's own first write is limited too", NO_HANG, async () => {
    const agent = agentWith(new HangingSaver("put"), 50);
    const error = await agent.invoke(hungry, { configurable: { thread_id: "chat-first" } }).catch((e: unknown) => e);
    expect((error as LangGoapError).code).toBe("TIMEOUT");
  });

  it("a saver assigned later (as the API server does), and one on a withConfig copy, get the same limit", NO_HANG, async () => {
    const agent = agentWith(undefined, 50);
    agent.checkpointer = new HangingSaver("getTuple");
    const error = await agent.invoke(hungry, { configurable: { thread_id: "chat-late" } }).catch((e: unknown) => e);
    expect((error as LangGoapError).code).toBe("TIMEOUT");
    expect((error as LangGoapError).message).toBe('checkpointer.getTuple (thread "chat-late") did not settle within 50 ms');
    const copy = agent.withConfig({ tags: ["x"] });
    copy.checkpointer = new HangingSaver("getTuple");
    const again = await copy.invoke(hungry, { configurable: { thread_id: "chat-copy" } }).catch((e: unknown) => e);
    expect((again as LangGoapError).code).toBe("TIMEOUT");
  });

  it("a saver that answers keeps its identity and the turn runs", async () => {
    const saver = new MemorySaver();
    const agent = agentWith(saver);
    expect(agent.checkpointer).toBeInstanceOf(MemorySaver);
    const result = await agent.invoke(hungry, { configurable: { thread_id: "chat-ok" } });
    expect(result.worldState.is_hungry).toBe(false);
  });

  it("a bad limit is an error naming the option", () => {
    expect(() => agentWith(new MemorySaver(), -1)).toThrow("checkpointerTimeoutMs must be a number of milliseconds > 0");
  });
});
