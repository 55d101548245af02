import { describe, expect, it } from "vitest";
import { ActionQos, ActionSpec, createRng, GoalSpec, type PlanningTracer } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

class TimeoutError extends Error {
  override name = "TimeoutError";
}

const qos = new ActionQos({ maxAttempts: 4, backoffInitialMs: 100, backoffMultiplier: 2, backoffMaxMs: 1000, jitter: 0.25 });

function flakyFetch(failures: number, error: () => Error = () => new TimeoutError("upstream timed out")) {
  let calls = 0;
  const action = new ActionSpec({
    name: "fetch",
    effects: { fetched: true },
    qos,
    execute: () => {
      calls++;
      if (calls <= failures) throw error();
    },
  });
  return { action, calls: () => calls };
}

async function run(failures: number, seed: number, error?: () => Error) {
  const sleeps: number[] = [];
  const retries: [string, string, number][] = [];
  const tracer: PlanningTracer = {
    onActionRetry: (action, attempt, e, ms) => retries.push([`${action.name}#${attempt}`, (e as Error).message, ms]),
  };
  const { action, calls } = flakyFetch(failures, error);
  const graph = new GoapGraph([action], {
    seed,
    tracer,
    logger: quietLogger(),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  const result = await graph.invoke(new GoalSpec({ conditions: { fetched: true }, policy: { replanStrategy: "never" } }), {});
  return { result, sleeps, retries, calls: calls() };
}

describe("ActionQos in the executor", () => {
  it("retries with exponential backoff and seeded jitter, then succeeds", async () => {
    const { result, sleeps, retries, calls } = await run(3, 42);
    expect(result.status).toBe("goal_achieved");
    expect(calls).toBe(4);
    expect(result.executionHistory).toHaveLength(1);
    expect(result.executionHistory[0]).toMatchObject({ actionName: "fetch", success: true, attempts: 4 });

    // The executor forks one generator per action from the run's seeded stream.
    const rng = createRng(42).fork();
    const expected = [1, 2, 3].map((attempt) => qos.computeBackoffMs(attempt, rng));
    expect(sleeps).toEqual(expected);
    expect(sleeps[0]).toBeGreaterThanOrEqual(75);
    expect(sleeps[0]).toBeLessThanOrEqual(125);
    expect(sleeps[1]).toBeGreaterThanOrEqual(150);
    expect(sleeps[1]).toBeLessThanOrEqual(250);
    expect(sleeps[2]).toBeGreaterThanOrEqual(300);
    expect(sleeps[2]).toBeLessThanOrEqual(500);
    expect(sleeps).not.toEqual([100, 200, 400]);
    expect(retries).toEqual(expected.map((ms, i) => [`fetch#${i + 1}`, "upstream timed out", ms]));
  });

  it("the same seed gives the same backoff sequence; another seed another one", async () => {
    const a = await run(3, 42);
    const b = await run(3, 42);
    const c = await run(3, 7);
    expect(a.sleeps).toEqual(b.sleeps);
    expect(c.sleeps).not.toEqual(a.sleeps);
  });

  it("surfaces one action_failed after the attempts are exhausted", async () => {
    const { result, sleeps, calls } = await run(99, 1);
    expect(calls).toBe(4);
    expect(sleeps).toHaveLength(3);
    expect(result.status).toBe("failed");
    expect(result.executionHistory).toEqual([
      expect.objectContaining({ actionName: "fetch", success: false, attempts: 4, error: "upstream timed out", failure: "error" }),
    ]);
  });

  it("does not retry errors outside retryableErrors", async () => {
    const { result, sleeps, calls } = await run(1, 1, () => new TypeError("bad request"));
    expect(calls).toBe(1);
    expect(sleeps).toEqual([]);
    expect(result.executionHistory[0]).toMatchObject({ attempts: 1, error: "bad request" });
  });
});
