import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage } from "@langchain/core/messages";
import { z } from "zod";
import {
  type ConditionResolver,
  ConditionStatus,
  describeValue,
  displayText,
  type FactCatalog,
  LangGoapError,
  toConditionStatus,
  type WorldState,
} from "../core/index.js";

import { fillTemplate, renderWorldState } from "./prompt.js";
import { structuredOutputOptionsFor } from "./structured-call.js";

/** Default prompt of {@link PromptConditionResolver}; placeholders `{key}`, `{description}`, `{world_state}`. */
export const DEFAULT_CONDITION_PROMPT = `You are a planning assistant. Decide whether the following condition is TRUE, FALSE or UNKNOWN given the current world state.

Condition key: {key}{description}
World state:
{world_state}

Answer "true", "false" or "unknown". Say "unknown" when the world state does not settle it.`;

/** Options of {@link PromptConditionResolver}. */
export interface PromptConditionResolverOptions {
  /** Prompt template with `{key}`, `{description}` and `{world_state}` placeholders. @defaultValue {@link DEFAULT_CONDITION_PROMPT} */
  readonly promptTemplate?: string;
  /** Answers slower than this count as UNKNOWN (the call is aborted). @defaultValue 30000 */
  readonly timeoutMs?: number;
  /** Declared facts; a key's description is shown to the model. @defaultValue {} */
  readonly facts?: FactCatalog;
  /** Resolver name in traces. @defaultValue "PromptConditionResolver" */
  readonly name?: string;
  /** Told about errors and timeouts (which resolve to UNKNOWN). @defaultValue none */
  readonly onError?: (error: unknown, key: string) => void;
}

const answerSchema = z.object({
  status: z.string().describe('"true", "false" or "unknown"'),
  reasoning: z.string().optional().describe("One short sentence."),
});

/**
 * Asks a chat model whether a condition holds, three-valued. Any error, a
 * refusal, an unreadable answer or a timeout gives UNKNOWN, never a throw, so
 * a flaky model can only make the planner more careful.
 *
 * @example
 * ```ts
 * const resolver = new PromptConditionResolver(llm, { timeoutMs: 5000 });
 * await resolver.resolve("door_is_safe", { smoke: false }); // "true" | "false" | "unknown"
 * ```
 */
export class PromptConditionResolver implements ConditionResolver {
  readonly name: string;
  readonly #llm: BaseChatModel;
  readonly #template: string;
  readonly #timeoutMs: number;
  readonly #facts: FactCatalog;
  readonly #onError: ((error: unknown, key: string) => void) | undefined;

  constructor(llm: BaseChatModel, options: PromptConditionResolverOptions = {}) {
    if (typeof llm?.withStructuredOutput !== "function") {
      throw new LangGoapError(
        "INVALID_OPTION",
        `PromptConditionResolver: llm must be a chat model with withStructuredOutput(), got ${describeValue(llm)}`,
      );
    }
    const timeoutMs = options.timeoutMs ?? 30_000;
    if (typeof timeoutMs !== "number" || !(timeoutMs > 0)) {
      throw new LangGoapError("INVALID_OPTION", `PromptConditionResolver: timeoutMs must be a number > 0, got ${describeValue(timeoutMs)}`);
    }
    this.#llm = llm;
    this.#template = options.promptTemplate ?? DEFAULT_CONDITION_PROMPT;
    this.#timeoutMs = timeoutMs;
    this.#facts = options.facts ?? {};
    this.#onError = options.onError;
    this.name = options.name ?? "PromptConditionResolver";
  }

  async resolve(key: string, worldState: Readonly<WorldState>): Promise<ConditionStatus> {
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new LangGoapError(
          "INTERPRETER_ERROR",
          `PromptConditionResolver: no answer for "${key}" within ${this.#timeoutMs} ms`,
          {
            key,
          },
        );
        controller.abort(error);
        reject(error);
      }, this.#timeoutMs);
    });
    try {
      const description = this.#facts[key]?.description;
      const prompt = fillTemplate(this.#template, {
        // Keys are names the domain declares, but still bounded and escaped: they can come from data too.
        key: displayText(key, { maxChars: 200 }),
        description: description ? `\nMeaning: ${description}` : "",
        world_state: renderWorldState(worldState),
      });
      const structured = this.#llm.withStructuredOutput(answerSchema, structuredOutputOptionsFor(this.#llm, "condition_status"));
      const answer = await Promise.race([structured.invoke([new HumanMessage(prompt)], { signal: controller.signal }), timeout]);
      return toConditionStatus((answer as { status?: unknown } | undefined)?.status);
    } catch (error) {
      try {
        this.#onError?.(error, key);
      } catch {
        // An error reporter that throws must not turn UNKNOWN into a crash.
      }
      return ConditionStatus.UNKNOWN;
    } finally {
      clearTimeout(timer);
    }
  }
}
