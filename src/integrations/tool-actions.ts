import {
  ActionSpec,
  type Conditions,
  type CostFunction,
  describeValue,
  type Effects,
  LangGoapError,
  validateActions,
} from "../core/index.js";
import { CONSOLE_LOGGER, type GoapLogger } from "../graph/index.js";
import { type GoapifyToolOptions, goapifyTool } from "./goapify-tool.js";
import { assertLangChainTool, isLangChainTool, type LangChainTool } from "./tool-schema.js";

/** Planning models of LangChain tools, given per tool name (shared by the agent factories). */
export interface ToolPlanningOptions {
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

/** The per-tool maps and the {@link goapifyTool} option each one fills. */
export const PER_TOOL_FIELDS = [
  ["preconditions", "preconditions"],
  ["effects", "effects"],
  ["costs", "cost"],
  ["resources", "resources"],
  ["resultKeys", "resultKey"],
] as const;

/** The option keys of {@link ToolPlanningOptions} (not graph options). */
export const TOOL_PLANNING_KEYS: readonly string[] = [...PER_TOOL_FIELDS.map(([map]) => map), "toolOptions"];

/**
 * @internal Turns LangChain tools (and ready-made actions) into validated
 * actions: each tool through {@link goapifyTool} with its per-tool planning
 * model. Errors and the no-op warning name `where` (the calling factory).
 */
export function actionsFromTools(
  tools: readonly (LangChainTool | ActionSpec)[],
  options: ToolPlanningOptions,
  logger: GoapLogger | undefined,
  where: string,
): readonly ActionSpec[] {
  if (!Array.isArray(tools) || tools.length === 0) {
    throw new LangGoapError("INVALID_OPTION", `${where}: tools must be a non-empty array of LangChain tools, got ${describeValue(tools)}`);
  }
  const toolNames = tools.filter(isLangChainTool).map((t) => t.name);
  checkPerToolMaps(options, toolNames, where);
  const fromTools: ActionSpec[] = [];
  const actions = validateActions(
    tools.map((tool, i) => {
      if (tool instanceof ActionSpec) return tool;
      assertLangChainTool(tool, `${where} tools[${i}]`);
      const action = goapifyTool(tool, toolOptionsFor(tool.name, options, where));
      fromTools.push(action);
      return action;
    }),
  );
  warnAboutNoOpTools(fromTools, logger ?? CONSOLE_LOGGER, where);
  return actions;
}

function checkPerToolMaps(options: ToolPlanningOptions, toolNames: readonly string[], where: string): void {
  for (const map of TOOL_PLANNING_KEYS as readonly (keyof ToolPlanningOptions)[]) {
    const byTool = options[map];
    if (byTool === undefined) continue;
    if (typeof byTool !== "object" || byTool === null || Array.isArray(byTool)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `${where}: options.${map} must be an object keyed by tool name, got ${describeValue(byTool)}`,
      );
    }
    for (const name of Object.keys(byTool)) {
      if (!toolNames.includes(name)) {
        throw new LangGoapError(
          "INVALID_OPTION",
          `${where}: options.${map} names "${name}", which is not one of the tools [${toolNames.join(", ")}]`,
          { option: map, tool: name },
        );
      }
    }
  }
}

/** One tool's goapifyTool options: `toolOptions[name]` plus the per-tool maps (giving a field in both is an error). */
function toolOptionsFor(name: string, options: ToolPlanningOptions, where: string): GoapifyToolOptions {
  const merged: Record<string, unknown> = { ...options.toolOptions?.[name] };
  for (const [map, field] of PER_TOOL_FIELDS) {
    const value = options[map]?.[name];
    if (value === undefined) continue;
    if (merged[field] !== undefined) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `${where}: tool "${name}" gets ${field} from both options.${map} and options.toolOptions; give it once`,
        { tool: name, field },
      );
    }
    merged[field] = value;
  }
  return merged as GoapifyToolOptions;
}

function warnAboutNoOpTools(fromTools: readonly ActionSpec[], logger: GoapLogger, where: string): void {
  const noOps = fromTools.filter((a) => a.effectKeys.size === 0 && !a.resources);
  if (noOps.length === 0) return;
  const names = noOps.map((a) => a.name);
  try {
    logger.warn?.(
      `${where}: tools [${names.join(", ")}] declare neither effects nor resources, so the planner treats them as no-op actions and never needs them; pass effects: { ${names[0]}: { ... } }`,
      { tools: names },
    );
  } catch {
    // A broken logger must not stop the agent from being built.
  }
}
