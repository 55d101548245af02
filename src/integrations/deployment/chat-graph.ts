/**
 * Chat entry for the LangGraph API server: `langgraph.json` names it
 * `langgoap_chat` (`./src/integrations/deployment/chat-graph.ts:graph`).
 * Send `{ "messages": [{ "role": "user", "content": "Publish a post about GOAP" }] }`;
 * later messages on the same thread act on the world the earlier ones left.
 */
import type { CompiledGoapChatAgent } from "../create-goap-chat-agent.js";
import { createChatDeploymentGraph } from "./publishing-chat.js";

/** The chat graph the LangGraph API server loads. */
export const graph: CompiledGoapChatAgent = createChatDeploymentGraph();
