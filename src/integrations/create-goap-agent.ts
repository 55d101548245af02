import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { isCommand } from "@langchain/langgraph";
import type { ActionSpec, Conditions, GoalSpec, MultiGoal } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { type CompiledGoapGraph, type GoapCompileOptions, GoapGraph, type GoapGraphOptions } from "../graph/index.js";
import type { GoalInterpreterOptions } from "../nl/index.js";
import { prepareInputs } from "./prepare-input.js";
import { type GoalInterpreterKind, resolveGoal } from "./resolve-goal.js";
import { actionsFromTools, TOOL_PLANNING_KEYS, type ToolPlanningOptions } from "./tool-actions.js";
import type { LangChainTool } from "./tool-schema.js";

/** Options of {@link createGoapAgent}: per-tool planning models, goal interpretation, and every `GoapGraph` and compile option. */
export interface CreateGoapAgentOptions extends GoapGraphOptions, GoapCompileOptions, ToolPlanningOptions {
  /** Interprets a goal written as a sentence (once, when the agent is created). Required for sentence goals unless `interpreter` is `"keyword"`. */
  readonly llm?: BaseChatModel;
  /** How a sentence goal is interpreted. @defaultValue "llm" */
  readonly interpreter?: GoalInterpreterKind;
  /** Options of the goal interpreter (prompt, examples, fact catalog); the keyword interpreter uses `facts`. @defaultValue {} */
  readonly interpreterOptions?: GoalInterpreterOptions;
}

/** A compiled GOAP graph built from tools, with the goal it was made for. */
export type CompiledGoapAgent = CompiledGoapGraph & {
  /** The resolved goal (a sentence goal, interpreted). */
  readonly goapGoal: GoalSpec | MultiGoal;
  /** The `GoapGraph` behind the compiled graph (for `invoke`, `createInput`, `restorePlan`, ...). */
  readonly goapGraph: GoapGraph;
};

const AGENT_ONLY_KEYS = new Set([
  "llm",
  "interpreter",
  "interpreterOptions",
  "checkpointer",
  "store",
  "interruptBefore",
  "interruptAfter",
  "name",
  ...TOOL_PLANNING_KEYS,
]);

const CREATE_GOAP_AGENT_OPTIONS_KEYS = {
  llm: true,
  interpreter: true,
  interpreterOptions: true,
  strategy: true,
  pipelineStrategy: true,
  tracer: true,
  logger: true,
  history: true,
  sensors: true,
  resolvers: true,
  guards: true,
  stuckHandlers: true,
  maxStuckIterations: true,
  terminationPolicies: true,
  transitionModel: true,
  parallel: true,
  seed: true,
  sleep: true,
  now: true,
  recursionLimit: true,
  goals: true,
  recordExpansions: true,
  actionTimeoutMs: true,
  sensorTimeoutMs: true,
  observerTimeoutMs: true,
  hookTimeoutMs: true,
  planningTimeoutMs: true,
  checkpointerTimeoutMs: true,
  checkpointer: true,
  store: true,
  interruptBefore: true,
  interruptAfter: true,
  name: true,
  preconditions: true,
  effects: true,
  costs: true,
  resources: true,
  resultKeys: true,
  toolOptions: true,
} as const satisfies OptionKeys<CreateGoapAgentOptions>;

/**
 * Builds a GOAP agent from LangChain tools: each tool becomes an action
 * through {@link goapifyTool} (planning models given per tool name), the goal
 * is resolved once (a sentence goes to `llm`, or to the keyword interpreter),
 * and the result is a compiled LangGraph graph that plans, runs the tools,
 * and replans around failures. Plain `ActionSpec`s may be mixed in with the
 * tools.
 *
 * @example
 * ```ts
 * const agent = await createGoapAgent([search, fallbackSearch, summarize], { has_summary: true }, {
 *   effects: { search: { has_results: true }, fallback_search: { has_results: true }, summarize: { has_summary: true } },
 *   preconditions: { summarize: { has_results: true } },
 *   costs: { search: 1, fallback_search: 3, summarize: 2 },
 *   resultKeys: { search: "results", fallback_search: "results", summarize: "summary" },
 * });
 * const result = await agent.invoke({ worldState: { topic: "GOAP" } }); // the goal it was built with
 * result.status; // "goal_achieved"
 * ```
 *
 * @param tools - LangChain tools (and optionally ready-made actions).
 * @param goal - A sentence, a `GoalSpec`/`MultiGoal`, or bare conditions.
 * @param options - Planning models by tool name, goal interpretation, graph and compile options.
 * @returns The compiled graph, with `goapGoal` and `goapGraph` attached.
 */
export async function createGoapAgent(
  tools: readonly (LangChainTool | ActionSpec)[],
  goal: string | GoalSpec | MultiGoal | Conditions,
  options: CreateGoapAgentOptions = {},
): Promise<CompiledGoapAgent> {
  checkOptionKeys(options, CREATE_GOAP_AGENT_OPTIONS_KEYS, "createGoapAgent()");
  const actions = actionsFromTools(tools, options, options.logger, "createGoapAgent");
  const goapGoal = await resolveGoal(goal, actions, options, "createGoapAgent");
  const graphOptions = Object.fromEntries(Object.entries(options).filter(([key]) => !AGENT_ONLY_KEYS.has(key))) as GoapGraphOptions;
  // Registering the goal lets runs restored from a checkpoint get its function parts back.
  const goapGraph = new GoapGraph(actions, { ...graphOptions, goals: [...(options.goals ?? []), goapGoal] });
  const compiled = goapGraph.compile({
    ...(options.checkpointer !== undefined ? { checkpointer: options.checkpointer } : {}),
    ...(options.store ? { store: options.store } : {}),
    ...(options.interruptBefore ? { interruptBefore: options.interruptBefore } : {}),
    ...(options.interruptAfter ? { interruptAfter: options.interruptAfter } : {}),
    ...(options.name ? { name: options.name } : {}),
  });
  return equipAgent(compiled, goapGoal, goapGraph);
}

/**
 * An input without a goal (`invoke({ worldState })`) runs the goal the agent
 * was built with. Commands (resume) and `null` (continue) pass through.
 */
function equipAgent(compiled: CompiledGoapGraph, goapGoal: GoalSpec | MultiGoal, goapGraph: GoapGraph): CompiledGoapAgent {
  const withGoal = (_graph: CompiledGoapGraph, input: unknown): unknown => {
    const given = typeof input === "object" && input !== null && !Array.isArray(input) && !isCommand(input);
    return given && (input as { goal?: unknown }).goal === undefined ? { ...input, goal: goapGoal } : input;
  };
  return prepareInputs(compiled, withGoal, { goapGoal, goapGraph });
}
