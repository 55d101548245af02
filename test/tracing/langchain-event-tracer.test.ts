import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { RunnableLambda } from "@langchain/core/runnables";
import { Annotation, END, START, StateGraph } from "@langchain/langgraph";
import { describe, expect, it, vi } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { LangChainEventTracer } from "../../src/tracing/index.js";

class CustomEvents extends BaseCallbackHandler {
  name = "custom-events";
  readonly seen: [string, unknown][] = [];
  constructor() {
    super({ _awaitHandler: true });
  }
  override handleCustomEvent(eventName: string, data: unknown) {
    this.seen.push([eventName, data]);
  }
}

const write = new ActionSpec({ name: "write", effects: { drafted: true } });

describe("LangChainEventTracer", () => {
  it("dispatches each hook as a langgoap.* custom event inside the enclosing run", async () => {
    const handler = new CustomEvents();
    const tracer = new LangChainEventTracer();
    const step = RunnableLambda.from(async () => {
      await tracer.onPlanStart({ toJSON: () => ({ conditions: { drafted: true } }) }, { drafted: false }, "astar");
      await tracer.onPlanComplete({ actionNames: ["write"], totalCost: 1 }, 0.5);
      await tracer.onActionStart(write, {});
      await tracer.onActionComplete({ actionName: "write", success: true, error: null });
      await tracer.onGoalAchieved({ drafted: true });
      return "done";
    });
    await step.invoke({}, { callbacks: [handler] });
    expect(handler.seen).toEqual([
      ["langgoap.plan_start", { goal: { conditions: { drafted: true } }, strategy: "astar", state: { drafted: false } }],
      ["langgoap.plan_complete", { actions: ["write"], totalCost: 1, durationMs: 0.5 }],
      ["langgoap.action_start", { action: "write" }],
      ["langgoap.action_complete", { action: "write", success: true, error: null }],
      ["langgoap.goal_achieved", { state: { drafted: true } }],
    ]);
  });

  it("shows up in a LangGraph node's streamEvents", async () => {
    const tracer = new LangChainEventTracer({ prefix: "goap/" });
    const State = Annotation.Root({ n: Annotation<number> });
    const graph = new StateGraph(State)
      .addNode("planner", async () => {
        await tracer.onStrategyChosen("astar");
        return { n: 1 };
      })
      .addEdge(START, "planner")
      .addEdge("planner", END)
      .compile();
    const custom: [string, unknown][] = [];
    for await (const event of graph.streamEvents({ n: 0 }, { version: "v2" })) {
      if (event.event === "on_custom_event") custom.push([event.name, event.data]);
    }
    expect(custom).toEqual([["goap/strategy_chosen", { strategy: "astar" }]]);
  });

  it("does nothing outside a run and reports a throwing handler without throwing", async () => {
    await expect(new LangChainEventTracer().onStrategyChosen("astar")).resolves.toBeUndefined();
    class Broken extends BaseCallbackHandler {
      name = "broken";
      constructor() {
        super({ _awaitHandler: true, raiseError: true });
      }
      override handleCustomEvent(): void {
        throw new Error("handler broke");
      }
    }
    const errors: unknown[] = [];
    const tracer = new LangChainEventTracer({ onError: (e) => errors.push(e) });
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await RunnableLambda.from(async () => tracer.onStrategyChosen("astar")).invoke({}, { callbacks: [new Broken()] });
    } finally {
      quiet.mockRestore();
    }
    expect((errors[0] as Error)?.message).toBe("handler broke");
  });
});
