import { describe, expect, it } from "vitest";
import { ActionQos, ActionSpec, LangGoapError } from "../../src/core/index.js";
import {
  DEFAULT_ACTION_TIMEOUT_MS,
  DEFAULT_SENSOR_TIMEOUT_MS,
  FunctionalSensor,
  GoapGraph,
  type SensorContext,
} from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

const never = () => new Promise<never>(() => undefined);

describe("nothing hangs: actions", () => {
  it("an action that never settles times out after its QoS timeoutMs; its signal is aborted and the run replans", async () => {
    const signals: AbortSignal[] = [];
    const hang = new ActionSpec({
      name: "call_api",
      effects: { fetched: true },
      qos: new ActionQos({ timeoutMs: 20 }),
      execute: (_state, ctx) => {
        if (ctx.signal) signals.push(ctx.signal);
        return never();
      },
    });
    const cache = new ActionSpec({ name: "read_cache", effects: { fetched: true }, cost: 5 });
    const result = await new GoapGraph([hang, cache], { logger: quietLogger() }).invoke({ fetched: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(result.executionHistory.map((r) => [r.actionName, r.failure, r.error])).toEqual([
      ["call_api", "timeout", 'action "call_api" (attempt 1) did not settle within 20 ms'],
      ["read_cache", null, null],
    ]);
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toBeInstanceOf(LangGoapError);
    expect((signals[0] as AbortSignal).reason.code).toBe("TIMEOUT");
  });

  it("the graph's actionTimeoutMs applies to actions without their own; the only way ends the run failed naming it", async () => {
    let calls = 0;
    const hang = new ActionSpec({
      name: "deploy",
      effects: { deployed: true },
      execute: () => {
        calls++;
        return never();
      },
    });
    const result = await new GoapGraph([hang], { logger: quietLogger(), actionTimeoutMs: 15 }).invoke({ deployed: true }, {});
    expect(result.status).toBe("failed");
    expect(result.replanReason).toBe(
      'action_exhausted: "deploy" failed 2 times (last: action "deploy" (attempt 1) did not settle within 15 ms), and no plan avoids it',
    );
    expect(calls).toBe(2);
  });

  it("a timeout is retried by QoS as a TimeoutError, and the next attempt can succeed", async () => {
    const attempts: number[] = [];
    const flaky = new ActionSpec({
      name: "upload",
      effects: { uploaded: true },
      qos: new ActionQos({ maxAttempts: 2, timeoutMs: 20, backoffInitialMs: 0, jitter: 0 }),
      execute: (_state, ctx) => {
        attempts.push(ctx.attempt);
        return ctx.attempt === 1 ? never() : { uploaded: true };
      },
    });
    const result = await new GoapGraph([flaky], { logger: quietLogger(), sleep: async () => undefined }).invoke({ uploaded: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(attempts).toEqual([1, 2]);
    expect(result.executionHistory.map((r) => [r.success, r.attempts])).toEqual([[true, 2]]);
  });

  it("Infinity turns the limit off; the defaults are 5 minutes for actions and 30 s for sensors", async () => {
    expect(DEFAULT_ACTION_TIMEOUT_MS).toBe(300_000);
    expect(DEFAULT_SENSOR_TIMEOUT_MS).toBe(30_000);
    const slow = new ActionSpec({
      name: "slow",
      effects: { done: true },
      qos: { timeoutMs: Number.POSITIVE_INFINITY },
      execute: () => new Promise((resolve) => setTimeout(() => resolve({ done: true }), 30)),
    });
    const result = await new GoapGraph([slow], { logger: quietLogger(), actionTimeoutMs: 1 }).invoke({ done: true }, {});
    expect(result.status).toBe("goal_achieved");
  });

  it("bad limits are errors naming the option", () => {
    expect(() => new ActionQos({ timeoutMs: 0 })).toThrow(
      "ActionQos.timeoutMs must be a number of milliseconds > 0 (Infinity for no limit), got 0",
    );
    expect(() => new GoapGraph([], { actionTimeoutMs: -5 })).toThrow("actionTimeoutMs must be a number of milliseconds > 0");
    expect(() => new GoapGraph([], { sensorTimeoutMs: Number.NaN })).toThrow("sensorTimeoutMs must be a number of milliseconds > 0");
    expect(() => new FunctionalSensor("s", () => undefined, { timeoutMs: -1 })).toThrow('sensor "s" timeoutMs must be');
  });
});

describe("nothing hangs: sensors", () => {
  it("a sensor that never answers is skipped after the graph's sensorTimeoutMs, with a warning and its signal aborted", async () => {
    const logger = quietLogger();
    const seen: SensorContext[] = [];
    const stuck = new FunctionalSensor("inventory", (_state, context) => {
      seen.push(context);
      return never();
    });
    const clock = new FunctionalSensor("clock", () => ({ daytime: true }));
    const work = new ActionSpec({ name: "work", preconditions: { daytime: true }, effects: { worked: true } });
    const graph = new GoapGraph([work], { logger, sensors: [stuck, clock], sensorTimeoutMs: 15 });
    const result = await graph.invoke({ worked: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(logger.messages).toContain('sensor "inventory" timed out and was skipped: sensor "inventory" did not settle within 15 ms');
    expect(seen[0]?.signal.aborted).toBe(true);
  });

  it("a sensor's own timeoutMs wins over the graph's", async () => {
    const logger = quietLogger();
    const stuck = new FunctionalSensor("inventory", never, { timeoutMs: 10 });
    const work = new ActionSpec({ name: "work", effects: { worked: true } });
    const graph = new GoapGraph([work], { logger, sensors: [stuck], sensorTimeoutMs: Number.POSITIVE_INFINITY });
    const result = await graph.invoke({ worked: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(logger.messages).toContain('sensor "inventory" timed out and was skipped: sensor "inventory" did not settle within 10 ms');
  });
});
