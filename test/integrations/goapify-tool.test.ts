import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { Serialized } from "@langchain/core/load/serializable";
import { tool } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ActionSpec, LangGoapError } from "../../src/core/index.js";
import { GoapGraph, successfulActionNames } from "../../src/graph/index.js";
import { goapifyTool } from "../../src/integrations/index.js";
import { quietLogger } from "../graph/support.js";

/** A search tool that records every input it receives. */
function recordingSearch() {
  const inputs: unknown[] = [];
  const search = tool(
    async (input: { query: string; limit: number }) => {
      inputs.push(input);
      return [`${input.query} #1`, `${input.query} #2`, `${input.query} #3`].slice(0, input.limit);
    },
    {
      name: "web_search",
      description: "Searches the web.",
      schema: z.object({ query: z.string(), limit: z.number().int().default(2) }),
    },
  );
  return { search, inputs };
}

const run = (actions: ActionSpec[], goal: Record<string, unknown>, state: Record<string, unknown>) =>
  new GoapGraph(actions, { logger: quietLogger() }).invoke(goal as never, state as never);

describe("goapifyTool input building", () => {
  it("passes the world-state keys the tool's schema declares, and nothing else", async () => {
    const { search, inputs } = recordingSearch();
    const action = goapifyTool(search, { effects: { has_results: true }, resultKey: "results" });
    const result = await run([action], { has_results: true }, { query: "goap", limit: 3, secret: "do not leak" });
    expect(inputs).toEqual([{ query: "goap", limit: 3 }]);
    expect(result.worldState.results).toEqual(["goap #1", "goap #2", "goap #3"]);
  });

  it("leaves absent keys out so schema defaults apply", async () => {
    const { search, inputs } = recordingSearch();
    const result = await run(
      [goapifyTool(search, { effects: { has_results: true }, resultKey: "results" })],
      { has_results: true },
      { query: "x" },
    );
    expect(inputs).toEqual([{ query: "x", limit: 2 }]);
    expect(result.worldState.results).toEqual(["x #1", "x #2"]);
  });

  it("maps tool arguments to other world-state keys; unmapped arguments keep their own names", async () => {
    const { search, inputs } = recordingSearch();
    const action = goapifyTool(search, { input: { query: "topic" }, effects: { has_results: true }, resultKey: "results" });
    await run([action], { has_results: true }, { topic: "planning", limit: 1, query: "ignored" });
    expect(inputs).toEqual([{ query: "planning", limit: 1 }]);
  });

  it("builds the input with a function of the state", async () => {
    const { search, inputs } = recordingSearch();
    const action = goapifyTool(search, {
      input: (state) => ({ query: `${String(state.topic)} tutorial`, limit: 1 }),
      effects: { has_results: true },
    });
    await run([action], { has_results: true }, { topic: "GOAP" });
    expect(inputs).toEqual([{ query: "GOAP tutorial", limit: 1 }]);
  });

  it("rejects a mapping that names an argument the schema does not declare", () => {
    const { search } = recordingSearch();
    expect(() => goapifyTool(search, { input: { q: "topic" } })).toThrowError(
      'goapifyTool("web_search"): input maps "q", which the tool\'s schema does not declare; its arguments are [query, limit]',
    );
    expect(() => goapifyTool(search, { input: { query: "" } })).toThrowError(/input\.query must name a world-state key/);
  });

  it("needs an input function for tools whose schema does not list arguments", async () => {
    const seen: unknown[] = [];
    const shout = tool(
      async (text: string) => {
        seen.push(text);
        return text.toUpperCase();
      },
      { name: "shout", description: "Upper-cases text." },
    );
    expect(() => goapifyTool(shout, { effects: { shouted: true } })).toThrowError(/does not list its arguments.*pass input: \(state\) =>/);
    const action = goapifyTool(shout, { input: (state) => String(state.text), effects: { shouted: true }, resultKey: "loud" });
    const result = await run([action], { shouted: true }, { text: "hello" });
    expect(seen).toEqual(["hello"]);
    expect(result.worldState.loud).toBe("HELLO");
  });

  it("gives zero-argument tools an empty input", async () => {
    let calls = 0;
    const ping = tool(
      async () => {
        calls++;
        return "pong";
      },
      { name: "ping", description: "Pings.", schema: z.object({}) },
    );
    const result = await run([goapifyTool(ping, { effects: { pinged: true }, resultKey: "reply" })], { pinged: true }, { extra: 1 });
    expect(calls).toBe(1);
    expect(result.worldState.reply).toBe("pong");
  });
});

describe("goapifyTool schema validation", () => {
  it("fails the action before the tool runs, naming the tool, the field and the world-state key", async () => {
    const { search, inputs } = recordingSearch();
    const primary = goapifyTool(search, { input: { query: "topic" }, effects: { has_results: true }, resultKey: "results" });
    const fallback = new ActionSpec({ name: "ask_librarian", effects: { has_results: true }, cost: 5 });
    const result = await run([primary, fallback], { has_results: true }, { topic: 42 });

    expect(inputs).toEqual([]);
    expect(result.status).toBe("goal_achieved");
    expect(successfulActionNames(result)).toEqual(["ask_librarian"]);
    expect(result.executionHistory[0]).toMatchObject({
      actionName: "web_search",
      success: false,
      failure: "error",
      error:
        'tool "web_search" rejected its input: field "query": Invalid input: expected string, received number (read from world-state key "topic")',
    });
  });

  it("says which world-state key is missing", async () => {
    const { search } = recordingSearch();
    const action = goapifyTool(search, { input: { query: "topic" }, effects: { has_results: true } });
    const fallback = new ActionSpec({ name: "ask_librarian", effects: { has_results: true }, cost: 5 });
    const result = await run([action, fallback], { has_results: true }, {});
    expect(result.executionHistory[0]?.error).toBe(
      'tool "web_search" rejected its input: field "query": Invalid input: expected string, received undefined (world-state key "topic" is not set)',
    );
  });

  it("checks JSON-schema tools for required fields and field types", async () => {
    let calls = 0;
    const lookup = tool(
      async (input: Record<string, unknown>) => {
        calls++;
        return `found ${String(input.ticker)}`;
      },
      {
        name: "lookup",
        description: "Looks up a ticker.",
        schema: { type: "object", properties: { ticker: { type: "string" }, year: { type: "integer" } }, required: ["ticker"] },
      },
    );
    const fallback = new ActionSpec({ name: "guess", effects: { found: true }, cost: 9 });
    const action = goapifyTool(lookup, { effects: { found: true }, resultKey: "answer" });

    const missing = await run([action, fallback], { found: true }, { year: 2024 });
    expect(missing.executionHistory[0]?.error).toBe(
      'tool "lookup" rejected its input: field "ticker" is required (world-state key "ticker" is not set)',
    );
    const wrongType = await run([action, fallback], { found: true }, { ticker: "ACME", year: "last" });
    expect(wrongType.executionHistory[0]?.error).toBe(
      'tool "lookup" rejected its input: field "year": expected integer, received string (read from world-state key "year")',
    );
    expect(calls).toBe(0);
    const good = await run([action, fallback], { found: true }, { ticker: "ACME", year: 2024 });
    expect(good.worldState.answer).toBe("found ACME");
    expect(calls).toBe(1);
  });
});

describe("goapifyTool outputs and effects", () => {
  it("stores the output under resultKey next to the declared effects, operator effects included", async () => {
    const count = tool(async ({ items }: { items: string[] }) => items.length, {
      name: "count_items",
      description: "Counts items.",
      schema: z.object({ items: z.array(z.string()) }),
    });
    const action = goapifyTool(count, { effects: { counted: true, passes: { inc: 1 } }, resultKey: "item_count" });
    const result = await run([action], { counted: true }, { items: ["a", "b", "c"], passes: 4 });
    expect(result.worldState).toEqual({ items: ["a", "b", "c"], passes: 5, counted: true, item_count: 3 });
  });

  it("discards the output without resultKey and applies the declared effects", async () => {
    const { search } = recordingSearch();
    const result = await run([goapifyTool(search, { effects: { has_results: true } })], { has_results: true }, { query: "q" });
    expect(result.worldState).toEqual({ query: "q", has_results: true });
  });

  it("rejects a resultKey that is also an effect key", () => {
    const { search } = recordingSearch();
    const attempt = () => goapifyTool(search, { effects: { has_results: true, results: "ready" }, resultKey: "results" });
    expect(attempt).toThrowError(LangGoapError);
    expect(attempt).toThrowError(
      'goapifyTool("web_search"): resultKey "results" is also an effect key; the tool output would overwrite the declared effect. Pick another resultKey',
    );
    expect(() => goapifyTool(search, { resultKey: "" })).toThrowError(/resultKey must be a non-empty string/);
  });

  it("keeps the planning model: name, description, cost, resources, duration, retries, validator", async () => {
    const { search } = recordingSearch();
    const validator = () => true;
    const action = goapifyTool(search, {
      preconditions: { online: true },
      effects: { has_results: true },
      cost: 2.5,
      resources: { usd: 0.01 },
      durationMs: 1200,
      maxRetries: 2,
      effectValidator: validator,
    });
    expect(action).toBeInstanceOf(ActionSpec);
    expect(action.name).toBe("web_search");
    expect(action.description).toBe("Searches the web.");
    expect(action.preconditions).toEqual({ online: true });
    expect(action.cost).toBe(2.5);
    expect(action.resources).toEqual({ usd: 0.01 });
    expect(action.durationMs).toBe(1200);
    expect(action.maxRetries).toBe(2);
    expect(action.effectValidator).toBe(validator);
    expect(action.metadata).toEqual({ tool: "web_search" });
    expect(goapifyTool(search, { name: "search_v2" }).name).toBe("search_v2");
  });

  it("records a throwing tool as a failed action with the tool's own error", async () => {
    const flaky = tool(
      async () => {
        throw new Error("503 Service Unavailable");
      },
      { name: "flaky_search", description: "Often down.", schema: z.object({}) },
    );
    const fallback = new ActionSpec({ name: "backup_search", effects: { has_results: true }, cost: 3 });
    const result = await run([goapifyTool(flaky, { effects: { has_results: true } }), fallback], { has_results: true }, {});
    expect(result.executionHistory.map((r) => [r.actionName, r.success, r.error])).toEqual([
      ["flaky_search", false, "503 Service Unavailable"],
      ["backup_search", true, null],
    ]);
    expect(result.blacklistedActions).toEqual(["flaky_search"]);
  });

  it("runs the tool with the graph's config, so callbacks see a tool run", async () => {
    const started: string[] = [];
    class ToolRecorder extends BaseCallbackHandler {
      name = "tool-recorder";
      constructor() {
        super({ _awaitHandler: true });
      }
      override handleToolStart(_tool: Serialized, input: string, ...rest: unknown[]): void {
        // Runtime order: (tool, input, runId, parentRunId, tags, metadata, runName, toolCallId).
        started.push(`${String(rest[4])}:${input}`);
      }
    }
    const { search } = recordingSearch();
    const graph = new GoapGraph([goapifyTool(search, { effects: { has_results: true } })], { logger: quietLogger() });
    await graph.invoke({ has_results: true }, { query: "traced", limit: 1 }, { callbacks: [new ToolRecorder()] });
    expect(started).toEqual(['web_search:{"query":"traced","limit":1}']);
  });
});

describe("goapifyTool rejects what is not a tool", () => {
  it("tells to wrap plain functions with tool()", () => {
    const plain = async (input: { query: string }) => input.query;
    const attempt = () => goapifyTool(plain as never, { effects: { done: true } });
    expect(attempt).toThrowError(LangGoapError);
    expect(attempt).toThrowError(
      /goapifyTool: expected a LangChain tool, got a function; wrap plain functions with tool\(\) from "@langchain\/core\/tools"/,
    );
  });

  it("rejects other values with the same advice", () => {
    expect(() => goapifyTool({ name: "fake", invoke: () => 1 } as never)).toThrowError(
      /expected a LangChain tool, got \{"name":"fake"\}; pass a tool built with tool\(\) from "@langchain\/core\/tools"/,
    );
    expect(() => goapifyTool(null as never)).toThrowError(/expected a LangChain tool, got null/);
  });
});
