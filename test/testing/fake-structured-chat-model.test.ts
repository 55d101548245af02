import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { type AIMessage, HumanMessage } from "@langchain/core/messages";
import { OutputParserException } from "@langchain/core/output_parsers";
import type { ChatGeneration, LLMResult } from "@langchain/core/outputs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FakeStructuredChatModel } from "../../src/testing/index.js";

const Answer = z.object({ status: z.enum(["true", "false"]), score: z.number().optional() });

describe("FakeStructuredChatModel", () => {
  it("validates structured answers against the schema and records the call", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ status: "true", score: 2 }] });
    const out = await llm.withStructuredOutput(Answer, { name: "answer", method: "functionCalling" }).invoke([new HumanMessage("q")]);
    expect(out).toEqual({ status: "true", score: 2 });
    expect(llm.calls).toHaveLength(1);
    expect(llm.calls[0]?.structured).toEqual({ name: "answer", method: "functionCalling" });
    expect(llm.calls[0]?.output).toBe('{"status":"true","score":2}');
    expect(llm.calls[0]?.messages.map((m) => m.content)).toEqual(["q"]);
  });

  it("throws OutputParserException carrying the raw answer when it does not fit", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ status: "maybe" }] });
    const error = await llm
      .withStructuredOutput(Answer)
      .invoke("q")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputParserException);
    expect((error as OutputParserException).llmOutput).toBe('{"status":"maybe"}');
    expect((error as Error).message).toContain("status");
  });

  it("plays answers in order, repeats the last, throws scripted errors and computes answers from the call", async () => {
    const llm = new FakeStructuredChatModel({
      responses: [{ status: "true" }, new Error("rate limited"), (call: { index: number }) => ({ status: "false", score: call.index })],
    });
    const structured = llm.withStructuredOutput(Answer);
    expect(await structured.invoke("a")).toEqual({ status: "true" });
    await expect(structured.invoke("b")).rejects.toThrow("rate limited");
    expect(await structured.invoke("c")).toEqual({ status: "false", score: 2 });
    expect(await structured.invoke("d")).toEqual({ status: "false", score: 3 });
    expect(llm.callCount).toBe(4);
  });

  it("returns raw and parsed with includeRaw, and plain messages from invoke", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ status: "false" }] });
    const both = await llm.withStructuredOutput(Answer, { includeRaw: true }).invoke("q");
    expect(both.parsed).toEqual({ status: "false" });
    expect(both.raw.content).toBe('{"status":"false"}');
    const plain = await llm.invoke("q");
    expect(plain.content).toBe('{"status":"false"}');
    expect(llm.calls[1]?.structured).toBeUndefined();
  });

  it("reports token usage and model name to callbacks", async () => {
    const seen: unknown[] = [];
    class Recorder extends BaseCallbackHandler {
      name = "recorder";
      constructor() {
        super({ _awaitHandler: true });
      }
      override handleLLMEnd(output: LLMResult) {
        const message = (output.generations[0]?.[0] as ChatGeneration | undefined)?.message as AIMessage | undefined;
        seen.push(message?.usage_metadata, message?.response_metadata);
      }
    }
    const llm = new FakeStructuredChatModel({ responses: ["hi"], usage: { inputTokens: 7, outputTokens: 3 }, model: "gpt-4o-mini" });
    await llm.invoke("q", { callbacks: [new Recorder()] });
    expect(seen[0]).toEqual({ input_tokens: 7, output_tokens: 3, total_tokens: 10 });
    expect(seen[1]).toMatchObject({ model_name: "gpt-4o-mini" });
  });

  it("waits for an abort when the delay is infinite", async () => {
    const llm = new FakeStructuredChatModel({ responses: ["late"], delayMs: Number.POSITIVE_INFINITY });
    const controller = new AbortController();
    const pending = llm.invoke("q", { signal: controller.signal });
    controller.abort(new Error("stop"));
    await expect(pending).rejects.toThrow();
  });

  it("needs at least one response", () => {
    expect(() => new FakeStructuredChatModel({ responses: [] })).toThrow(/non-empty/);
  });
});
