import { describe, expect, it } from "vitest";
import { ActionSpec, type PlanningTracer } from "../../src/core/index.js";
import type { ExecutionHistory, ExecutionRecord } from "../../src/graph/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { SafeTracer } from "../../src/tracing/index.js";
import { quietLogger } from "./support.js";

const never = () => new Promise<never>(() => undefined);

function twoSteps(calls: string[]): ActionSpec[] {
  return [
    new ActionSpec({ name: "pack", effects: { packed: true }, execute: () => void calls.push("pack") }),
    new ActionSpec({ name: "ship", preconditions: { packed: true }, effects: { shipped: true }, execute: () => void calls.push("ship") }),
  ];
}

/** A tracer whose `onActionStart` never settles; every hook call is logged. */
function hangingTracer(hooks: string[]): PlanningTracer {
  return {
    onPlanStart: () => void hooks.push("onPlanStart"),
    onActionStart: (action) => {
      hooks.push(`onActionStart:${action.name}`);
      return never();
    },
    onActionComplete: () => void hooks.push("onActionComplete"),
    onGoalAchieved: () => void hooks.push("onGoalAchieved"),
  };
}

const DROPPED = "tracer hook onActionStart did not settle within 20 ms; the tracer is dropped for the rest of this run";

describe("nothing hangs: observers", () => {
  it("a tracer hook that never settles is cut off after observerTimeoutMs and dropped for the rest of the run, with one warning", async () => {
    const calls: string[] = [];
    const hooks: string[] = [];
    const logger = quietLogger();
    const graph = new GoapGraph(twoSteps(calls), { tracer: hangingTracer(hooks), logger, observerTimeoutMs: 20 });
    const result = await graph.invoke({ shipped: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(calls).toEqual(["pack", "ship"]);
    expect(hooks).toEqual(["onPlanStart", "onActionStart:pack"]);
    expect(logger.messages.filter((m) => m.includes("did not settle"))).toEqual([DROPPED]);
  });

  it("behind a user's SafeTracer too", async () => {
    const calls: string[] = [];
    const hooks: string[] = [];
    const logger = quietLogger();
    const tracer = SafeTracer.wrap(hangingTracer(hooks));
    const result = await new GoapGraph(twoSteps(calls), { tracer, logger, observerTimeoutMs: 20 }).invoke({ shipped: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(hooks).toEqual(["onPlanStart", "onActionStart:pack"]);
    expect(logger.messages).toContain(DROPPED);
  });

  it("the drop lasts one run: the next run calls the tracer again", async () => {
    const hooks: string[] = [];
    const logger = quietLogger();
    const graph = new GoapGraph(twoSteps([]), { tracer: hangingTracer(hooks), logger, observerTimeoutMs: 20 });
    await graph.invoke({ shipped: true }, {});
    await graph.invoke({ shipped: true }, {});
    expect(hooks).toEqual(["onPlanStart", "onActionStart:pack", "onPlanStart", "onActionStart:pack"]);
    expect(logger.messages.filter((m) => m === DROPPED)).toHaveLength(2);
  });

  it("a tracer's action scope that never finishes, or never starts the action, runs the action once and is cut off", async () => {
    for (const scope of ["never_finishes", "never_starts"] as const) {
      const calls: string[] = [];
      const logger = quietLogger();
      const tracer: PlanningTracer = {
        runAction: (_action, execute) => {
          if (scope === "never_finishes") void execute();
          return never();
        },
      };
      const result = await new GoapGraph(twoSteps(calls), { tracer, logger, observerTimeoutMs: 20 }).invoke({ shipped: true }, {});
      expect(result.status).toBe("goal_achieved");
      expect(calls).toEqual(["pack", "ship"]);
      expect(logger.messages).toContain(
        "tracer hook runAction did not settle within 20 ms; the tracer is dropped for the rest of this run",
      );
    }
  });

  it("a history store whose record() never settles does not hold the run's end; the run says so", async () => {
    const logger = quietLogger();
    const records: ExecutionRecord[] = [];
    const history = {
      record: (record: ExecutionRecord) => {
        records.push(record);
        return never();
      },
    } as unknown as ExecutionHistory;
    const result = await new GoapGraph(twoSteps([]), { history, logger, observerTimeoutMs: 20 }).invoke({ shipped: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(records).toHaveLength(1);
    expect(logger.messages).toContain("execution history could not record the run: execution history record() did not settle within 20 ms");
  });

  it("a hook behind a throwing getter is isolated", async () => {
    const calls: string[] = [];
    const tracer = {
      get onActionStart(): never {
        throw new Error("getter broke");
      },
    } as PlanningTracer;
    const result = await new GoapGraph(twoSteps(calls), { tracer, logger: quietLogger() }).invoke({ shipped: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(calls).toEqual(["pack", "ship"]);
  });

  it("observerTimeoutMs is checked", () => {
    expect(() => new GoapGraph([], { observerTimeoutMs: 0 })).toThrow(
      "observerTimeoutMs must be a number of milliseconds > 0 (Infinity for no limit), got 0",
    );
  });
});
