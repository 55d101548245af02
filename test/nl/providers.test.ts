/**
 * The same GoalInterpreter code against the real provider clients, each
 * pointed at a loopback stub of its HTTP API (no network, no API key).
 */
import { ChatAnthropic } from "@langchain/anthropic";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { ChatOllama } from "@langchain/ollama";
import { ChatOpenAI } from "@langchain/openai";
import { afterEach, describe, expect, it } from "vitest";
import { LangGoapError } from "../../src/core/index.js";
import { GoalInterpreter } from "../../src/nl/index.js";
import { plan } from "../../src/planner/index.js";
import {
  type ProviderStub,
  Refusal,
  type StubRequest,
  startAnthropicStub,
  startOllamaStub,
  startOpenAiStub,
} from "../support/provider-stubs.js";
import { HUNGRY_PLAN, villageActions, villageFacts, villageStart } from "../support/village.js";

interface Provider {
  readonly name: string;
  start(answers: readonly unknown[]): Promise<ProviderStub>;
  client(url: string): BaseChatModel;
  /** The schema the client sent for the goal, read from the request body. */
  sentSchema(request: StubRequest): Record<string, unknown>;
  /** The text of the last message the client sent. */
  lastMessage(request: StubRequest): string;
}

const lastContent = (messages: unknown): string => {
  const last = (messages as { content: unknown }[]).at(-1)?.content;
  return typeof last === "string" ? last : JSON.stringify(last);
};

const providers: Provider[] = [
  {
    name: "ChatOpenAI (function calling)",
    start: startOpenAiStub,
    client: (url) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", configuration: { baseURL: `${url}/v1` }, maxRetries: 0 }),
    sentSchema: (r) => {
      expect(r.body.tool_choice).toEqual({ type: "function", function: { name: "goal" } });
      expect(r.body.response_format).toBeUndefined();
      return (r.body.tools as { function: { parameters: Record<string, unknown> } }[])[0]?.function.parameters as Record<string, unknown>;
    },
    lastMessage: (r) => lastContent(r.body.messages),
  },
  {
    name: "ChatAnthropic (tool use)",
    start: startAnthropicStub,
    client: (url) => new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "sk-ant-test", anthropicApiUrl: url, maxRetries: 0 }),
    sentSchema: (r) => {
      expect(r.body.tool_choice).toEqual({ type: "tool", name: "goal" });
      return (r.body.tools as { input_schema: Record<string, unknown> }[])[0]?.input_schema as Record<string, unknown>;
    },
    lastMessage: (r) => lastContent(r.body.messages),
  },
  {
    name: "ChatOllama (JSON schema format)",
    start: startOllamaStub,
    client: (url) => new ChatOllama({ model: "llama3.2", baseUrl: url, maxRetries: 0 }),
    sentSchema: (r) => r.body.format as Record<string, unknown>,
    lastMessage: (r) => lastContent(r.body.messages),
  },
];

let stub: ProviderStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe.each(providers)("GoalInterpreter over $name", (provider) => {
  it('turns "I\'m hungry" into { is_hungry: false } and sends the fact schema', async () => {
    stub = await provider.start([{ conditions: { is_hungry: false }, reasoning: "eat" }]);
    const interpreter = new GoalInterpreter(provider.client(stub.url), villageActions, { facts: villageFacts });
    const goal = await interpreter.interpret("I'm hungry", villageStart);
    expect(goal.conditions).toEqual({ is_hungry: false });
    expect(plan(villageStart, goal, villageActions)?.actionNames).toEqual(HUNGRY_PLAN);

    expect(stub.requests).toHaveLength(1);
    const schema = provider.sentSchema(stub.requests[0] as StubRequest);
    const conditions = (schema.properties as Record<string, { properties: Record<string, unknown>; additionalProperties: unknown }>)
      .conditions;
    expect(Object.keys(conditions?.properties ?? {}).sort()).toEqual(Object.keys(villageFacts).sort());
    expect(conditions?.additionalProperties).toBe(false);
    expect(provider.lastMessage(stub.requests[0] as StubRequest)).toBe("I'm hungry");
  });

  it("retries once with the validation error, then reports the unknown fact", async () => {
    stub = await provider.start([{ conditions: { is_thirsty: false } }]);
    const interpreter = new GoalInterpreter(provider.client(stub.url), villageActions, { facts: villageFacts });
    const error = await interpreter.interpret("I'm thirsty").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LangGoapError);
    expect((error as LangGoapError).code).toBe("UNKNOWN_FACT");
    expect((error as LangGoapError).message).toContain('unknown fact "is_thirsty" in conditions. Allowed facts: is_hungry (boolean)');
    expect(stub.requests).toHaveLength(2);
    expect(provider.lastMessage(stub.requests[1] as StubRequest)).toContain('Your previous answer was rejected: unknown fact "is_thirsty"');
  });

  it("recovers when the corrected answer is valid", async () => {
    stub = await provider.start([{ conditions: { tired: false } }, { conditions: { is_tired: false } }]);
    const interpreter = new GoalInterpreter(provider.client(stub.url), villageActions, { facts: villageFacts });
    const result = await interpreter.interpretDetailed("I need a nap");
    expect(result.goal.conditions).toEqual({ is_tired: false });
    expect(result.attempts).toBe(2);
  });
});

describe("GoalInterpreter when OpenAI refuses", () => {
  // @langchain/openai 1.5.8 drops Chat Completions' `refusal` field, so the refusal reaches us as an empty answer.
  it("retries once, then fails listing the allowed facts", async () => {
    stub = await startOpenAiStub([new Refusal("I can't help with that.")]);
    const llm = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", configuration: { baseURL: `${stub.url}/v1` }, maxRetries: 0 });
    const error = await new GoalInterpreter(llm, villageActions, { facts: villageFacts })
      .interpret("help me do something bad")
      .catch((e: unknown) => e);
    expect((error as LangGoapError).code).toBe("INTERPRETER_ERROR");
    expect((error as LangGoapError).message).toContain(
      "after 2 answers: the model gave no structured answer (no tool call or JSON object). Allowed facts: is_hungry (boolean)",
    );
    expect(stub.requests).toHaveLength(2);
  });
});

describe("GoalInterpreter when the provider is down", () => {
  it("fails with INTERPRETER_ERROR once the retries asked for are spent", async () => {
    stub = await startOpenAiStub([{}]);
    const url = stub.url;
    await stub.close();
    stub = undefined;
    const interpreter = new GoalInterpreter(
      new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", configuration: { baseURL: `${url}/v1` }, maxRetries: 0 }),
      villageActions,
      { retry: { maxAttempts: 3 } },
    );
    const error = await interpreter.interpret("I'm hungry").catch((e: unknown) => e);
    expect((error as LangGoapError).code).toBe("INTERPRETER_ERROR");
    expect((error as LangGoapError).message).toContain("the chat model call failed (3 attempts)");
  });
});
