import { describe, expect, it } from "vitest";
import { ActionQos, GoalSpec, type PlanningTracer } from "../../src/core/index.js";
import { computeGoalHash, type ExecutionRecord, FunctionalSensor, GoapGraph, MaxActionsPolicy } from "../../src/graph/index.js";
import type { Plan } from "../../src/planner/index.js";
import { quietLogger, tracked } from "./support.js";

class TimeoutError extends Error {
  override name = "TimeoutError";
}

function writerDomain(calls: string[]) {
  let fast = 0;
  let research = 0;
  return [
    tracked(calls, {
      name: "research",
      effects: { researched: true },
      qos: new ActionQos({ maxAttempts: 2, jitter: 0, backoffInitialMs: 10 }),
      run: () => {
        if (research++ === 0) throw new TimeoutError("slow search");
      },
    }),
    tracked(calls, {
      name: "write_fast",
      preconditions: { researched: true },
      effects: { drafted: true },
      run: () => {
        if (fast++ === 0) throw new Error("rate limited");
      },
    }),
    tracked(calls, { name: "write_premium", preconditions: { researched: true }, effects: { drafted: true }, cost: 5 }),
    tracked(calls, { name: "publish", preconditions: { drafted: true }, effects: { published: true } }),
  ];
}

function recordingTracer(events: string[]): PlanningTracer {
  return {
    onPlanStart: (goal, _s, strategy) => events.push(`planStart:${JSON.stringify((goal as GoalSpec).conditions)}:${strategy}`),
    onStrategyChosen: (name) => events.push(`strategy:${name}`),
    onPlanComplete: (plan) => events.push(`planComplete:${(plan as Plan).actionNames.join(",")}`),
    onPlanFailed: (reason) => events.push(`planFailed:${reason}`),
    onReplan: (reason, plan) => events.push(`replan:${reason}:${(plan as Plan).actionNames.join(",")}`),
    onActionStart: (action) => events.push(`start:${action.name}`),
    onActionRetry: (action, attempt, _e, ms) => events.push(`retry:${action.name}#${attempt}@${ms}`),
    onActionComplete: (r) => {
      const result = r as { actionName: string; success: boolean };
      events.push(`complete:${result.actionName}:${result.success ? "ok" : "failed"}`);
    },
    onSensorComplete: (name) => events.push(`sensor:${name}`),
    onGoalAchieved: () => events.push("goalAchieved"),
  };
}

describe("tracer hooks", () => {
  it("fire at each transition of a run with a retry and a replan", async () => {
    const events: string[] = [];
    const graph = new GoapGraph(writerDomain([]), {
      tracer: recordingTracer(events),
      sensors: [new FunctionalSensor("clock", () => ({}))],
      sleep: async () => {},
      logger: quietLogger(),
    });
    await graph.invoke({ published: true }, {});
    expect(events).toEqual([
      "sensor:clock",
      'planStart:{"published":true}:astar',
      "strategy:astar",
      "planComplete:research,write_fast,publish",
      "start:research",
      "retry:research#1@10",
      "complete:research:ok",
      "start:write_fast",
      "complete:write_fast:failed",
      "sensor:clock",
      'planStart:{"published":true}:astar',
      "strategy:astar",
      "replan:action_failed:write_premium,publish",
      "planComplete:write_premium,publish",
      "start:write_premium",
      "complete:write_premium:ok",
      "start:publish",
      "complete:publish:ok",
      "goalAchieved",
    ]);
  });

  it("a tracer that throws or rejects never breaks the run", async () => {
    const angry: PlanningTracer = {
      onPlanStart: () => {
        throw new Error("tracer bug");
      },
      onActionStart: async () => {
        throw new Error("async tracer bug");
      },
      onGoalAchieved: () => Promise.reject(new Error("late bug")),
    };
    const result = await new GoapGraph(writerDomain([]), { tracer: angry, sleep: async () => {}, logger: quietLogger() }).invoke(
      { published: true },
      {},
    );
    expect(result.status).toBe("goal_achieved");
  });

  it("reports a missing plan once, and terminal failures with their reason", async () => {
    const events: string[] = [];
    await new GoapGraph(writerDomain([]), { tracer: recordingTracer(events), logger: quietLogger() }).invoke({ impossible: true }, {});
    expect(events.filter((e) => e.startsWith("planFailed"))).toEqual(["planFailed:no_plan"]);
    events.length = 0;
    const never = new GoalSpec({ conditions: { published: true }, policy: { replanStrategy: "never" } });
    await new GoapGraph(writerDomain([]), { tracer: recordingTracer(events), sleep: async () => {}, logger: quietLogger() }).invoke(
      never,
      {},
    );
    expect(events.filter((e) => e.startsWith("planFailed"))).toEqual(["planFailed:action_failed"]);
  });
});

describe("execution history", () => {
  function memoryHistory() {
    const records: ExecutionRecord[] = [];
    return {
      records,
      record: async (r: ExecutionRecord) => {
        records.push(r);
        return `r${records.length}`;
      },
    };
  }

  it("writes one record at a terminal state with plan, costs, outcome and failures", async () => {
    const history = memoryHistory();
    const graph = new GoapGraph(writerDomain([]), {
      history,
      sleep: async () => {},
      now: () => Date.UTC(2026, 0, 2),
      logger: quietLogger(),
    });
    const result = await graph.invoke({ published: true }, {});
    expect(result.runId).toMatch(/^[0-9a-f-]{36}$/);
    expect(history.records).toEqual([
      {
        id: result.runId,
        goalHash: computeGoalHash({ published: true }),
        goalConditions: { published: true },
        planActions: ["write_premium", "publish"],
        expectedCost: 6,
        actualCost: 7,
        outcome: "success",
        status: "goal_achieved",
        replanCount: 1,
        timestamp: "2026-01-02T00:00:00.000Z",
        failedActions: ["write_fast"],
        metadata: { executedActions: ["research", "write_premium", "publish"] },
        runId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
    ]);
  });

  it("records failures, no_plan and terminations with their outcome", async () => {
    const history = memoryHistory();
    const never = new GoalSpec({ conditions: { published: true }, policy: { replanStrategy: "never" } });
    await new GoapGraph(writerDomain([]), { history, sleep: async () => {}, logger: quietLogger() }).invoke(never, {});
    await new GoapGraph(writerDomain([]), { history, logger: quietLogger() }).invoke({ impossible: true }, {});
    await new GoapGraph(writerDomain([]), {
      history,
      sleep: async () => {},
      terminationPolicies: [new MaxActionsPolicy(1)],
      logger: quietLogger(),
    }).invoke({ published: true }, {});
    expect(history.records.map((r) => [r.status, r.outcome])).toEqual([
      ["failed", "failed"],
      ["no_plan", "failed"],
      ["terminated", "failed"],
    ]);
  });

  it("a failing history store is logged and swallowed", async () => {
    const logger = quietLogger();
    const broken = { record: async () => Promise.reject(new Error("disk full")) };
    const result = await new GoapGraph(writerDomain([]), { history: broken, sleep: async () => {}, logger }).invoke(
      { published: true },
      {},
    );
    expect(result.status).toBe("goal_achieved");
    expect(logger.messages).toEqual(["execution history could not record the run: disk full"]);
  });
});
