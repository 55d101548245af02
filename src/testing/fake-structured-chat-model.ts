import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseLanguageModelInput, StructuredOutputMethodOptions } from "@langchain/core/language_models/base";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from "@langchain/core/language_models/chat_models";
import { assembleStructuredOutputPipeline, createContentParser } from "@langchain/core/language_models/structured_output";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { Runnable } from "@langchain/core/runnables";
import type { SerializableSchema } from "@langchain/core/utils/standard_schema";
import type { InteropZodType } from "@langchain/core/utils/types";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";

/** What one structured call asked for. */
export interface FakeStructuredRequest {
  /** The schema (tool) name given to `withStructuredOutput`. */
  readonly name: string;
  /** The method given to `withStructuredOutput`, if any. */
  readonly method: string | undefined;
}

/** One recorded call of the fake model. */
export interface FakeChatCall {
  /** 0-based position among all calls. */
  readonly index: number;
  readonly messages: readonly BaseMessage[];
  /** Set when the call came through `withStructuredOutput`. */
  readonly structured: FakeStructuredRequest | undefined;
  /** The text the model answered (absent when the answer was an error). */
  readonly output: string | undefined;
}

/**
 * A scripted answer: an object (sent as JSON), a string (sent as-is), an
 * `AIMessage` (returned as-is: tool calls, refusals, metadata), an `Error`
 * (thrown, as a provider failure would be), or a function of the call that
 * returns one of those.
 */
export type FakeAnswer = unknown;

/** Options of {@link FakeStructuredChatModel}. */
export interface FakeStructuredChatModelOptions extends BaseChatModelParams {
  /** Answers in order; once used up, the last one repeats. */
  readonly responses: readonly FakeAnswer[];
  /** Token usage reported with each answer (as `usage_metadata`). @defaultValue none */
  readonly usage?: { readonly inputTokens: number; readonly outputTokens: number };
  /** Model name reported in `response_metadata.model_name`. @defaultValue "fake-structured-model" */
  readonly model?: string;
  /** Delay before each answer in ms; `Infinity` waits until the call is aborted. Honours abort signals. @defaultValue 0 */
  readonly delayMs?: number;
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    function done(): void {
      signal?.removeEventListener("abort", abort);
      resolve();
    }
    function abort(): void {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error("aborted"));
    }
    signal?.addEventListener("abort", abort, { once: true });
  });
}

function toolName(tool: BindToolsInput): string {
  const t = tool as { name?: unknown; function?: { name?: unknown } };
  if (typeof t.name === "string") return t.name;
  if (typeof t.function?.name === "string") return t.function.name;
  return "tool";
}

/** Its options: its own and LangChain's chat model params (passed to the base class). */
const FAKE_STRUCTURED_CHAT_MODEL_OPTIONS_KEYS = {
  responses: true,
  usage: true,
  model: true,
  delayMs: true,
  verbose: true,
  callbacks: true,
  tags: true,
  metadata: true,
  callbackManager: true,
  cache: true,
  maxConcurrency: true,
  maxRetries: true,
  onFailedAttempt: true,
  disableStreaming: true,
  outputVersion: true,
} as const satisfies OptionKeys<FakeStructuredChatModelOptions>;

/**
 * A chat model for tests that answers from a script, records every call, and
 * — unlike LangChain's own fakes — really validates structured output: its
 * `withStructuredOutput(schema)` parses the answer with the given zod (or
 * Standard) schema and throws LangChain's `OutputParserException` (with the
 * raw answer) when it does not fit, exactly as a real provider client does.
 * Callbacks see ordinary chat-model runs, with token usage when configured.
 *
 * @example
 * ```ts
 * const llm = new FakeStructuredChatModel({ responses: [{ conditions: { is_hungry: false } }] });
 * const goal = await new GoalInterpreter(llm, actions).interpret("I'm hungry");
 * llm.calls[0].structured?.name; // "goal"
 * ```
 */
export class FakeStructuredChatModel extends BaseChatModel {
  readonly calls: FakeChatCall[] = [];
  readonly #responses: readonly FakeAnswer[];
  readonly #usage: FakeStructuredChatModelOptions["usage"];
  readonly #model: string;
  readonly #delayMs: number;

  static override lc_name(): string {
    return "FakeStructuredChatModel";
  }

  constructor(options: FakeStructuredChatModelOptions) {
    super(options);
    checkOptionKeys(options, FAKE_STRUCTURED_CHAT_MODEL_OPTIONS_KEYS, "new FakeStructuredChatModel()");
    if (!Array.isArray(options?.responses) || options.responses.length === 0) {
      throw new TypeError("FakeStructuredChatModel: responses must be a non-empty array");
    }
    this.#responses = [...options.responses];
    this.#usage = options.usage;
    this.#model = options.model ?? "fake-structured-model";
    this.#delayMs = options.delayMs ?? 0;
  }

  /** The names of the tools each `bindTools` call bound (tool-calling agents bind before calling). */
  readonly boundTools: string[][] = [];

  /**
   * Binds tools as a tool-calling agent expects; the script decides the
   * answers (return an `AIMessage` with `tool_calls` to call a tool). The
   * names bound are recorded in {@link FakeStructuredChatModel.boundTools}.
   */
  override bindTools(tools: BindToolsInput[], kwargs?: Partial<this["ParsedCallOptions"]>) {
    this.boundTools.push(tools.map((t) => toolName(t)));
    return this.withConfig({ ...(kwargs ?? {}), tools } as Partial<BaseChatModelCallOptions>);
  }

  /** Number of calls made so far. */
  get callCount(): number {
    return this.calls.length;
  }

  override _llmType(): string {
    return "fake-structured";
  }

  override async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const format = (options as BaseChatModelCallOptions).ls_structured_output_format;
    const title = (format?.schema as { title?: unknown } | undefined)?.title;
    const structured = format
      ? { name: typeof title === "string" ? title : "extract", method: format.kwargs?.method as string | undefined }
      : undefined;
    const index = this.calls.length;
    const pending = { index, messages: [...messages], structured, output: undefined as string | undefined };
    this.calls.push(pending);
    if (this.#delayMs > 0) await wait(this.#delayMs, options.signal);
    let answer = this.#responses[Math.min(index, this.#responses.length - 1)];
    if (typeof answer === "function") answer = (answer as (call: FakeChatCall) => unknown)(pending);
    if (answer instanceof Error) throw answer;
    if (AIMessage.isInstance(answer)) {
      pending.output = typeof answer.content === "string" ? answer.content : JSON.stringify(answer.content);
      return { generations: [{ text: pending.output, message: answer }] };
    }
    const text = typeof answer === "string" ? answer : JSON.stringify(answer);
    pending.output = text;
    const usage = this.#usage;
    const message = new AIMessage({
      content: text,
      response_metadata: { model_name: this.#model },
      ...(usage
        ? {
            usage_metadata: {
              input_tokens: usage.inputTokens,
              output_tokens: usage.outputTokens,
              total_tokens: usage.inputTokens + usage.outputTokens,
            },
          }
        : {}),
    });
    return { generations: [{ text, message }] };
  }

  // biome-ignore lint/suspicious/noExplicitAny: mirrors BaseChatModel's generic constraint so the override type-checks.
  override withStructuredOutput<RunOutput extends Record<string, any> = Record<string, any>>(
    // biome-ignore lint/suspicious/noExplicitAny: same as above.
    schema: InteropZodType<RunOutput> | SerializableSchema<RunOutput> | Record<string, any>,
    config?: StructuredOutputMethodOptions<false>,
  ): Runnable<BaseLanguageModelInput, RunOutput>;
  // biome-ignore lint/suspicious/noExplicitAny: same as above.
  override withStructuredOutput<RunOutput extends Record<string, any> = Record<string, any>>(
    // biome-ignore lint/suspicious/noExplicitAny: same as above.
    schema: InteropZodType<RunOutput> | SerializableSchema<RunOutput> | Record<string, any>,
    config?: StructuredOutputMethodOptions<true>,
  ): Runnable<BaseLanguageModelInput, { raw: BaseMessage; parsed: RunOutput }>;
  // biome-ignore lint/suspicious/noExplicitAny: same as above.
  override withStructuredOutput<RunOutput extends Record<string, any> = Record<string, any>>(
    // biome-ignore lint/suspicious/noExplicitAny: same as above.
    schema: InteropZodType<RunOutput> | SerializableSchema<RunOutput> | Record<string, any>,
    config?: StructuredOutputMethodOptions<boolean>,
  ): Runnable<BaseLanguageModelInput, RunOutput> | Runnable<BaseLanguageModelInput, { raw: BaseMessage; parsed: RunOutput }> {
    const name = config?.name ?? "extract";
    const bound = this.withConfig({
      ls_structured_output_format: { kwargs: { method: config?.method ?? "default" }, schema: { title: name } },
    } as Partial<BaseChatModelCallOptions>);
    const parser = createContentParser<RunOutput>(schema);
    return assembleStructuredOutputPipeline<RunOutput>(bound, parser, config?.includeRaw, "StructuredOutput");
  }
}
