import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Command, MemorySaver } from "@langchain/langgraph";
import { getRuntimeGraphSchema } from "@langchain/langgraph-api/schema";
import { describe, expect, it } from "vitest";
import { type ServedGoapGraph, successfulActionNames } from "../../src/graph/index.js";
import { createChatDeploymentGraph, createDeploymentGraph } from "../../src/integrations/index.js";

const root = resolve(import.meta.dirname, "../..");
const config = JSON.parse(readFileSync(resolve(root, "langgraph.json"), "utf8")) as {
  node_version: string;
  dependencies: string[];
  graphs: Record<string, string>;
  env: unknown;
};

/** Loads a `graphs` entry the way the LangGraph API server does: `path:export`, relative to langgraph.json. */
async function loadGraph(spec: string): Promise<ServedGoapGraph> {
  const [file, exportName] = spec.split(":", 2) as [string, string];
  const module = (await import(pathToFileURL(resolve(root, file)).href)) as Record<string, unknown>;
  return module[exportName] as ServedGoapGraph;
}

describe("langgraph.json", () => {
  it("declares a Node 20 project whose graphs are the deployment factories' exports", () => {
    expect(config.node_version).toBe("20");
    expect(config.dependencies).toEqual(["."]);
    expect(config.env).toBeTypeOf("object");
    expect(config.graphs).toEqual({
      langgoap_publishing: "./src/integrations/deployment/graph.ts:graph",
      langgoap_chat: "./src/integrations/deployment/chat-graph.ts:graph",
    });
    expect(existsSync(resolve(root, "src/integrations/deployment/graph.ts"))).toBe(true);
    expect(existsSync(resolve(root, "src/integrations/deployment/chat-graph.ts"))).toBe(true);
  });
});

describe("the deployment graph", () => {
  it("loads from its langgraph.json entry as a compiled graph with no checkpointer of its own", async () => {
    const graph = await loadGraph(config.graphs.langgoap_publishing as string);
    expect(graph.constructor.name).toBe("CompiledStateGraph");
    expect(graph.checkpointer).toBeUndefined();
    expect(Object.keys(graph.nodes).sort()).toEqual(["__start__", "executor", "observer", "planner"]);
  });

  it("declares its input and output, which the server reads at run time instead of parsing sources", async () => {
    const graph = await loadGraph(config.graphs.langgoap_publishing as string);
    // What the LangGraph API server answers GET /assistants/:id/schemas with.
    const schema = (await getRuntimeGraphSchema(graph as never)) as {
      input: { properties: Record<string, unknown> };
      output: { properties: Record<string, unknown> };
    };
    expect(Object.keys(schema.input.properties)).toEqual(["goal", "worldState"]);
    expect(Object.keys(schema.output.properties)).toEqual(["status", "worldState", "plan", "executionHistory"]);
    const text = JSON.stringify(schema);
    expect(text).not.toContain("$ref");
    expect(text).not.toContain(root);
  });

  it("returns the output fields and rejects an input that is not a goal and a world state", async () => {
    const graph = createDeploymentGraph({ logger: {} });
    graph.checkpointer = new MemorySaver();
    const result = await graph.invoke({ goal: { published: true }, worldState: {} }, { configurable: { thread_id: "deployed-0" } });
    expect(Object.keys(result).sort()).toEqual(["executionHistory", "plan", "status", "worldState"]);
    expect(result.plan?.actions).toEqual(["research", "write_fast", "publish"]);
    await expect(
      graph.invoke({ goal: { published: true }, worldState: ["topic"] } as never, { configurable: { thread_id: "deployed-00" } }),
    ).rejects.toThrow(/worldState/);
  });

  it("runs to goal_achieved with the checkpointer the server assigns, from a JSON input", async () => {
    const graph = createDeploymentGraph({ logger: {} });
    graph.checkpointer = new MemorySaver(); // what the API server does to every loaded graph
    const thread = { configurable: { thread_id: "deployed-1" } };
    const result = await graph.invoke(JSON.parse('{"goal": {"published": true}, "worldState": {"topic": "GOAP"}}'), thread);

    expect(result.status).toBe("goal_achieved");
    expect(successfulActionNames(result)).toEqual(["research", "write_fast", "publish"]);
    expect(result.worldState.article).toBe("GOAP, briefly. Notes on GOAP: goals, actions, preconditions, effects.");
    const snapshot = await graph.getState(thread);
    expect(snapshot.values.status).toBe("goal_achieved");
    expect(snapshot.next).toEqual([]);
  });

  it("replans to the premium writer when the client reports the fast writer down", async () => {
    const graph = createDeploymentGraph({ logger: {} });
    graph.checkpointer = new MemorySaver();
    const result = await graph.invoke(
      { goal: { published: true }, worldState: { topic: "LangGraph", fast_writer_down: true } },
      { configurable: { thread_id: "deployed-2" } },
    );
    expect(result.status).toBe("goal_achieved");
    expect(result.executionHistory.map((r) => `${r.actionName}:${r.success}`)).toEqual([
      "research:true",
      "write_fast:false",
      "write_premium:true",
      "publish:true",
    ]);
    expect(result.worldState.article).toBe("LangGraph, in depth. Notes on LangGraph: goals, actions, preconditions, effects.");
  });
});

describe("the newsletter goal", () => {
  it("pauses for a human's approval before mailing and finishes when approved", async () => {
    const graph = createDeploymentGraph({ logger: {} });
    graph.checkpointer = new MemorySaver();
    const thread = { configurable: { thread_id: "deployed-3" } };
    const paused = await graph.invoke({ goal: { newsletter_sent: true }, worldState: { topic: "GOAP" } }, thread);
    expect(paused.status).toBe("awaiting_human");
    expect((paused as { __interrupt__?: { value: { type: string; action: string } }[] }).__interrupt__?.map((i) => i.value)).toMatchObject([
      { type: "goap_action_approval", action: "send_newsletter" },
    ]);
    expect((await graph.getState(thread)).next).toEqual(["executor"]);

    const finished = await graph.invoke(new Command({ resume: true }), thread);
    expect(finished.status).toBe("goal_achieved");
    expect(successfulActionNames(finished)).toEqual(["research", "write_fast", "publish", "send_newsletter"]);
    expect(finished.worldState.newsletter_sent).toBe(true);
  });
});

describe("the deployment chat graph", () => {
  it("loads from its langgraph.json entry with no checkpointer of its own, and chats on a thread once one is assigned", async () => {
    const graph = (await loadGraph(config.graphs.langgoap_chat as string)) as unknown as ReturnType<typeof createChatDeploymentGraph>;
    expect(graph.constructor.name).toBe("CompiledStateGraph");
    expect(graph.checkpointer).toBeUndefined();
    expect(Object.keys(graph.nodes).sort()).toEqual(["__start__", "act", "interpret"]);
    // Declared, so the server answers schema requests without parsing sources (over 30 s for this graph).
    const schema = (await getRuntimeGraphSchema(graph as never)) as {
      input: { properties: Record<string, unknown> };
      output: { properties: Record<string, unknown> };
    };
    expect(Object.keys(schema.input.properties)).toEqual(["messages", "worldState"]);
    expect(Object.keys(schema.output.properties)).toEqual(["messages", "worldState"]);

    const agent = createChatDeploymentGraph({ logger: {} });
    agent.checkpointer = new MemorySaver(); // what the server does
    const thread = { configurable: { thread_id: "chat-0" } };
    // Messages as a client sends them: plain JSON.
    const first = await agent.invoke({ messages: [{ role: "user", content: "Publish a post about GOAP" }] }, thread);
    expect(first.messages.at(-1)?.text).toMatch(/^Done: published = true\./);
    const second = await agent.invoke({ messages: [{ role: "user", content: "write a draft" }] }, thread);
    expect(second.messages.at(-1)?.text).toBe("Nothing to do: drafted = true already holds.");
  });
});
