import { describe, expect, it } from "vitest";
import { ActionQos, MultiGoal } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { quietLogger, tracked, updateTrail } from "./support.js";

const down = () => {
  throw new Error("cluster down");
};

describe("no silent loops", () => {
  it("an action that always fails and is the only way ends the run after its retries and one fallback round, naming it", async () => {
    const calls: string[] = [];
    const deploy = tracked(calls, { name: "deploy", effects: { deployed: true }, run: down });
    const graph = new GoapGraph([deploy], { logger: quietLogger() });
    const result = await graph.invoke({ deployed: true }, {});
    expect(result.status).toBe("failed");
    expect(result.replanReason).toBe('action_exhausted: "deploy" failed 2 times (last: cluster down), and no plan avoids it');
    expect(calls).toEqual(["deploy", "deploy"]);
    expect(result.blacklistedActions).toEqual(["deploy"]);
    expect(result.readmittedActions).toEqual(["deploy"]);
  });

  it("maxRetries and QoS attempts bound the run: (maxRetries + 1) failures, twice, each with its QoS attempts", async () => {
    const calls: string[] = [];
    const deploy = tracked(calls, {
      name: "deploy",
      effects: { deployed: true },
      maxRetries: 1,
      qos: new ActionQos({ maxAttempts: 2, idempotent: true, backoffInitialMs: 0, jitter: 0 }),
      run: down,
    });
    const graph = new GoapGraph([deploy], { logger: quietLogger(), sleep: async () => undefined });
    const result = await graph.invoke({ deployed: true }, {});
    expect(result.status).toBe("failed");
    expect(result.replanReason).toMatch(/^action_exhausted: "deploy" failed 4 times/);
    expect(calls).toHaveLength(8);
    expect(result.executionHistory.map((r) => r.attempts)).toEqual([2, 2, 2, 2]);
  });

  it("the trail shows the fallback round and then the end, without another plan", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph([tracked(calls, { name: "deploy", effects: { deployed: true }, run: down })], { logger: quietLogger() });
    const trail = await updateTrail(await graph.stream({ deployed: true }, {}, { streamMode: "updates" }));
    expect(trail).toEqual([
      "planner executing plan=deploy",
      "executor action_failed",
      "observer - reason=action_failed",
      "planner executing plan=deploy",
      "executor action_failed",
      "observer - reason=action_failed",
      'planner failed reason=action_exhausted: "deploy" failed 2 times (last: cluster down), and no plan avoids it',
      "executor -",
      'observer failed reason=action_exhausted: "deploy" failed 2 times (last: cluster down), and no plan avoids it',
    ]);
  });

  it("an exhausted action stays out while a readmitted one recovers", async () => {
    const calls: string[] = [];
    const broken = tracked(calls, { name: "send_api", effects: { sent: true }, run: () => "ok" as never });
    const flaky = tracked(calls, {
      name: "send_smtp",
      effects: { sent: true },
      cost: 5,
      run: (_attempt, call) => (call === 1 ? down() : undefined),
    });
    const result = await new GoapGraph([broken, flaky], { logger: quietLogger() }).invoke({ sent: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(calls).toEqual(["send_api", "send_smtp", "send_smtp"]);
    expect(result.blacklistedActions).toEqual(["send_api"]);
  });

  it("a sequential MultiGoal gives each subgoal a fresh fallback", async () => {
    const calls: string[] = [];
    let step = 0;
    // Fails on the 1st and 3rd call: once per subgoal, recovered by that subgoal's fallback round.
    const work = tracked(calls, {
      name: "work",
      effects: { progress: { inc: 1 } },
      run: () => {
        step++;
        if (step === 1 || step === 3) down();
        return undefined;
      },
    });
    const goal = new MultiGoal({ goals: [{ progress: { gte: 1 } }, { progress: { gte: 2 } }], mode: "sequential" });
    const result = await new GoapGraph([work], { logger: quietLogger() }).invoke(goal, { progress: 0 });
    expect(result.status).toBe("goal_achieved");
    expect(calls).toEqual(["work", "work", "work", "work"]);
  });

  for (const [label, output] of [
    ["a string", "done"],
    ["a number", 42],
    ["an array", [{ sent: true }]],
  ] as const) {
    it(`an execute that returns ${label} fails once, is not retried, and ends the run naming the action`, async () => {
      const calls: string[] = [];
      const send = tracked(calls, {
        name: "send",
        effects: { sent: true },
        maxRetries: 3,
        qos: new ActionQos({ maxAttempts: 3, idempotent: true, backoffInitialMs: 0, jitter: 0 }),
        run: () => output as never,
      });
      const result = await new GoapGraph([send], { logger: quietLogger(), sleep: async () => undefined }).invoke({ sent: true }, {});
      expect(calls).toEqual(["send"]);
      expect(result.status).toBe("failed");
      const kind = Array.isArray(output) ? "an array" : typeof output;
      const error = `action "send": execute returned ${kind}; expected an object of world-state updates or nothing`;
      expect(result.executionHistory.map((r) => [r.actionName, r.failure, r.error, r.attempts])).toEqual([
        ["send", "invalid_output", error, 1],
      ]);
      expect(result.replanReason).toBe(`action_exhausted: "send" failed 1 time (last: ${error}), and no plan avoids it`);
    });
  }
});
