import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { type ActionSpec, describeValue, LangGoapError, type WorldState } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { GoapGraph, type GoapGraphOptions } from "../graph/index.js";
import type { GoalInterpreterOptions } from "../nl/index.js";
import { formatGoapResult } from "./format-goap-result.js";
import { createSentenceInterpreter, type GoalInterpreterKind } from "./resolve-goal.js";

/** The default name of the tool {@link createGoapTool} returns. */
export const DEFAULT_GOAP_TOOL_NAME = "goap_planner";

/** The default description of the tool {@link createGoapTool} returns. */
export const DEFAULT_GOAP_TOOL_DESCRIPTION =
  "Run a GOAP (Goal-Oriented Action Planning) loop to achieve a goal described in natural language.";

/** Options of {@link createGoapTool}. */
export interface CreateGoapToolOptions {
  /** Interprets each request into a goal. Required unless `interpreter` is `"keyword"`. */
  readonly llm?: BaseChatModel;
  /** How requests are interpreted. @defaultValue "llm" */
  readonly interpreter?: GoalInterpreterKind;
  /** Options of the goal interpreter (prompt, examples, fact catalog). @defaultValue {} */
  readonly interpreterOptions?: GoalInterpreterOptions;
  /** Tool name. @defaultValue {@link DEFAULT_GOAP_TOOL_NAME} */
  readonly name?: string;
  /** Tool description shown to the calling model. @defaultValue {@link DEFAULT_GOAP_TOOL_DESCRIPTION} */
  readonly description?: string;
  /** The world state every call starts from (copied per call). @defaultValue {} */
  readonly worldState?: Readonly<WorldState>;
  /** Options of the `GoapGraph` that runs each call. @defaultValue {} */
  readonly graphOptions?: GoapGraphOptions;
}

/** The input schema of a GOAP tool: one request in plain language. */
export const GOAP_TOOL_SCHEMA = z.object({
  request: z.string().min(1).describe("What to achieve, in plain language."),
});

/** @internal The options of `createGoapTool` (and `createGoapSubagent`). */
export const CREATE_GOAP_TOOL_OPTIONS_KEYS = {
  llm: true,
  interpreter: true,
  interpreterOptions: true,
  name: true,
  description: true,
  worldState: true,
  graphOptions: true,
} as const satisfies OptionKeys<CreateGoapToolOptions>;

/**
 * Exposes a GOAP run as a LangChain tool, so a chat agent (a ReAct agent, a
 * supervisor) can delegate multi-step work to the planner: each call
 * interprets `request` into a goal over `actions`, runs a `GoapGraph` from a
 * copy of `worldState`, and answers with {@link formatGoapResult}. Runs that
 * end without reaching the goal answer with their status and explanation; an
 * interpretation failure rejects the call.
 *
 * @example
 * ```ts
 * const planner = createGoapTool(villageActions, { llm: new ChatOpenAI({ model: "gpt-4o-mini" }), worldState: start });
 * const text = await planner.invoke({ request: "I'm hungry" });
 * // "GOAP Result: goal_achieved\n\nExecuted actions:\n  - go_to_tree ..."
 * const agent = createReactAgent({ llm, tools: [planner] });
 * ```
 *
 * @param actions - The actions the planner may use.
 * @param options - The interpreting model, tool name and description, start state and graph options.
 * @returns A LangChain tool taking `{ request: string }` and returning text.
 */
export function createGoapTool(actions: readonly ActionSpec[], options: CreateGoapToolOptions) {
  checkOptionKeys(options, CREATE_GOAP_TOOL_OPTIONS_KEYS, "createGoapTool()");
  if (typeof options !== "object" || options === null) {
    throw new LangGoapError("INVALID_OPTION", `createGoapTool: options must be an object, got ${describeValue(options)}`);
  }
  const name = options.name ?? DEFAULT_GOAP_TOOL_NAME;
  const description = options.description ?? DEFAULT_GOAP_TOOL_DESCRIPTION;
  for (const [field, value] of [
    ["name", name],
    ["description", description],
  ] as const) {
    if (typeof value !== "string" || value.trim() === "") {
      throw new LangGoapError("INVALID_OPTION", `createGoapTool: ${field} must be a non-empty string, got ${describeValue(value)}`);
    }
  }
  const start = options.worldState ?? {};
  if (typeof start !== "object" || start === null || Array.isArray(start)) {
    throw new LangGoapError("INVALID_OPTION", `createGoapTool: worldState must be an object of facts, got ${describeValue(start)}`);
  }
  const graph = new GoapGraph(actions, options.graphOptions);
  const interpret = createSentenceInterpreter(graph.actions, options, `createGoapTool("${name}")`);

  return tool(
    async ({ request }, config) => {
      const worldState = structuredClone(start) as WorldState;
      const goal = await interpret(request, worldState, config);
      return formatGoapResult(await graph.invoke(goal, worldState, config));
    },
    { name, description, schema: GOAP_TOOL_SCHEMA },
  );
}
