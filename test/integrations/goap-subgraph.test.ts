import { Annotation, END, MemorySaver, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ActionSpec, LangGoapError, type WorldState } from "../../src/core/index.js";
import { type GoalInput, type GoapState, successfulActionNames } from "../../src/graph/index.js";
import { addGoapSubgraph, GoapSubgraph, type SubgraphGoal } from "../../src/integrations/index.js";
import { quietLogger } from "../graph/support.js";
import { flakyWriterActions } from "../support/writer.js";

function publishing() {
  return [...flakyWriterActions(), new ActionSpec({ name: "announce", preconditions: { published: true }, effects: { announced: true } })];
}

const Parent = Annotation.Root({
  request: Annotation<string>(),
  facts: Annotation<WorldState>(),
  outcome: Annotation<GoapState | null>({ reducer: (_old, next) => next, default: () => null }),
  summary: Annotation<string>(),
});

/** intake → goap → report: the GOAP run is one node among the user's own. */
function parentGraph(goal: SubgraphGoal<typeof Parent.State>) {
  const builder = new StateGraph(Parent).addNode("intake", (state: typeof Parent.State) => ({
    facts: { topic: state.request, researched: state.request.includes("notes attached") },
  }));
  return addGoapSubgraph(builder, "goap", {
    actions: publishing(),
    goal,
    inputKey: "facts",
    outputKey: "outcome",
    graphOptions: { logger: quietLogger() },
  })
    .addNode("report", (state: typeof Parent.State) => ({
      summary: `${state.outcome?.status}: ${successfulActionNames(state.outcome as GoapState).join(" → ")}`,
    }))
    .addEdge(START, "intake")
    .addEdge("intake", "goap")
    .addEdge("goap", "report")
    .addEdge("report", END);
}

describe("addGoapSubgraph inside a parent StateGraph", () => {
  it("reads the world state from the input key and writes the final GOAP state to the output key", async () => {
    const app = parentGraph({ published: true }).compile();
    const result = await app.invoke({ request: "GOAP in games" });

    expect(result.summary).toBe("goal_achieved: research → write_premium → publish");
    const outcome = result.outcome as GoapState;
    expect(outcome.status).toBe("goal_achieved");
    expect(outcome.replanCount).toBe(1);
    expect(outcome.blacklistedActions).toEqual(["write_fast"]);
    expect(outcome.worldState).toEqual({ topic: "GOAP in games", researched: true, drafted: true, published: true });
    // The parent's own world state is untouched: the run's result lives under the output key only.
    expect(result.facts).toEqual({ topic: "GOAP in games", researched: false });
  });

  it("plans from what the parent put in the state", async () => {
    const app = parentGraph({ published: true }).compile();
    const result = await app.invoke({ request: "GOAP, notes attached" });
    expect(result.summary).toBe("goal_achieved: write_premium → publish");
  });

  it("takes the goal from the parent state when given a function", async () => {
    const app = parentGraph((state): GoalInput => (state.request.includes("announce") ? { announced: true } : { drafted: true })).compile();
    expect((await app.invoke({ request: "write it" })).summary).toBe("goal_achieved: research → write_premium");
    // The fast writer failed only once (its counter lives in the actions), so the second run keeps it.
    expect((await app.invoke({ request: "write and announce" })).summary).toBe("goal_achieved: research → write_fast → publish → announce");
  });

  it("runs as a real subgraph: checkpointed with the parent thread, visible when streaming subgraphs", async () => {
    const app = parentGraph({ published: true }).compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "parent-1" } };
    const namespaces = new Set<string>();
    for await (const [namespace] of await app.stream({ request: "GOAP" }, { ...config, streamMode: "updates", subgraphs: true })) {
      namespaces.add(namespace.map((n: string) => n.split(":")[0]).join("/"));
    }
    expect([...namespaces].sort()).toEqual(["", "goap"]);
    const snapshot = await app.getState(config);
    expect(snapshot.next).toEqual([]);
    expect(snapshot.values.summary).toBe("goal_achieved: research → write_premium → publish");
  });

  it("works with zod-defined parent state", async () => {
    const ZParent = z.object({ world: z.record(z.string(), z.any()).default({}), result: z.any().optional() });
    const app = addGoapSubgraph(new StateGraph(ZParent), "plan_and_run", {
      actions: publishing(),
      goal: { announced: true },
      inputKey: "world",
      outputKey: "result",
      graphOptions: { logger: quietLogger() },
    })
      .addEdge(START, "plan_and_run")
      .addEdge("plan_and_run", END)
      .compile();
    const out = await app.invoke({ world: { researched: true } });
    expect((out.result as GoapState).status).toBe("goal_achieved");
    expect(successfulActionNames(out.result as GoapState)).toEqual(["write_premium", "publish", "announce"]);
  });

  it("rejects keys the parent state does not have, naming the keys it does", () => {
    const builder = new StateGraph(Parent);
    const attempt = () => addGoapSubgraph(builder, "goap", { actions: publishing(), goal: { published: true }, inputKey: "world" });
    expect(attempt).toThrowError(LangGoapError);
    expect(attempt).toThrowError(
      'addGoapSubgraph("goap"): inputKey "world" is not a key of the parent state; its keys are [request, facts, outcome, summary]',
    );
    expect(() => addGoapSubgraph(builder, "goap", { actions: publishing(), goal: { published: true }, inputKey: "facts" })).toThrowError(
      /outputKey "goapResult" is not a key of the parent state/,
    );
    expect(() => addGoapSubgraph({} as never, "goap", { actions: [], goal: {} })).toThrowError(
      /parent must be a LangGraph StateGraph builder/,
    );
  });

  it("fails the parent run with a clear error when the input key does not hold a world state", async () => {
    const app = addGoapSubgraph(new StateGraph(Parent), "goap", {
      actions: publishing(),
      goal: { published: true },
      inputKey: "request",
      outputKey: "outcome",
    })
      .addEdge(START, "goap")
      .compile();
    await expect(app.invoke({ request: "not a world state" })).rejects.toThrowError(
      'GoapSubgraph: parent state "request" must be an object of facts (the world state), got "not a world state"',
    );
  });
});

describe("GoapSubgraph", () => {
  it("compiles to the GOAP graph itself and makes node functions for any keys", async () => {
    const subgraph = new GoapSubgraph(publishing(), { published: true }, { logger: quietLogger() });
    expect(subgraph.compile().constructor.name).toBe("CompiledStateGraph");
    const node = subgraph.node({ inputKey: "w", outputKey: "r" });
    const update = await node({ w: { researched: true, drafted: true } });
    expect(Object.keys(update)).toEqual(["r"]);
    expect(successfulActionNames(update.r as GoapState)).toEqual(["publish"]);
  });
});
