import type { LLMResult } from "@langchain/core/outputs";
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import { LangGoapError, type WorldState } from "../../src/core/index.js";
import { FakeStructuredChatModel } from "../../src/testing/index.js";
import { CostAccumulator, DEFAULT_COST_PER_1K_TOKENS } from "../../src/tracing/index.js";
import { type ProviderStub, startOpenAiStub } from "../support/provider-stubs.js";

let stub: ProviderStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe("CostAccumulator", () => {
  it("totals tokens, cost and calls into the world state it was given", async () => {
    const world: WorldState = { topic: "otters" };
    const costs = new CostAccumulator(world);
    expect(world).toEqual({ topic: "otters", total_tokens: 0, total_cost_usd: 0, llm_call_count: 0 });
    const llm = new FakeStructuredChatModel({
      responses: ["ok"],
      usage: { inputTokens: 1000, outputTokens: 500 },
      model: "gpt-4o-mini-2024-07-18",
      callbacks: [costs],
    });
    await llm.invoke("hello");
    await llm.invoke("again");
    // gpt-4o-mini: $0.00015 in, $0.0006 out per 1k tokens; two calls of 1000 in + 500 out.
    expect(world.total_tokens).toBe(3000);
    expect(world.total_cost_usd).toBeCloseTo(2 * (0.00015 + 0.0003), 12);
    expect(world.llm_call_count).toBe(2);
    expect(costs.sense()).toEqual({ total_tokens: 3000, total_cost_usd: world.total_cost_usd, llm_call_count: 2 });
  });

  it("reads usage from a real ChatOpenAI response", async () => {
    stub = await startOpenAiStub(["fine"], { inputTokens: 2000, outputTokens: 1000 });
    const world: WorldState = {};
    const costs = new CostAccumulator(world);
    const llm = new ChatOpenAI({ model: "gpt-4o", apiKey: "sk-test", configuration: { baseURL: `${stub.url}/v1` }, maxRetries: 0 });
    await llm.invoke("hi", { callbacks: [costs] });
    expect(world.total_tokens).toBe(3000);
    expect(world.total_cost_usd).toBeCloseTo(2 * 0.0025 + 1 * 0.01, 12);
    expect(world.llm_call_count).toBe(1);
  });

  it("prices by exact name, then the longest contained name, then the defaults", () => {
    const costs = new CostAccumulator({}, { costPer1kTokens: { "my-model": [1, 2] }, defaultInputPrice: 0.5, defaultOutputPrice: 0.25 });
    expect(costs.priceOf("gpt-4o")).toEqual(DEFAULT_COST_PER_1K_TOKENS["gpt-4o"]);
    expect(costs.priceOf("gpt-4o-mini-2024-07-18")).toEqual([0.00015, 0.0006]);
    expect(costs.priceOf("claude-sonnet-4-5-20250929")).toEqual([0.003, 0.015]);
    expect(costs.priceOf("my-model-v2")).toEqual([1, 2]);
    expect(costs.priceOf("llama3.2")).toEqual([0.5, 0.25]);
    expect(costs.priceOf(undefined)).toEqual([0.5, 0.25]);
  });

  it("falls back to legacy token usage and the model seen at start", () => {
    const world: WorldState = {};
    const costs = new CostAccumulator(world);
    costs.handleChatModelStart({}, [], "run-1", undefined, { invocation_params: { model: "o1" } });
    const legacy: LLMResult = { generations: [[{ text: "x" }]], llmOutput: { tokenUsage: { promptTokens: 1000, completionTokens: 1000 } } };
    costs.handleLLMEnd(legacy, "run-1");
    expect(world).toEqual({ total_tokens: 2000, total_cost_usd: 0.075, llm_call_count: 1 });
  });

  it("keeps adding to totals already in the state, and validates prices", () => {
    const world: WorldState = { total_tokens: 10, total_cost_usd: 1, llm_call_count: 3 };
    new CostAccumulator(world).handleLLMEnd({ generations: [] }, "r");
    expect(world).toEqual({ total_tokens: 10, total_cost_usd: 1, llm_call_count: 4 });
    expect(() => new CostAccumulator({}, { defaultInputPrice: -1 })).toThrow(LangGoapError);
    expect(() => new CostAccumulator({}, { costPer1kTokens: { x: [1] as never } })).toThrow(/\[input, output\]/);
  });
});
