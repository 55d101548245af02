import { describe, expect, it } from "vitest";
import { ActionSpec, DEFAULT_OBSERVER_TIMEOUT_MS, LangGoapError, type PlanningTracer } from "../../src/core/index.js";
import { SafeTracer } from "../../src/tracing/index.js";

const never = () => new Promise<never>(() => undefined);

describe("SafeTracer time limit", () => {
  it("a hook that never settles resolves after timeoutMs and is reported as a TIMEOUT naming the hook", async () => {
    const errors: [unknown, string][] = [];
    const safe = new SafeTracer({ onPlanComplete: never }, { timeoutMs: 15, onError: (e, hook) => errors.push([e, hook]) });
    await expect(safe.onPlanComplete(null, 1)).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
    const [error, hook] = errors[0] as [LangGoapError, string];
    expect(hook).toBe("onPlanComplete");
    expect(error).toBeInstanceOf(LangGoapError);
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toBe("tracer hook onPlanComplete did not settle within 15 ms");
  });

  it("an action scope that never settles still yields the action's own outcome, once", async () => {
    let runs = 0;
    const errors: string[] = [];
    const inner: PlanningTracer = {
      runAction: (_action, execute) => {
        void execute();
        return never();
      },
    };
    const safe = new SafeTracer(inner, { timeoutMs: 15, onError: (_e, hook) => errors.push(hook) });
    const action = new ActionSpec({ name: "a" });
    await expect(safe.runAction(action, async () => ++runs)).resolves.toBe(1);
    expect(runs).toBe(1);
    expect(errors).toEqual(["runAction"]);
  });

  it("defaults to 5 s; wrapping a SafeTracer with a new limit makes a new layer", () => {
    const inner = new SafeTracer({});
    expect(inner.timeoutMs).toBe(DEFAULT_OBSERVER_TIMEOUT_MS);
    expect(DEFAULT_OBSERVER_TIMEOUT_MS).toBe(5_000);
    expect(SafeTracer.wrap(inner)).toBe(inner);
    expect(SafeTracer.wrap(inner, { timeoutMs: 50 }).timeoutMs).toBe(50);
    expect(() => new SafeTracer({}, { timeoutMs: -1 })).toThrow("SafeTracer timeoutMs must be a number of milliseconds > 0");
  });
});
