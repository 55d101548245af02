import { BaseTracer, type Run } from "@langchain/core/tracers/base";
import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { GoapGraph, successfulActionNames } from "../../src/graph/index.js";
import { FakeStructuredChatModel } from "../../src/testing/index.js";
import { quietLogger } from "./support.js";

const actions = () => [
  new ActionSpec({ name: "draft", effects: { drafted: true }, description: "Write a first draft" }),
  new ActionSpec({ name: "publish", preconditions: { drafted: true }, effects: { published: true }, description: "Publish the post" }),
];

describe("invokeNl", () => {
  it("interprets the request over the graph's actions and runs the goal", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { published: true }, reasoning: "the user wants it live" }] });
    const result = await new GoapGraph(actions(), { logger: quietLogger() }).invokeNl("please get the post out", {}, { llm });
    expect(result.status).toBe("goal_achieved");
    expect(successfulActionNames(result)).toEqual(["draft", "publish"]);
    expect(llm.callCount).toBe(1);
    expect(llm.calls[0]?.messages.at(-1)?.content).toBe("please get the post out");
  });

  it("rejects before executing anything when the model names facts the actions do not know", async () => {
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { teleported: true } }] });
    const graph = new GoapGraph(actions(), { logger: quietLogger() });
    await expect(graph.invokeNl("beam me up", {}, { llm })).rejects.toThrow(/teleported/);
  });

  it("is one root run, with the interpretation and the graph run nested under it", async () => {
    const roots: Run[] = [];
    class RootCollector extends BaseTracer {
      name = "root_collector";
      protected async persistRun(run: Run): Promise<void> {
        roots.push(run);
      }
    }
    const llm = new FakeStructuredChatModel({ responses: [{ conditions: { published: true } }] });
    const result = await new GoapGraph(actions(), { logger: quietLogger() }).invokeNl(
      "ship it",
      {},
      {
        llm,
        config: { callbacks: [new RootCollector()], runName: "publish-request" },
      },
    );
    expect(result.status).toBe("goal_achieved");
    expect(roots.map((r) => r.name)).toEqual(["publish-request"]);
    const children = roots[0]?.child_runs ?? [];
    // First the interpretation (the model call, wherever the interpreter nests it), then the graph run.
    const names = (run: Run): string[] => [run.name, ...run.child_runs.flatMap(names)];
    const all = children.flatMap(names);
    expect(all).toContain("FakeStructuredChatModel");
    expect(children.at(-1)?.name).toBe("LangGraph");
    expect(all.filter((n) => n === "publish-request")).toEqual([]);
  });

  it("requires a model", async () => {
    await expect(new GoapGraph(actions()).invokeNl("x", {}, {} as never)).rejects.toThrow(
      "options.llm (a LangChain chat model) is required",
    );
  });
});
