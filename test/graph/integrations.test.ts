import { InMemoryStore } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { computeGoalHash, GoapGraph, StoreExecutionHistory } from "../../src/graph/index.js";
import { MultiTracer, RecordingTracer, ReflexionTracer } from "../../src/tracing/index.js";
import { flakyWriterActions } from "../support/writer.js";
import { quietLogger } from "./support.js";

const writers = flakyWriterActions;

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
