import { describeValue, LangGoapError, type WorldState } from "../core/index.js";
import { type LangChainTool, toolArgumentNames } from "./tool-schema.js";

/**
 * How a tool's input is built from the world state: a function of the state,
 * or a mapping from tool argument to world-state key (`{ query: "topic" }`
 * passes `state.topic` as `query`; arguments left out of the mapping are read
 * from the world-state key of the same name).
 */
export type ToolInputSpec = ((state: Readonly<WorldState>) => unknown) | Readonly<Record<string, string>>;

/** @internal A tool input builder and, per argument, the world-state key it reads. */
export interface ToolInputBuilder {
  build(state: Readonly<WorldState>): unknown;
  /** The world-state key an argument is read from (`undefined` for function inputs). */
  sourceOf(argument: string): string | undefined;
}

/**
 * @internal Builds tool inputs from world state. Without a spec, the tool gets
 * the state's keys its schema declares (a key that is absent or `undefined` is
 * left out, so schema defaults and optional fields work). A tool whose schema
 * does not list its arguments (a string tool, a union) needs a spec.
 */
export function createToolInputBuilder(tool: LangChainTool, spec: ToolInputSpec | undefined): ToolInputBuilder {
  const where = `goapifyTool("${tool.name}")`;
  if (typeof spec === "function") return { build: spec, sourceOf: () => undefined };
  if (spec !== undefined && (typeof spec !== "object" || spec === null || Array.isArray(spec))) {
    throw new LangGoapError(
      "INVALID_ACTION",
      `${where}: input must be a function of the world state or an object mapping tool arguments to world-state keys, got ${describeValue(spec)}`,
      { tool: tool.name },
    );
  }
  const declared = toolArgumentNames(tool);
  const mapping = { ...(spec ?? {}) };
  for (const [argument, key] of Object.entries(mapping)) {
    if (typeof key !== "string" || key === "") {
      throw new LangGoapError(
        "INVALID_ACTION",
        `${where}: input.${argument} must name a world-state key (a non-empty string), got ${describeValue(key)}`,
        { tool: tool.name, argument },
      );
    }
    if (declared && !declared.includes(argument)) {
      throw new LangGoapError(
        "INVALID_ACTION",
        `${where}: input maps "${argument}", which the tool's schema does not declare; its arguments are [${declared.join(", ")}]`,
        { tool: tool.name, argument, declared },
      );
    }
  }
  if (declared === undefined && spec === undefined) {
    throw new LangGoapError(
      "INVALID_ACTION",
      `${where}: the tool's schema does not list its arguments (a string tool or a non-object schema), so its input cannot be read from the world state; pass input: (state) => ...`,
      { tool: tool.name },
    );
  }
  const argumentsToRead = declared ?? Object.keys(mapping);
  const sourceOf = (argument: string): string | undefined =>
    argumentsToRead.includes(argument) ? (mapping[argument] ?? argument) : undefined;
  return {
    sourceOf,
    build(state) {
      const input: Record<string, unknown> = {};
      for (const argument of argumentsToRead) {
        const value = state[mapping[argument] ?? argument];
        if (value !== undefined) input[argument] = value;
      }
      return input;
    },
  };
}
