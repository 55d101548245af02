import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { type LangGraphRunnableConfig, MessagesAnnotation, StateGraph } from "@langchain/langgraph";
import { type ActionSpec, describeValue, LangGoapError, type WorldState } from "../core/index.js";
import { checkOptionKeys } from "../core/option-keys.js";
import { GoapGraph, successfulActionNames } from "../graph/index.js";
import {
  CREATE_GOAP_TOOL_OPTIONS_KEYS,
  type CreateGoapToolOptions,
  DEFAULT_GOAP_TOOL_DESCRIPTION,
  DEFAULT_GOAP_TOOL_NAME,
} from "./create-goap-tool.js";
import { formatGoapResult } from "./format-goap-result.js";
import { createSentenceInterpreter } from "./resolve-goal.js";

/** Options of {@link createGoapSubagent}: those of `createGoapTool`. */
export type GoapSubagentOptions = CreateGoapToolOptions;

/**
 * A GOAP planner as a Deep Agents sub-agent (the `CompiledSubAgent` shape
 * of npm `deepagents`: `{ name, description, runnable }`). The deep agent
 * delegates with its `task` tool; the runnable takes the task from the last
 * human message, interprets it into a goal over `actions` (a chat model, or
 * offline keyword matching), runs a `GoapGraph` from a copy of
 * `worldState`, and answers with one AI message: {@link formatGoapResult}'s
 * text, with the status and executed actions in `additional_kwargs.goap`.
 * Runs that do not reach the goal answer with their status and reason; a
 * task that cannot be interpreted answers with the interpreter's error, so
 * the calling agent can rephrase.
 *
 * @example
 * ```ts
 * import { createDeepAgent } from "deepagents";
 * const agent = createDeepAgent({
 *   model,
 *   subagents: [createGoapSubagent(villageActions, { llm: model, worldState: start })],
 * });
 * await agent.invoke({ messages: [{ role: "user", content: "Make sure the villager eats." }] });
 * ```
 */
export function createGoapSubagent(actions: readonly ActionSpec[], options: GoapSubagentOptions) {
  checkOptionKeys(options, CREATE_GOAP_TOOL_OPTIONS_KEYS, "createGoapSubagent()");
  if (typeof options !== "object" || options === null) {
    throw new LangGoapError("INVALID_OPTION", `createGoapSubagent: options must be an object, got ${describeValue(options)}`);
  }
  const name = options.name ?? DEFAULT_GOAP_TOOL_NAME;
  const description = options.description ?? DEFAULT_GOAP_TOOL_DESCRIPTION;
  for (const [field, value] of [
    ["name", name],
    ["description", description],
  ] as const) {
    if (typeof value !== "string" || value.trim() === "") {
      throw new LangGoapError("INVALID_OPTION", `createGoapSubagent: ${field} must be a non-empty string, got ${describeValue(value)}`);
    }
  }
  const start = options.worldState ?? {};
  if (typeof start !== "object" || start === null || Array.isArray(start)) {
    throw new LangGoapError("INVALID_OPTION", `createGoapSubagent: worldState must be an object of facts, got ${describeValue(start)}`);
  }
  const graph = new GoapGraph(actions, options.graphOptions);
  const interpret = createSentenceInterpreter(graph.actions, options, `createGoapSubagent("${name}")`);

  const run = async (state: { messages: BaseMessage[] }, config: LangGraphRunnableConfig) => {
    const task = [...state.messages].reverse().find((m) => HumanMessage.isInstance(m));
    const request = typeof task?.content === "string" ? task.content : task ? JSON.stringify(task.content) : "";
    if (request.trim() === "") {
      return { messages: [new AIMessage({ content: `${name}: no task given; send what to achieve as a message.`, name })] };
    }
    const worldState = structuredClone(start) as WorldState;
    let goal: Awaited<ReturnType<typeof interpret>>;
    try {
      goal = await interpret(request, worldState, config);
    } catch (error) {
      return { messages: [new AIMessage({ content: `${name}: could not turn the task into a goal: ${(error as Error).message}`, name })] };
    }
    const result = await graph.invoke(goal, worldState, config);
    const goap = { status: result.status, executedActions: successfulActionNames(result), reason: result.replanReason };
    return { messages: [new AIMessage({ content: formatGoapResult(result), name, additional_kwargs: { goap } })] };
  };
  const runnable = new StateGraph(MessagesAnnotation)
    .addNode("goap", run)
    .addEdge("__start__", "goap")
    .addEdge("goap", "__end__")
    .compile({ name });
  return { name, description, runnable };
}
