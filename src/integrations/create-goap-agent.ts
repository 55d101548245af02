import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  ActionSpec,
  type Conditions,
  type CostFunction,
  describeValue,
  type Effects,
  type GoalSpec,
  LangGoapError,
  type MultiGoal,
  validateActions,
} from "../core/index.js";
import {
  CONSOLE_LOGGER,
  type CompiledGoapGraph,
  type GoapCompileOptions,
  GoapGraph,
  type GoapGraphOptions,
  type GoapLogger,
} from "../graph/index.js";
import type { GoalInterpreterOptions } from "../nl/index.js";
import { type GoapifyToolOptions, goapifyTool } from "./goapify-tool.js";
import { type GoalInterpreterKind, resolveGoal } from "./resolve-goal.js";
import { assertLangChainTool, isLangChainTool, type LangChainTool } from "./tool-schema.js";

/** Options of {@link createGoapAgent}: per-tool planning models, goal interpretation, and every `GoapGraph` and compile option. */
export interface CreateGoapAgentOptions extends GoapGraphOptions, GoapCompileOptions {
  /** Interprets a goal written as a sentence (once, when the agent is created). Required for sentence goals unless `interpreter` is `"keyword"`. */
  readonly llm?: BaseChatModel;
  /** How a sentence goal is interpreted. @defaultValue "llm" */
  readonly interpreter?: GoalInterpreterKind;
  /** Options of the goal interpreter (prompt, examples, fact catalog); the keyword interpreter uses `facts`. @defaultValue {} */
  readonly interpreterOptions?: GoalInterpreterOptions;
  /** Preconditions by tool name. @defaultValue {} */
  readonly preconditions?: Readonly<Record<string, Conditions>>;
  /** Effects by tool name. A tool with neither effects nor resources is a no-op to the planner (a warning says so). @defaultValue {} */
  readonly effects?: Readonly<Record<string, Effects>>;
  /** Costs by tool name. @defaultValue 1 for every tool */
  readonly costs?: Readonly<Record<string, number | CostFunction>>;
  /** Resources consumed by tool name, e.g. `{ search: { usd: 0.01 } }`. @defaultValue {} */
  readonly resources?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /** World-state key receiving each tool's output, by tool name. @defaultValue {} (outputs discarded) */
  readonly resultKeys?: Readonly<Record<string, string>>;
  /** Any other {@link goapifyTool} option by tool name (`input`, `maxRetries`, `qos`, `durationMs`, ...). @defaultValue {} */
  readonly toolOptions?: Readonly<Record<string, GoapifyToolOptions>>;
}

/** A compiled GOAP graph built from tools, with the goal it was made for. */
export type CompiledGoapAgent = CompiledGoapGraph & {
  /** The resolved goal (a sentence goal, interpreted). */
  readonly goapGoal: GoalSpec | MultiGoal;
  /** The `GoapGraph` behind the compiled graph (for `invoke`, `createInput`, `restorePlan`, ...). */
  readonly goapGraph: GoapGraph;
};

/** The per-tool maps and the {@link goapifyTool} option each one fills. */
const PER_TOOL_FIELDS = [
  ["preconditions", "preconditions"],
  ["effects", "effects"],
  ["costs", "cost"],
  ["resources", "resources"],
  ["resultKeys", "resultKey"],
] as const;

const AGENT_ONLY_KEYS = new Set([
  "llm",
  "interpreter",
  "interpreterOptions",
  "toolOptions",
  "checkpointer",
  "store",
  "interruptBefore",
  "interruptAfter",
  "name",
  ...PER_TOOL_FIELDS.map(([map]) => map),
]);

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
 * const result = await agent.invoke({ goal: agent.goapGoal, worldState: { topic: "GOAP" } });
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
  if (!Array.isArray(tools) || tools.length === 0) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `createGoapAgent: tools must be a non-empty array of LangChain tools, got ${describeValue(tools)}`,
    );
  }
  const toolNames = tools.filter(isLangChainTool).map((t) => t.name);
  checkPerToolMaps(options, toolNames);

  const fromTools: ActionSpec[] = [];
  const actions = validateActions(
    tools.map((tool, i) => {
      if (tool instanceof ActionSpec) return tool;
      assertLangChainTool(tool, `createGoapAgent tools[${i}]`);
      const action = goapifyTool(tool, toolOptionsFor(tool.name, options));
      fromTools.push(action);
      return action;
    }),
  );
  warnAboutNoOpTools(fromTools, options.logger ?? CONSOLE_LOGGER);

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
  return Object.assign(compiled, { goapGoal, goapGraph });
}

function checkPerToolMaps(options: CreateGoapAgentOptions, toolNames: readonly string[]): void {
  for (const map of [...PER_TOOL_FIELDS.map(([m]) => m), "toolOptions"] as const) {
    const byTool = options[map];
    if (byTool === undefined) continue;
    if (typeof byTool !== "object" || byTool === null || Array.isArray(byTool)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `createGoapAgent: options.${map} must be an object keyed by tool name, got ${describeValue(byTool)}`,
      );
    }
    for (const name of Object.keys(byTool)) {
      if (!toolNames.includes(name)) {
        throw new LangGoapError(
          "INVALID_OPTION",
          `createGoapAgent: options.${map} names "${name}", which is not one of the tools [${toolNames.join(", ")}]`,
          { option: map, tool: name },
        );
      }
    }
  }
}

/** One tool's goapifyTool options: `toolOptions[name]` plus the per-tool maps (giving a field in both is an error). */
function toolOptionsFor(name: string, options: CreateGoapAgentOptions): GoapifyToolOptions {
  const merged: Record<string, unknown> = { ...options.toolOptions?.[name] };
  for (const [map, field] of PER_TOOL_FIELDS) {
    const value = options[map]?.[name];
    if (value === undefined) continue;
    if (merged[field] !== undefined) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `createGoapAgent: tool "${name}" gets ${field} from both options.${map} and options.toolOptions; give it once`,
        { tool: name, field },
      );
    }
    merged[field] = value;
  }
  return merged as GoapifyToolOptions;
}

function warnAboutNoOpTools(fromTools: readonly ActionSpec[], logger: GoapLogger): void {
  const noOps = fromTools.filter((a) => a.effectKeys.size === 0 && !a.resources);
  if (noOps.length === 0) return;
  const names = noOps.map((a) => a.name);
  try {
    logger.warn?.(
      `createGoapAgent: tools [${names.join(", ")}] declare neither effects nor resources, so the planner treats them as no-op actions and never needs them; pass effects: { ${names[0]}: { ... } }`,
      { tools: names },
    );
  } catch {
    // A broken logger must not stop the agent from being built.
  }
}
