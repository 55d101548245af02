export { type CompiledGoapAgent, type CreateGoapAgentOptions, createGoapAgent } from "./create-goap-agent.js";
export {
  type CompiledGoapChatAgent,
  type CreateGoapChatAgentOptions,
  createGoapChatAgent,
  GOAP_CHAT_REPORT_KEY,
} from "./create-goap-chat-agent.js";
export {
  type CreateGoapToolOptions,
  createGoapTool,
  DEFAULT_GOAP_TOOL_DESCRIPTION,
  DEFAULT_GOAP_TOOL_NAME,
  GOAP_TOOL_SCHEMA,
} from "./create-goap-tool.js";
export { createDeploymentGraph } from "./deployment/create-deployment-graph.js";
export { createChatDeploymentGraph, PUBLISHING_FACTS } from "./deployment/publishing-chat.js";
export { createPublishingActions } from "./deployment/publishing-domain.js";
export { type ScaffoldDeploymentOptions, type ScaffoldedDeployment, scaffoldDeployment } from "./deployment/scaffold-deployment.js";
export { type ServedThread, StoreThreadSaver, type StoreThreadSaverOptions, type ThreadWrite } from "./deployment/store-thread-saver.js";
export { type FormattableGoapResult, formatGoapResult } from "./format-goap-result.js";
export type { GoapChatReport, GoapChatStep } from "./goap-chat-report.js";
export { createGoapSubagent, type GoapSubagentOptions } from "./goap-subagent.js";
export { type AddGoapSubgraphOptions, addGoapSubgraph, GoapSubgraph, type SubgraphGoal } from "./goap-subgraph.js";
export { type GoapifyToolOptions, goapifyTool } from "./goapify-tool.js";
export type { GoalInterpreterKind } from "./resolve-goal.js";
export type { ToolPlanningOptions } from "./tool-actions.js";
export type { ToolInputSpec } from "./tool-input.js";
export { isLangChainTool, type LangChainTool } from "./tool-schema.js";
