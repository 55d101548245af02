/**
 * Turns LangChain tools into GOAP actions for the LLM-tool pipeline example:
 * the tool receives the world-state keys its schema names, its output is
 * stored under `resultKey`, and the declared effects are written alongside
 * (a returned object is authoritative, so it carries them).
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import { ActionSpec, type ActionSpecOptions, type Conditions, type Fact } from "../../src/core/index.js";

export interface ToolActionOptions extends Omit<ActionSpecOptions, "name" | "execute" | "effects"> {
  readonly preconditions?: Conditions;
  readonly effects: Readonly<Record<string, Fact>>;
  /** World-state key that receives the tool's raw output. */
  readonly resultKey: string;
}

export function toolAction(tool: StructuredToolInterface, options: ToolActionOptions): ActionSpec {
  const { resultKey, ...spec } = options;
  const argNames = Object.keys((tool.schema as { shape?: Record<string, unknown> }).shape ?? {});
  return new ActionSpec({
    ...spec,
    name: tool.name,
    description: tool.description,
    execute: async (state, ctx) => {
      const args = Object.fromEntries(argNames.map((k) => [k, state[k]]));
      const output = await tool.invoke(args, ctx.config as never);
      return { ...spec.effects, [resultKey]: output };
    },
  });
}
