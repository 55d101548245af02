/**
 * How many HTTP calls a failing provider costs, counted at loopback stubs of
 * the OpenAI, Anthropic and Ollama APIs with the real LangChain clients.
 * The documented rule (ProviderRetryOptions): the client's own `maxRetries`
 * is the one retry policy (1 + maxRetries calls with ChatOpenAI and
 * ChatAnthropic; ChatOllama makes none of its own); our `retry.maxAttempts`
 * (off by default) goes through LangChain's `withRetry()` and only retries
 * transient failures. Nothing stacks unless both are set.
 */
import { ChatAnthropic } from "@langchain/anthropic";
import { ChatOllama } from "@langchain/ollama";
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { DEFAULT_MODEL_TIMEOUT_MS, GoalInterpreter, isTransientProviderError } from "../../src/nl/index.js";
import {
  HttpFailure,
  NO_ANSWER,
  type ProviderStub,
  startAnthropicStub,
  startOllamaStub,
  startOpenAiStub,
} from "../support/provider-stubs.js";
import { villageActions, villageFacts, villageStart } from "../support/village.js";

const RATE_LIMITED = new HttpFailure(429, {
  error: { message: "Rate limit reached for gpt-4o-mini", type: "requests", code: "rate_limit_exceeded" },
});
const SERVER_ERROR = new HttpFailure(500, { error: { message: "stub: internal error", type: "api_error" } });
const HUNGRY = { conditions: { is_hungry: false }, reasoning: "eat" };

let stub: ProviderStub | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await stub?.close();
  stub = undefined;
});

const openAi = (url: string, maxRetries: number) =>
  new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", configuration: { baseURL: `${url}/v1` }, maxRetries });
const anthropic = (url: string, maxRetries: number) =>
  new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "sk-ant-test", anthropicApiUrl: url, maxRetries });
const ollama = (url: string) => new ChatOllama({ model: "llama3.1", baseUrl: url });

async function failureOf(promise: Promise<unknown>): Promise<LangGoapError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LangGoapError);
  return error as LangGoapError;
}

describe("a provider that always fails costs the documented number of calls", () => {
  it("ChatOpenAI: 1 + the client's maxRetries, none of ours on top", async () => {
    stub = await startOpenAiStub([SERVER_ERROR]);
    const interpreter = new GoalInterpreter(openAi(stub.url, 2), villageActions, { facts: villageFacts });
    const error = await failureOf(interpreter.interpret("I'm hungry"));
    expect(error.code).toBe("INTERPRETER_ERROR");
    expect(error.message).toMatch(/^GoalInterpreter: the chat model call failed: .*internal error/);
    expect(stub.requests).toHaveLength(3);
  }, 20_000);

  it("ChatAnthropic: 1 + the client's maxRetries", async () => {
    stub = await startAnthropicStub([SERVER_ERROR]);
    const interpreter = new GoalInterpreter(anthropic(stub.url, 1), villageActions, { facts: villageFacts });
    await failureOf(interpreter.interpret("I'm hungry"));
    expect(stub.requests).toHaveLength(2);
  }, 20_000);

  it("ChatOllama: the client makes no retries; retry.maxAttempts adds ours through withRetry", async () => {
    stub = await startOllamaStub([SERVER_ERROR]);
    await failureOf(new GoalInterpreter(ollama(stub.url), villageActions, { facts: villageFacts }).interpret("I'm hungry"));
    expect(stub.requests).toHaveLength(1);
    const retrying = new GoalInterpreter(ollama(stub.url), villageActions, { facts: villageFacts, retry: { maxAttempts: 2 } });
    const error = await failureOf(retrying.interpret("I'm hungry"));
    expect(error.message).toMatch(/^GoalInterpreter: the chat model call failed \(2 attempts\): /);
    expect(error.details.attempts).toBe(2);
    expect(stub.requests).toHaveLength(3);
  }, 20_000);

  it("Ollama's refusals are classified by their status_code: a 404 is not retried", async () => {
    stub = await startOllamaStub([new HttpFailure(404, { error: "model 'llama3.1' not found" }), HUNGRY]);
    const interpreter = new GoalInterpreter(ollama(stub.url), villageActions, { facts: villageFacts, retry: { maxAttempts: 3 } });
    const error = await failureOf(interpreter.interpret("I'm hungry"));
    expect(error.message).toContain("model 'llama3.1' not found");
    expect(stub.requests).toHaveLength(1);
  });
});

describe("GoalInterpreter over a client that retries", () => {
  it("a 429 with retry-after then an answer: the client's retry succeeds, one answer counted", async () => {
    stub = await startOpenAiStub([new HttpFailure(429, RATE_LIMITED.body, { "retry-after": "0" }), HUNGRY]);
    const result = await new GoalInterpreter(openAi(stub.url, 1), villageActions, { facts: villageFacts }).interpretDetailed(
      "I'm hungry",
      villageStart,
    );
    expect(result.goal.conditions).toEqual({ is_hungry: false });
    expect(result.attempts).toBe(1);
    expect(stub.requests).toHaveLength(2);
    expect(stub.requests[1]?.body).toEqual(stub.requests[0]?.body);
  }, 20_000);

  it("a 429 without retry-after is LangChain's to judge: the client gives up at once, and so do we", async () => {
    stub = await startOpenAiStub([RATE_LIMITED, HUNGRY]);
    const error = await failureOf(new GoalInterpreter(openAi(stub.url, 3), villageActions).interpret("I'm hungry"));
    expect(error.message).toContain("Rate limit reached for gpt-4o-mini");
    expect(stub.requests).toHaveLength(1);
  });

  it("does not retry what retrying cannot fix: a bad key, an exhausted quota", async () => {
    for (const failure of [
      new HttpFailure(401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } }),
      new HttpFailure(429, {
        error: { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota" },
      }),
    ]) {
      stub = await startOpenAiStub([failure, HUNGRY]);
      const interpreter = new GoalInterpreter(openAi(stub.url, 3), villageActions, { retry: { maxAttempts: 3 } });
      const error = await failureOf(interpreter.interpret("I'm hungry"));
      expect(error.message).toMatch(/^GoalInterpreter: the chat model call failed: /);
      expect(stub.requests).toHaveLength(1);
      await stub.close();
      stub = undefined;
    }
  });
});

describe("time limits and aborts", () => {
  it("a provider that never answers fails at timeoutMs (retries included), never hangs", async () => {
    stub = await startOpenAiStub([NO_ANSWER]);
    const interpreter = new GoalInterpreter(openAi(stub.url, 6), villageActions, { timeoutMs: 300 });
    // The limit's timer is a fake one: it runs out once the request is at the provider, however long that took.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    let settled = false;
    const outcome = interpreter.interpret("I'm hungry").then(
      (value) => value,
      (error: unknown) => error,
    );
    void outcome.finally(() => {
      settled = true;
    });
    await stub.received(1);
    await vi.advanceTimersByTimeAsync(299);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = (await outcome) as LangGoapError;
    expect(error).toBeInstanceOf(LangGoapError);
    expect(error.message).toBe(
      "GoalInterpreter: the chat model call failed: GoalInterpreter: the chat model call did not settle within 300 ms",
    );
    expect((error.cause as LangGoapError).code).toBe("TIMEOUT");
    expect(stub.requests).toHaveLength(1);
  });

  it("a caller's abort ends at once, without retries", async () => {
    stub = await startOpenAiStub([NO_ANSWER]);
    const interpreter = new GoalInterpreter(openAi(stub.url, 6), villageActions, { retry: { maxAttempts: 3 } });
    const controller = new AbortController();
    const pending = interpreter.interpret("I'm hungry", {}, { signal: controller.signal });
    // Abort once the call is in flight at the provider.
    await stub.received(1);
    controller.abort(new Error("user left"));
    const error = await failureOf(pending);
    expect(error.message).toContain("user left");
    expect(stub.requests).toHaveLength(1);
  });

  it("defaults: 60 s per request, none of our retries; options are checked", () => {
    expect(DEFAULT_MODEL_TIMEOUT_MS).toBe(60_000);
    const llm = openAi("http://127.0.0.1:9", 0);
    expect(() => new GoalInterpreter(llm, villageActions, { timeoutMs: 0 })).toThrow(
      "GoalInterpreter: timeoutMs must be a number of milliseconds > 0",
    );
    expect(() => new GoalInterpreter(llm, villageActions, { retry: { maxAttempts: 0 } })).toThrow(
      "GoalInterpreter: retry.maxAttempts must be an integer >= 1, got 0",
    );
    expect(() => new GoalInterpreter(llm, villageActions, { retry: { initialDelayMs: 5 } as never })).toThrow(
      "GoalInterpreter: retry.initialDelayMs is not an option (only maxAttempts;",
    );
  });
});

describe("invokeNl", () => {
  it("rides out a 500 through the client's retry and runs the goal", async () => {
    stub = await startOpenAiStub([SERVER_ERROR, { conditions: { published: true } }]);
    const publish = new ActionSpec({ name: "publish", effects: { published: true } });
    const result = await new GoapGraph([publish]).invokeNl("publish it", {}, { llm: openAi(stub.url, 1) });
    expect(result.status).toBe("goal_achieved");
    expect(stub.requests).toHaveLength(2);
  }, 20_000);
});

describe("isTransientProviderError", () => {
  it("classifies by status (status, statusCode, Ollama's status_code), network code and cause", () => {
    const withStatus = (status: number, extra: object = {}) => Object.assign(new Error(`status ${status}`), { status, ...extra });
    expect([429, 408, 409, 425, 500, 502, 503, 504].map((s) => isTransientProviderError(withStatus(s)))).toEqual(Array(8).fill(true));
    expect([400, 401, 403, 404, 422].map((s) => isTransientProviderError(withStatus(s)))).toEqual(Array(5).fill(false));
    const ollamaError = (status_code: number) => Object.assign(new Error("ollama"), { name: "ResponseError", status_code });
    expect([isTransientProviderError(ollamaError(503)), isTransientProviderError(ollamaError(404))]).toEqual([true, false]);
    expect(isTransientProviderError(withStatus(429, { code: "insufficient_quota" }))).toBe(false);
    expect(isTransientProviderError(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBe(true);
    expect(
      isTransientProviderError(new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }) })),
    ).toBe(true);
    expect(isTransientProviderError(new Error("wrapped", { cause: withStatus(503) }))).toBe(true);
    expect(isTransientProviderError(Object.assign(new Error("stop"), { name: "AbortError" }))).toBe(false);
    // Our own time limit covers the whole request, retries included: retrying it would exceed it.
    expect(isTransientProviderError(new LangGoapError("TIMEOUT", "slow"))).toBe(false);
    expect(isTransientProviderError(new SyntaxError("Unexpected token"))).toBe(false);
  });
});
