import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";

/** Options passed to `llm.withStructuredOutput(schema, options)`. */
export interface StructuredOutputOptions {
  /** Tool / schema name the model answers with. @defaultValue "goal" */
  readonly name?: string;
  /** `functionCalling`, `jsonMode` or `jsonSchema`. @defaultValue "functionCalling" for OpenAI models, the model's own default otherwise */
  readonly method?: string;
  readonly strict?: boolean;
}

const STRUCTURED_OUTPUT_OPTIONS_KEYS = { name: true, method: true, strict: true } as const satisfies OptionKeys<StructuredOutputOptions>;

/**
 * @internal
 * Structured-output options for a model: OpenAI models get function calling,
 * because strict JSON-schema mode rejects optional keys, which a goal's
 * conditions are.
 */
export function structuredOutputOptionsFor(llm: BaseChatModel, name: string, given?: StructuredOutputOptions): StructuredOutputOptions {
  checkOptionKeys(given, STRUCTURED_OUTPUT_OPTIONS_KEYS, "structuredOutput (StructuredOutputOptions)");
  let llmType = "";
  try {
    llmType = typeof llm._llmType === "function" ? llm._llmType() : "";
  } catch {
    llmType = "";
  }
  const method = /openai/i.test(llmType) ? "functionCalling" : undefined;
  return { name, ...(method ? { method } : {}), ...given };
}

/** A model's answer that could not be used, as thrown by LangChain's parsers. */
export interface RejectedAnswer {
  readonly message: string;
  /** The model's raw output, when the parser kept it. */
  readonly rawOutput: string | undefined;
  readonly refusal: boolean;
}

const TROUBLESHOOTING = /\n*Troubleshooting URL: \S+\n*/g;

/**
 * @internal
 * Tells a bad answer (unparseable, schema mismatch, refusal, no tool call)
 * from a failure to reach the model (network, auth, abort). Bad answers are
 * worth a corrective retry; the rest are not.
 */
export function asRejectedAnswer(error: unknown): RejectedAnswer | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { lc_error_code?: string }).lc_error_code;
  const message = error.message.replace(TROUBLESHOOTING, "").trim();
  if (error.name === "ModelRefusalError") return { message: `the model refused: ${message}`, rawOutput: undefined, refusal: true };
  if (code === "OUTPUT_PARSING_FAILURE" || error.name === "OutputParserException") {
    const raw = (error as { llmOutput?: unknown }).llmOutput;
    return { message, rawOutput: typeof raw === "string" ? raw : undefined, refusal: false };
  }
  if (error.name === "ZodError" || error instanceof SyntaxError || /no tool call/i.test(message)) {
    return { message, rawOutput: undefined, refusal: false };
  }
  return undefined;
}

/** @internal Parses a model's raw output as JSON, tolerating a ```json fence; `undefined` when it is not JSON. */
export function parseJsonOutput(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  try {
    return JSON.parse((fenced?.[1] ?? text).trim());
  } catch {
    return undefined;
  }
}

/** What a raw model message says: the structured candidate it carries, a refusal, and its text. */
export interface RawAnswer {
  /** Tool-call arguments or JSON content; `undefined` when there is none. */
  readonly candidate: unknown;
  readonly refusal: string | undefined;
  readonly text: string | undefined;
}

function messageText(content: unknown): string | undefined {
  if (typeof content === "string") return content || undefined;
  if (!Array.isArray(content)) return undefined;
  const parts = content.map((b: { text?: unknown }) => (typeof b?.text === "string" ? b.text : "")).filter(Boolean);
  return parts.length ? parts.join("\n") : undefined;
}

/**
 * @internal
 * Reads a raw `AIMessage` (from `includeRaw`) when the provider's parser gave
 * nothing: the first tool call's arguments, else JSON in the text; and a
 * refusal (OpenAI's `refusal` field or a `refusal` content block).
 */
export function readRawAnswer(raw: unknown): RawAnswer {
  const message = (raw ?? {}) as {
    tool_calls?: { args?: unknown }[];
    invalid_tool_calls?: { args?: unknown }[];
    additional_kwargs?: { refusal?: unknown };
    content?: unknown;
  };
  const text = messageText(message.content);
  let refusal = typeof message.additional_kwargs?.refusal === "string" ? message.additional_kwargs.refusal : undefined;
  if (!refusal && Array.isArray(message.content)) {
    const block = message.content.find((b: { type?: unknown }) => b?.type === "refusal") as { refusal?: unknown } | undefined;
    if (block) refusal = typeof block.refusal === "string" ? block.refusal : "refused";
  }
  let candidate: unknown = message.tool_calls?.[0]?.args;
  if (candidate === undefined) {
    const invalid = message.invalid_tool_calls?.[0]?.args;
    candidate = typeof invalid === "string" ? parseJsonOutput(invalid) : undefined;
  }
  if (candidate === undefined) candidate = parseJsonOutput(text);
  return { candidate, refusal, text };
}

/** @internal True for the `{ raw, parsed }` pair `includeRaw` produces. */
export function isRawAndParsed(value: unknown): value is { raw: unknown; parsed: unknown } {
  return typeof value === "object" && value !== null && "raw" in value && "parsed" in value && Object.keys(value).length === 2;
}
