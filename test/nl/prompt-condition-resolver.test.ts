import { describe, expect, it } from "vitest";
import { ConditionStatus, LangGoapError, toConditionStatus } from "../../src/core/index.js";
import { PromptConditionResolver } from "../../src/nl/index.js";
import { FakeStructuredChatModel } from "../../src/testing/index.js";

describe("PromptConditionResolver", () => {
  it("maps the model's answer to TRUE, FALSE or UNKNOWN", async () => {
    const llm = new FakeStructuredChatModel({
      responses: [{ status: "true" }, { status: "FALSE", reasoning: "smoke" }, { status: "unknown" }, { status: "perhaps" }],
    });
    const resolver = new PromptConditionResolver(llm);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await resolver.resolve("door_is_safe", { smoke: i === 1 }));
    expect(answers).toEqual(["true", "false", "unknown", "unknown"]);
    expect(llm.calls[0]?.structured?.name).toBe("condition_status");
  });

  it("shows the key, its description and the world state in the prompt", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ status: "true" }] });
    const resolver = new PromptConditionResolver(llm, {
      facts: { door_is_safe: { type: "boolean", description: "no fire behind the door" } },
    });
    await resolver.resolve("door_is_safe", { smoke: false, report: { big: "object" } });
    const prompt = llm.calls[0]?.messages[0]?.content;
    expect(prompt).toContain("Condition key: door_is_safe\nMeaning: no fire behind the door\nWorld state:\n");
    expect(prompt).toContain('\n<world_state>\n{"smoke":false}\n</world_state>');
  });

  it("returns UNKNOWN when the model fails or answers off-schema, and reports the error", async () => {
    const errors: unknown[] = [];
    const failing = new FakeStructuredChatModel({ responses: [new Error("500 from provider"), "not json"] });
    const resolver = new PromptConditionResolver(failing, { onError: (e) => errors.push(e) });
    expect(await resolver.resolve("k", {})).toBe(ConditionStatus.UNKNOWN);
    expect(await resolver.resolve("k", {})).toBe(ConditionStatus.UNKNOWN);
    expect(errors.map((e) => (e as Error).message.split("\n")[0])).toEqual(["500 from provider", expect.stringContaining("not json")]);
  });

  it("returns UNKNOWN on timeout and aborts the call", async () => {
    const errors: unknown[] = [];
    const slow = new FakeStructuredChatModel({ responses: [{ status: "true" }], delayMs: Number.POSITIVE_INFINITY });
    const resolver = new PromptConditionResolver(slow, { timeoutMs: 10, onError: (e) => errors.push(e) });
    expect(await resolver.resolve("bridge_is_up", {})).toBe("unknown");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(LangGoapError);
    expect((errors[0] as LangGoapError).code).toBe("TIMEOUT");
    expect((errors[0] as LangGoapError).message).toBe('PromptConditionResolver: the answer for "bridge_is_up" did not settle within 10 ms');
  });

  it("survives a throwing error reporter", async () => {
    const llm = new FakeStructuredChatModel({ responses: [new Error("boom")] });
    const resolver = new PromptConditionResolver(llm, {
      onError: () => {
        throw new Error("reporter broke");
      },
    });
    expect(await resolver.resolve("k", {})).toBe("unknown");
  });

  it("validates its options", () => {
    const llm = new FakeStructuredChatModel({ responses: [{}] });
    expect(() => new PromptConditionResolver(llm, { timeoutMs: 0 })).toThrow(
      "PromptConditionResolver: timeoutMs must be a number of milliseconds > 0",
    );
    expect(() => new PromptConditionResolver(null as never)).toThrow(/withStructuredOutput/);
    expect(new PromptConditionResolver(llm, { name: "oracle" }).name).toBe("oracle");
  });
});

describe("toConditionStatus", () => {
  it("reads loose answers", () => {
    expect([true, false, "Yes", " no ", "1", "0", 1, 0, null, undefined, "maybe", 2].map(toConditionStatus)).toEqual([
      "true",
      "false",
      "true",
      "false",
      "true",
      "false",
      "true",
      "false",
      "unknown",
      "unknown",
      "unknown",
      "unknown",
    ]);
  });
});
