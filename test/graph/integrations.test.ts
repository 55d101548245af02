import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { computeGoalHash, GoapGraph, StoreExecutionHistory } from "../../src/graph/index.js";
import { MultiTracer, RecordingTracer, ReflexionTracer } from "../../src/tracing/index.js";
import { quietLogger } from "./support.js";

function writers() {
  let fast = 0;
  return [
    new ActionSpec({ name: "research", effects: { researched: true } }),
    new ActionSpec({
      name: "write_fast",
      preconditions: { researched: true },
      effects: { drafted: true },
      execute: () => {
        if (fast++ === 0) throw new Error("rate limited");
      },
    }),
    new ActionSpec({ name: "write_premium", preconditions: { researched: true }, effects: { drafted: true }, cost: 5 }),
    new ActionSpec({ name: "publish", preconditions: { drafted: true }, effects: { published: true } }),
  ];
}

describe("the graph with the library's tracers and history store", () => {
  it("records runs in StoreExecutionHistory and finds them by goal and by failed action", async () => {
    const history = new StoreExecutionHistory(new InMemoryStore());
    await new GoapGraph(writers(), { history, logger: quietLogger() }).invoke({ published: true }, {});
    const byGoal = await history.queryByGoal(computeGoalHash({ published: true }));
    expect(byGoal).toHaveLength(1);
    expect(byGoal[0]).toMatchObject({
      outcome: "success",
      planActions: ["write_premium", "publish"],
      failedActions: ["write_fast"],
      replanCount: 1,
    });
    expect((await history.queryFailures("write_fast")).length).toBe(1);
  });

  it("feeds ReflexionTracer lessons into reflectionContext and emits the recorded event sequence", async () => {
    const reflexion = new ReflexionTracer();
    const recording = new RecordingTracer();
    const result = await new GoapGraph(writers(), { tracer: new MultiTracer([reflexion, recording]), logger: quietLogger() }).invoke(
      { published: true },
      {},
    );
    expect(result.reflectionContext).toHaveLength(1);
    expect(result.reflectionContext[0]).toMatch(/^\[write_fast\] .+ → .+/);
    expect(recording.names).toContain("replan");
    expect(recording.names.at(-1)).toBe("goal_achieved");
  });
});
