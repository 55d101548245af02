import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { BaseMessage } from "@langchain/core/messages";
import type { LLMResult } from "@langchain/core/outputs";
import { describeValue, LangGoapError, type WorldState } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";

/** USD per 1,000 tokens: `[input, output]`. */
export type TokenPrice = readonly [input: number, output: number];

/**
 * Prices per 1,000 tokens (USD, `[input, output]`) of common models, as in
 * LangGOAP. A model name matches exactly, else by the longest key it
 * contains (`gpt-4o-mini-2024-07-18` → `gpt-4o-mini`).
 */
export const DEFAULT_COST_PER_1K_TOKENS: Readonly<Record<string, TokenPrice>> = Object.freeze({
  "gpt-4o": [0.0025, 0.01],
  "gpt-4o-mini": [0.00015, 0.0006],
  "gpt-4.1": [0.002, 0.008],
  "gpt-4.1-mini": [0.0004, 0.0016],
  "gpt-4.1-nano": [0.0001, 0.0004],
  o1: [0.015, 0.06],
  "o1-mini": [0.003, 0.012],
  "o3-mini": [0.0011, 0.0044],
  "claude-3-5-sonnet": [0.003, 0.015],
  "claude-3-5-haiku": [0.001, 0.005],
  "claude-3-opus": [0.015, 0.075],
  "claude-sonnet-4": [0.003, 0.015],
  "claude-opus-4": [0.015, 0.075],
});

/** The world-state keys {@link CostAccumulator} maintains (read by the cost, token and call termination policies). */
export interface CostTotals {
  readonly total_tokens: number;
  readonly total_cost_usd: number;
  readonly llm_call_count: number;
}

/** Options of {@link CostAccumulator}. */
export interface CostAccumulatorOptions {
  /** Extra or overriding prices; merged over {@link DEFAULT_COST_PER_1K_TOKENS} (yours win). @defaultValue {} */
  readonly costPer1kTokens?: Readonly<Record<string, TokenPrice>>;
  /** Input price per 1,000 tokens for unknown models. @defaultValue 0 */
  readonly defaultInputPrice?: number;
  /** Output price per 1,000 tokens for unknown models. @defaultValue 0 */
  readonly defaultOutputPrice?: number;
}

interface Usage {
  input: number;
  output: number;
  model: string | undefined;
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

function checkPrice(name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new LangGoapError("INVALID_OPTION", `CostAccumulator: ${name} must be a finite number >= 0, got ${describeValue(value)}`);
  }
  return value;
}

const COST_ACCUMULATOR_OPTIONS_KEYS = {
  costPer1kTokens: true,
  defaultInputPrice: true,
  defaultOutputPrice: true,
} as const satisfies OptionKeys<CostAccumulatorOptions>;

/**
 * A LangChain callback handler that totals what chat models cost: after each
 * call it adds the tokens, the price (from the model's name) and one call to
 * `total_tokens`, `total_cost_usd` and `llm_call_count` of the world state
 * it was given (mutated in place), so `MaxCostPolicy`, `MaxTokensPolicy` and
 * `MaxLLMCallsPolicy` can stop a run. Handlers are awaited, so totals are
 * current when the model call returns. It is also a sensor (`sense()`
 * returns the totals), and `totals` can be merged into an action's result.
 *
 * @example
 * ```ts
 * const costs = new CostAccumulator(worldState);
 * const llm = new ChatOpenAI({ model: "gpt-4o-mini", callbacks: [costs] });
 * // ... after calls: worldState.total_cost_usd, worldState.total_tokens, worldState.llm_call_count
 * ```
 */
export class CostAccumulator extends BaseCallbackHandler {
  override name = "langgoap_cost_accumulator";
  readonly worldState: WorldState;
  readonly #prices: Readonly<Record<string, TokenPrice>>;
  readonly #defaultPrice: TokenPrice;
  readonly #models = new Map<string, string>();

  constructor(worldState: WorldState = {}, options: CostAccumulatorOptions = {}) {
    super({ _awaitHandler: true });
    checkOptionKeys(options, COST_ACCUMULATOR_OPTIONS_KEYS, "new CostAccumulator()");
    if (typeof worldState !== "object" || worldState === null) {
      throw new LangGoapError("INVALID_OPTION", `CostAccumulator: worldState must be an object, got ${describeValue(worldState)}`);
    }
    const prices: Record<string, TokenPrice> = { ...DEFAULT_COST_PER_1K_TOKENS };
    for (const [model, price] of Object.entries(options.costPer1kTokens ?? {})) {
      if (!Array.isArray(price) || price.length !== 2) {
        throw new LangGoapError(
          "INVALID_OPTION",
          `CostAccumulator: costPer1kTokens["${model}"] must be [input, output], got ${describeValue(price)}`,
        );
      }
      prices[model] = [checkPrice(`costPer1kTokens["${model}"][0]`, price[0]), checkPrice(`costPer1kTokens["${model}"][1]`, price[1])];
    }
    this.#prices = Object.freeze(prices);
    this.#defaultPrice = [
      checkPrice("defaultInputPrice", options.defaultInputPrice ?? 0),
      checkPrice("defaultOutputPrice", options.defaultOutputPrice ?? 0),
    ];
    this.worldState = worldState;
    for (const key of ["total_tokens", "total_cost_usd", "llm_call_count"] as const) worldState[key] = num(worldState[key]);
  }

  /** The running totals, as world-state updates. */
  get totals(): CostTotals {
    return {
      total_tokens: num(this.worldState.total_tokens),
      total_cost_usd: num(this.worldState.total_cost_usd),
      llm_call_count: num(this.worldState.llm_call_count),
    };
  }

  /** As a sensor: the totals, merged into the world state before each planning round. */
  sense(): CostTotals {
    return this.totals;
  }

  /** The price used for a model name: exact, else the longest known name it contains, else the defaults. */
  priceOf(model: string | undefined): TokenPrice {
    if (!model) return this.#defaultPrice;
    const exact = this.#prices[model];
    if (exact) return exact;
    let best: string | undefined;
    for (const key of Object.keys(this.#prices)) if (model.includes(key) && (!best || key.length > best.length)) best = key;
    return best ? (this.#prices[best] as TokenPrice) : this.#defaultPrice;
  }

  override handleChatModelStart(
    _llm: unknown,
    _messages: BaseMessage[][],
    runId: string,
    _parentRunId?: string,
    extraParams?: Record<string, unknown>,
    _tags?: string[],
    metadata?: Record<string, unknown>,
  ): void {
    const params = extraParams?.invocation_params as Record<string, unknown> | undefined;
    const model = params?.model ?? params?.model_name ?? metadata?.ls_model_name;
    if (typeof model === "string") this.#models.set(runId, model);
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    const usage = this.#usageOf(output, this.#models.get(runId));
    this.#models.delete(runId);
    const [inPrice, outPrice] = this.priceOf(usage.model);
    const state = this.worldState;
    state.total_tokens = num(state.total_tokens) + usage.input + usage.output;
    state.total_cost_usd = num(state.total_cost_usd) + (usage.input / 1000) * inPrice + (usage.output / 1000) * outPrice;
    state.llm_call_count = num(state.llm_call_count) + 1;
  }

  override handleLLMError(_error: unknown, runId: string): void {
    this.#models.delete(runId);
  }

  #usageOf(output: LLMResult, startModel: string | undefined): Usage {
    let input = 0;
    let outputTokens = 0;
    let model: string | undefined;
    let found = false;
    for (const generations of output.generations ?? []) {
      const message = (generations?.[0] as { message?: BaseMessage } | undefined)?.message as
        | { usage_metadata?: { input_tokens?: unknown; output_tokens?: unknown }; response_metadata?: Record<string, unknown> }
        | undefined;
      const usage = message?.usage_metadata;
      if (usage) {
        found = true;
        input += num(usage.input_tokens);
        outputTokens += num(usage.output_tokens);
      }
      const named = message?.response_metadata?.model_name ?? message?.response_metadata?.model;
      if (typeof named === "string") model ??= named;
    }
    const llmOutput = output.llmOutput ?? {};
    if (!found) {
      const camel = llmOutput.tokenUsage as { promptTokens?: unknown; completionTokens?: unknown } | undefined;
      const snake = llmOutput.token_usage as { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined;
      input = num(camel?.promptTokens ?? snake?.prompt_tokens);
      outputTokens = num(camel?.completionTokens ?? snake?.completion_tokens);
    }
    const fallback = llmOutput.model_name ?? llmOutput.model;
    return { input, output: outputTokens, model: model ?? (typeof fallback === "string" ? fallback : startModel) };
  }
}
