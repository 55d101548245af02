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
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { fillTemplate, renderWorldState } from "./prompt.js";
import { invokeModel, type ProviderCallSettings, providerCallSettings } from "./provider-call.js";
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
  /**
   * Answers slower than this, the client's own retries included, count as
   * UNKNOWN (the request is aborted). The client's `maxRetries` is the only
   * retry policy. @defaultValue 30000
   */
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

const PROMPT_CONDITION_RESOLVER_OPTIONS_KEYS = {
  promptTemplate: true,
  timeoutMs: true,
  facts: true,
  name: true,
  onError: true,
} as const satisfies OptionKeys<PromptConditionResolverOptions>;

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
  readonly #call: ProviderCallSettings;
  readonly #facts: FactCatalog;
  readonly #onError: ((error: unknown, key: string) => void) | undefined;

  constructor(llm: BaseChatModel, options: PromptConditionResolverOptions = {}) {
    checkOptionKeys(options, PROMPT_CONDITION_RESOLVER_OPTIONS_KEYS, "new PromptConditionResolver()");
    if (typeof llm?.withStructuredOutput !== "function") {
      throw new LangGoapError(
        "INVALID_OPTION",
        `PromptConditionResolver: llm must be a chat model with withStructuredOutput(), got ${describeValue(llm)}`,
      );
    }
    this.#call = providerCallSettings("PromptConditionResolver", options.timeoutMs ?? 30_000);
    this.#llm = llm;
    this.#template = options.promptTemplate ?? DEFAULT_CONDITION_PROMPT;
    this.#facts = options.facts ?? {};
    this.#onError = options.onError;
    this.name = options.name ?? "PromptConditionResolver";
  }

  async resolve(key: string, worldState: Readonly<WorldState>): Promise<ConditionStatus> {
    try {
      const description = this.#facts[key]?.description;
      const prompt = fillTemplate(this.#template, {
        // Keys are names the domain declares, but still bounded and escaped: they can come from data too.
        key: displayText(key, { maxChars: 200 }),
        description: description ? `\nMeaning: ${description}` : "",
        world_state: renderWorldState(worldState),
      });
      const structured = this.#llm.withStructuredOutput(answerSchema, structuredOutputOptionsFor(this.#llm, "condition_status"));
      const answer = await invokeModel(
        structured,
        [new HumanMessage(prompt)],
        undefined,
        this.#call,
        `PromptConditionResolver: the answer for "${displayText(key, { maxChars: 200 })}"`,
        { count: 0 },
      );
      return toConditionStatus((answer as { status?: unknown } | undefined)?.status);
    } catch (error) {
      try {
        this.#onError?.(error, key);
      } catch {
        // An error reporter that throws must not turn UNKNOWN into a crash.
      }
      return ConditionStatus.UNKNOWN;
    }
  }
}
