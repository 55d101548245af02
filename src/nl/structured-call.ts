import type { BaseChatModel } from "@langchain/core/language_models/chat_models";

/** Options passed to `llm.withStructuredOutput(schema, options)`. */
export interface StructuredOutputOptions {
  /** Tool / schema name the model answers with. @defaultValue "goal" */
  readonly name?: string;
  /** `functionCalling`, `jsonMode` or `jsonSchema`. @defaultValue "functionCalling" for OpenAI models, the model's own default otherwise */
  readonly method?: string;
  readonly strict?: boolean;
}

/**
 * Structured-output options for a model: OpenAI models get function calling,
 * because strict JSON-schema mode rejects optional keys, which a goal's
 * conditions are.
 */
export function structuredOutputOptionsFor(llm: BaseChatModel, name: string, given?: StructuredOutputOptions): StructuredOutputOptions {
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

/** Parses a model's raw output as JSON, tolerating a ```json fence; `undefined` when it is not JSON. */
export function parseJsonOutput(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  try {
    return JSON.parse((fenced?.[1] ?? text).trim());
  } catch {
    return undefined;
  }
}
