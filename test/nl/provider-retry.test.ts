/**
 * GoalInterpreter and invokeNl against a real ChatOpenAI pointed at a
 * loopback stub of the OpenAI API that fails the way providers do: rate
 * limits, server errors, a call that never returns. The client's own
 * retries are off (`maxRetries: 0`), so every retry seen here is ours.
 */
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { DEFAULT_MODEL_TIMEOUT_MS, GoalInterpreter, isTransientProviderError } from "../../src/nl/index.js";
import { HttpFailure, NO_ANSWER, type ProviderStub, startOpenAiStub } from "../support/provider-stubs.js";
import { villageActions, villageFacts, villageStart } from "../support/village.js";

const RATE_LIMITED = new HttpFailure(429, {
  error: { message: "Rate limit reached for gpt-4o-mini", type: "requests", code: "rate_limit_exceeded" },
});
const HUNGRY = { conditions: { is_hungry: false }, reasoning: "eat" };
/** Short waits, so the test does not sleep through real backoff. */
const FAST = { initialDelayMs: 5, maxDelayMs: 50 };

let stub: ProviderStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

function openAi(url: string): ChatOpenAI {
  return new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", configuration: { baseURL: `${url}/v1` }, maxRetries: 0 });
}

async function failureOf(promise: Promise<unknown>): Promise<LangGoapError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LangGoapError);
  return error as LangGoapError;
}

describe("GoalInterpreter retries transient provider failures", () => {
  it("a 429 then an answer: the second call succeeds", async () => {
    stub = await startOpenAiStub([RATE_LIMITED, HUNGRY]);
    const interpreter = new GoalInterpreter(openAi(stub.url), villageActions, { facts: villageFacts, retry: FAST });
    const result = await interpreter.interpretDetailed("I'm hungry", villageStart);
    expect(result.goal.conditions).toEqual({ is_hungry: false });
    // One answer was needed; the rate-limited call was a retry below it, not a correction.
    expect(result.attempts).toBe(1);
    expect(stub.requests).toHaveLength(2);
  });

  it("502 and 503 are retried too, with the same request", async () => {
    stub = await startOpenAiStub([new HttpFailure(502), new HttpFailure(503), HUNGRY]);
    const interpreter = new GoalInterpreter(openAi(stub.url), villageActions, { facts: villageFacts, retry: FAST });
    expect((await interpreter.interpret("I'm hungry")).conditions).toEqual({ is_hungry: false });
    expect(stub.requests).toHaveLength(3);
    expect(stub.requests[2]?.body).toEqual(stub.requests[0]?.body);
  });

  it("stops after maxAttempts, naming the attempts and the provider's error", async () => {
    stub = await startOpenAiStub([RATE_LIMITED]);
    const interpreter = new GoalInterpreter(openAi(stub.url), villageActions, { retry: { ...FAST, maxAttempts: 2 } });
    const error = await failureOf(interpreter.interpret("I'm hungry"));
    expect(error.code).toBe("INTERPRETER_ERROR");
    expect(error.message).toMatch(/^GoalInterpreter: the chat model call failed \(2 attempts\): .*Rate limit reached for gpt-4o-mini/);
    expect(error.details.attempts).toBe(2);
    expect(stub.requests).toHaveLength(2);
  });

  it("does not retry what retrying cannot fix: a bad key, an exhausted quota", async () => {
    for (const failure of [
      new HttpFailure(401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } }),
      new HttpFailure(429, {
        error: { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota" },
      }),
    ]) {
      stub = await startOpenAiStub([failure, HUNGRY]);
      const interpreter = new GoalInterpreter(openAi(stub.url), villageActions, { retry: FAST });
      const error = await failureOf(interpreter.interpret("I'm hungry"));
      expect(error.message).toMatch(/^GoalInterpreter: the chat model call failed: /);
      expect(stub.requests).toHaveLength(1);
      await stub.close();
      stub = undefined;
    }
  });

  it("a retry-after longer than maxDelayMs is not waited for", async () => {
    stub = await startOpenAiStub([new HttpFailure(429, RATE_LIMITED.body, { "retry-after": "120" }), HUNGRY]);
    const interpreter = new GoalInterpreter(openAi(stub.url), villageActions, { retry: FAST });
    await failureOf(interpreter.interpret("I'm hungry"));
    expect(stub.requests).toHaveLength(1);
  });

  it("a call that never returns times out after timeoutMs and is retried", async () => {
    stub = await startOpenAiStub([NO_ANSWER, HUNGRY]);
    const interpreter = new GoalInterpreter(openAi(stub.url), villageActions, { timeoutMs: 1_000, retry: FAST });
    expect((await interpreter.interpret("I'm hungry")).conditions).toEqual({ is_hungry: false });
    expect(stub.requests).toHaveLength(2);
  });

  it("a provider that never answers fails after its attempts with a timeout, never hangs", async () => {
    stub = await startOpenAiStub([NO_ANSWER]);
    const interpreter = new GoalInterpreter(openAi(stub.url), villageActions, { timeoutMs: 500, retry: { ...FAST, maxAttempts: 2 } });
    const error = await failureOf(interpreter.interpret("I'm hungry"));
    expect(error.message).toBe(
      "GoalInterpreter: the chat model call failed (2 attempts): GoalInterpreter: the chat model call did not settle within 500 ms",
    );
    expect(stub.requests).toHaveLength(2);
  });

  it("a caller's abort ends at once, without retries", async () => {
    stub = await startOpenAiStub([NO_ANSWER]);
    const interpreter = new GoalInterpreter(openAi(stub.url), villageActions, { retry: FAST });
    const controller = new AbortController();
    const pending = interpreter.interpret("I'm hungry", {}, { signal: controller.signal });
    // Abort once the call is in flight at the provider.
    while (stub.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(new Error("user left"));
    const error = await failureOf(pending);
    expect(error.message).toContain("user left");
    expect(stub.requests).toHaveLength(1);
  });

  it("defaults: 60 s per call; options are checked", () => {
    expect(DEFAULT_MODEL_TIMEOUT_MS).toBe(60_000);
    const llm = openAi("http://127.0.0.1:9");
    expect(() => new GoalInterpreter(llm, villageActions, { timeoutMs: 0 })).toThrow(
      "GoalInterpreter: timeoutMs must be a number of milliseconds > 0",
    );
    expect(() => new GoalInterpreter(llm, villageActions, { retry: { maxAttempts: 0 } })).toThrow(
      "GoalInterpreter: retry.maxAttempts must be an integer >= 1, got 0",
    );
  });
});

describe("invokeNl", () => {
  it("rides out a 429 from the provider and runs the goal", async () => {
    stub = await startOpenAiStub([RATE_LIMITED, { conditions: { published: true } }]);
    const publish = new ActionSpec({ name: "publish", effects: { published: true } });
    const graph = new GoapGraph([publish]);
    const result = await graph.invokeNl("publish it", {}, { llm: openAi(stub.url), interpreter: { retry: FAST } });
    expect(result.status).toBe("goal_achieved");
    expect(stub.requests).toHaveLength(2);
  });
});

describe("isTransientProviderError", () => {
  it("classifies by status, network code and cause", () => {
    const withStatus = (status: number, extra: object = {}) => Object.assign(new Error(`status ${status}`), { status, ...extra });
    expect([429, 408, 409, 425, 500, 502, 503, 504].map((s) => isTransientProviderError(withStatus(s)))).toEqual(Array(8).fill(true));
    expect([400, 401, 403, 404, 422].map((s) => isTransientProviderError(withStatus(s)))).toEqual(Array(5).fill(false));
    expect(isTransientProviderError(withStatus(429, { code: "insufficient_quota" }))).toBe(false);
    expect(isTransientProviderError(Object.assign(new Error("reset"), { code: "ECONNRESET" }))).toBe(true);
    expect(
      isTransientProviderError(new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }) })),
    ).toBe(true);
    expect(isTransientProviderError(new Error("wrapped", { cause: withStatus(503) }))).toBe(true);
    expect(isTransientProviderError(Object.assign(new Error("stop"), { name: "AbortError" }))).toBe(false);
    expect(isTransientProviderError(new LangGoapError("TIMEOUT", "slow"))).toBe(true);
    expect(isTransientProviderError(new LangGoapError("INVALID_OPTION", "bad"))).toBe(false);
    expect(isTransientProviderError(new SyntaxError("Unexpected token"))).toBe(false);
  });
});
