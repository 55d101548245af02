import type { RunnableConfig } from "@langchain/core/runnables";
import { ToolInputParsingException } from "@langchain/core/tools";
import { type ActionContext, ActionSpec, type ActionSpecOptions, describeValue, LangGoapError, type WorldState } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { createToolInputBuilder, type ToolInputSpec } from "./tool-input.js";
import { assertLangChainTool, type LangChainTool, validateToolInput } from "./tool-schema.js";

/** Options of {@link goapifyTool}: the planning model of the tool, plus how it reads and writes the world state. */
export interface GoapifyToolOptions extends Omit<ActionSpecOptions, "name" | "execute"> {
  /** Action name. @defaultValue the tool's name */
  readonly name?: string;
  /**
   * How the tool input is built from the world state: a function of the
   * state, or a mapping `{ toolArgument: worldStateKey }`.
   * @defaultValue the world-state keys the tool's schema declares
   */
  readonly input?: ToolInputSpec;
  /**
   * World-state key that receives the tool's output. Must not be one of the
   * effect keys. Without it the output is discarded and only the declared
   * effects are applied.
   * @defaultValue none
   */
  readonly resultKey?: string;
}

const GOAPIFY_TOOL_OPTIONS_KEYS = {
  name: true,
  input: true,
  resultKey: true,
  preconditions: true,
  effects: true,
  effectKeys: true,
  cost: true,
  effectValidator: true,
  qos: true,
  maxRetries: true,
  canRerun: true,
  readOnly: true,
  utility: true,
  requireHumanApproval: true,
  humanInputKey: true,
  resources: true,
  durationMs: true,
  metadata: true,
  description: true,
} as const satisfies OptionKeys<GoapifyToolOptions>;

/**
 * Turns a LangChain tool (anything built with `tool()` from
 * `@langchain/core/tools`, or a `StructuredTool`) into an {@link ActionSpec}
 * the planner can use. The options give the planning model (preconditions,
 * effects, cost, resources, duration, retries, validator); execution builds
 * the tool input from the world state, checks it against the tool's own schema
 * (a bad input fails the action with a message naming the tool and the field),
 * invokes the tool with the graph's config (callbacks and cancellation flow
 * through), and writes the declared effects plus, with `resultKey`, the
 * tool's output.
 *
 * @example
 * ```ts
 * const search = tool(async ({ query }) => fetchResults(query), {
 *   name: "web_search",
 *   description: "Searches the web.",
 *   schema: z.object({ query: z.string() }),
 * });
 * const action = goapifyTool(search, {
 *   input: { query: "topic" },           // state.topic becomes the tool's `query`
 *   effects: { has_results: true },
 *   resultKey: "search_results",
 *   cost: 2,
 *   maxRetries: 1,
 * });
 * ```
 *
 * @param tool - The LangChain tool. Plain functions are rejected: wrap them with `tool()` first.
 * @param options - Planning model and world-state wiring.
 * @returns An immutable action named after the tool.
 */
export function goapifyTool(tool: LangChainTool, options: GoapifyToolOptions = {}): ActionSpec {
  checkOptionKeys(options, GOAPIFY_TOOL_OPTIONS_KEYS, "goapifyTool()");
  assertLangChainTool(tool, "goapifyTool");
  if (typeof options !== "object" || options === null) {
    throw new LangGoapError("INVALID_ACTION", `goapifyTool("${tool.name}"): options must be an object, got ${describeValue(options)}`);
  }
  const { input, resultKey, name, ...planning } = options;
  const where = `goapifyTool("${tool.name}")`;
  if (resultKey !== undefined && (typeof resultKey !== "string" || resultKey === "")) {
    throw new LangGoapError("INVALID_ACTION", `${where}: resultKey must be a non-empty string, got ${describeValue(resultKey)}`, {
      tool: tool.name,
    });
  }
  const inputBuilder = createToolInputBuilder(tool, input);

  const execute = async (state: Readonly<WorldState>, context: ActionContext): Promise<Partial<WorldState> | undefined> => {
    const toolInput = inputBuilder.build(state);
    await validateToolInput(tool, toolInput, inputBuilder.sourceOf);
    let output: unknown;
    try {
      output = await tool.invoke(toolInput, toolConfig(context));
    } catch (error) {
      if (error instanceof ToolInputParsingException) {
        throw new LangGoapError("EXECUTION_ERROR", `tool "${tool.name}" rejected its input: ${error.message}`, { tool: tool.name });
      }
      throw error;
    }
    // Without a result key the declared effects (or the transition model) decide the outcome.
    if (resultKey === undefined) return undefined;
    // A returned object is authoritative, so it must carry the declared effects itself.
    return { ...action.getEffects(state), [resultKey]: (output ?? null) as WorldState[string] };
  };

  const action = new ActionSpec({
    ...planning,
    name: name ?? tool.name,
    description: planning.description ?? tool.description,
    metadata: { ...planning.metadata, tool: tool.name },
    execute,
  });
  if (resultKey !== undefined && action.effectKeys.has(resultKey)) {
    throw new LangGoapError(
      "INVALID_ACTION",
      `${where}: resultKey "${resultKey}" is also an effect key; the tool output would overwrite the declared effect. Pick another resultKey`,
      { tool: tool.name, resultKey },
    );
  }
  return action;
}

/** The graph node's config for the tool call, with the wave's abort signal folded in. */
function toolConfig(context: ActionContext): RunnableConfig | undefined {
  const config = context.config;
  const { signal } = context;
  if (!signal) return config;
  const signals = config?.signal ? [config.signal, signal] : [signal];
  return { ...config, signal: signals.length === 1 ? signal : AbortSignal.any(signals) };
}
