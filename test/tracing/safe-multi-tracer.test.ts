import { describe, expect, it } from "vitest";
import { ActionSpec, type PlanningTracer, TRACER_HOOKS } from "../../src/core/index.js";
import { MultiTracer, NullTracer, RecordingTracer, SafeTracer, type TraceHook } from "../../src/tracing/index.js";

const action = new ActionSpec({ name: "write", effects: { drafted: true } });

/** Calls every hook once with plausible arguments; returns the hooks' promises. */
function fireAll(tracer: PlanningTracer): unknown[] {
  return [
    tracer.onPlanStart?.({ drafted: true }, {}, "astar"),
    tracer.onPlanComplete?.({ actionNames: ["write"], totalCost: 1 }, 1),
    tracer.onPlanFailed?.("no_plan", 1),
    tracer.onActionStart?.(action, {}),
    tracer.onActionComplete?.({ actionName: "write", success: true, error: null }),
    tracer.onActionRetry?.(action, 1, new Error("flaky"), 10),
    tracer.onStrategyChosen?.("astar"),
    tracer.onReplan?.("action_failed", null),
    tracer.onGoalAchieved?.({ drafted: true }),
    tracer.onSensorComplete?.("clock", { hour: 3 }),
    tracer.onSearchExpand?.({ nodeId: 0, parentId: null, actionName: null, state: {}, g: 0, h: 1, f: 1 }),
    tracer.onSearchDeadEnd?.("no successors", { nodeId: 0 }),
    tracer.onSearchComplete?.(1, 1, true),
  ];
}

function throwingTracer(mode: "throw" | "reject"): PlanningTracer {
  const tracer: Record<string, unknown> = {};
  for (const hook of TRACER_HOOKS) {
    tracer[hook] =
      mode === "throw"
        ? () => {
            throw new Error(`${hook} broke`);
          }
        : () => Promise.reject(new Error(`${hook} rejected`));
  }
  return tracer as PlanningTracer;
}

describe("SafeTracer", () => {
  it("swallows throwing and rejecting hooks and reports each one", async () => {
    for (const mode of ["throw", "reject"] as const) {
      const errors: [string, TraceHook | "runAction"][] = [];
      const safe = new SafeTracer(throwingTracer(mode), { onError: (e, hook) => errors.push([(e as Error).message, hook]) });
      const results = fireAll(safe);
      await Promise.all(results);
      expect(errors.map(([, hook]) => hook)).toEqual([...TRACER_HOOKS]);
      expect(errors[0]?.[0]).toBe(mode === "throw" ? "onPlanStart broke" : "onPlanStart rejected");
    }
  });

  it("survives a throwing getter and a throwing error reporter", async () => {
    const hostile = Object.defineProperty({}, "onPlanStart", {
      get() {
        throw new Error("getter");
      },
    }) as PlanningTracer;
    const safe = new SafeTracer(hostile, {
      onError: () => {
        throw new Error("reporter");
      },
    });
    expect(() => safe.onPlanStart({}, {}, "astar")).not.toThrow();
    await expect(Promise.resolve(new SafeTracer(throwingTracer("reject")).onGoalAchieved({}))).resolves.toBeUndefined();
  });

  it("delivers events unchanged and reads reflections through", () => {
    const recorder = new RecordingTracer();
    const inner = Object.assign(recorder, { reflections: [{ actionName: "write" }] });
    const safe = SafeTracer.wrap(inner);
    fireAll(safe);
    expect(recorder.names).toEqual([
      "plan_start",
      "plan_complete",
      "plan_failed",
      "action_start",
      "action_complete",
      "action_retry",
      "strategy_chosen",
      "replan",
      "goal_achieved",
      "sensor_complete",
      "search_expand",
      "search_dead_end",
      "search_complete",
    ]);
    expect(safe.reflections).toEqual([{ actionName: "write" }]);
  });

  it("does not stack wrappers", () => {
    const recorder = new RecordingTracer();
    const once = SafeTracer.wrap(recorder);
    expect(SafeTracer.wrap(once)).toBe(once);
    expect(new SafeTracer(once).inner).toBe(recorder);
    expect(SafeTracer.wrap(undefined)).toBeUndefined();
  });
});

describe("MultiTracer", () => {
  it("fans events out in order, isolating a broken tracer", async () => {
    const order: string[] = [];
    const first: PlanningTracer = { onStrategyChosen: (s) => order.push(`first:${s}`) };
    const second: PlanningTracer = {
      onStrategyChosen: async (s) => {
        await Promise.resolve();
        order.push(`second:${s}`);
      },
    };
    const errors: unknown[] = [];
    const multi = new MultiTracer([first, throwingTracer("throw"), undefined, second, new NullTracer()], {
      onError: (e) => errors.push(e),
    });
    await multi.onStrategyChosen("astar");
    expect(order).toEqual(["first:astar", "second:astar"]);
    expect(errors).toHaveLength(1);
    expect(multi.tracers).toHaveLength(4);
  });

  it("returns no promise when every hook is synchronous", () => {
    const multi = new MultiTracer([new RecordingTracer(), new RecordingTracer()]);
    expect(multi.onGoalAchieved({})).toBeUndefined();
  });

  it("aggregates reflections of its tracers", () => {
    const multi = new MultiTracer([
      { reflections: [1] } as PlanningTracer,
      new RecordingTracer(),
      { reflections: [2, 3] } as PlanningTracer,
    ]);
    expect(multi.reflections).toEqual([1, 2, 3]);
  });
});
