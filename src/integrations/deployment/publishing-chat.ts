import type { FactCatalog } from "../../core/index.js";
import { type CompiledGoapChatAgent, type CreateGoapChatAgentOptions, createGoapChatAgent } from "../create-goap-chat-agent.js";
import { createPublishingActions } from "./publishing-domain.js";

/** The publishing domain's facts, with the words people use for them (what the keyword interpreter matches). */
export const PUBLISHING_FACTS: FactCatalog = Object.freeze({
  researched: { type: "boolean", description: "notes on the topic are collected", synonyms: ["research", "notes"] },
  drafted: { type: "boolean", description: "an article is drafted", synonyms: ["draft", "write", "article"] },
  published: { type: "boolean", description: "the article is published", synonyms: ["publish", "post"] },
  newsletter_sent: {
    type: "boolean",
    description: "the article went out to the subscribers",
    synonyms: ["newsletter", "mail", "email"],
  },
});

/**
 * Builds the chat agent the LangGraph API server serves as `langgoap_chat`:
 * {@link createGoapChatAgent} over the sample publishing domain, reading
 * messages with the offline keyword interpreter (no model key needed; give
 * `llm` to read them with a chat model instead). No checkpointer on
 * purpose: the server assigns its own, so a thread is a conversation whose
 * world carries over, and `send_newsletter`'s approval pauses the run until
 * a client resumes it with `command: { resume: true }`.
 *
 * @example
 * ```ts
 * const agent = createChatDeploymentGraph();
 * agent.checkpointer = new MemorySaver(); // what the server does
 * await agent.invoke({ messages: [{ role: "user", content: "Publish a post about GOAP" }] }, { configurable: { thread_id: "t1" } });
 * ```
 *
 * @param options - Any {@link createGoapChatAgent} option (`llm`, `worldState`, tracer, ...). @defaultValue {}
 * @returns The compiled chat graph.
 */
export function createChatDeploymentGraph(options: Partial<CreateGoapChatAgentOptions> = {}): CompiledGoapChatAgent {
  return createGoapChatAgent({
    interpreter: options.llm ? "llm" : "keyword",
    facts: PUBLISHING_FACTS,
    worldState: { topic: "GOAP" },
    name: "langgoap_chat",
    ...options,
    actions: [...createPublishingActions(), ...(options.actions ?? [])],
  });
}
