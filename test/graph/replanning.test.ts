import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import { GoapGraph, successfulActionNames } from "../../src/graph/index.js";
import { quietLogger, tracked, updateTrail } from "./support.js";

describe("replanning", () => {
  it("replans on a deviation from the expected state", async () => {
    const calls: string[] = [];
    let jams = 0;
    const actions = [
      tracked(calls, {
        name: "drive_to_office",
        preconditions: { at: "home" },
        effects: { at: "office" },
        run: () => (jams++ === 0 ? { at: "traffic_jam" } : undefined),
      }),
      tracked(calls, { name: "detour", preconditions: { at: "traffic_jam" }, effects: { at: "office" }, cost: 2 }),
      tracked(calls, { name: "work", preconditions: { at: "office" }, effects: { worked: true } }),
    ];
    const graph = new GoapGraph(actions, { logger: quietLogger() });
    const trail = await updateTrail(await graph.stream({ worked: true }, { at: "home" }, { streamMode: "updates" }));
    expect(trail).toEqual([
      "planner executing plan=drive_to_office,work",
      "executor executing",
      "observer - reason=state_deviation",
      "planner executing plan=detour,work",
      "executor executing",
      "observer -",
      "executor executing",
      "observer goal_achieved reason=null",
    ]);
    expect(calls).toEqual(["drive_to_office", "detour", "work"]);
  });

  it("ends no_plan with an explanation for an unreachable goal", async () => {
    const graph = new GoapGraph([new ActionSpec({ name: "walk", effects: { moved: true } })], { logger: quietLogger() });
    const result = await graph.invoke({ flying: true }, {});
    expect(result.status).toBe("no_plan");
    expect(result.plan).toBeNull();
    expect(result.executionHistory).toEqual([]);
    expect(result.noPlanExplanation?.unreachableConditions).toEqual(["flying = true"]);
    expect(result.noPlanExplanation?.suggestion).toContain("flying = true");
  });

  it("with replanStrategy 'never' fails after one failed call", async () => {
    const calls: string[] = [];
    const actions = [
      tracked(calls, {
        name: "send",
        effects: { sent: true },
        maxRetries: 5,
        run: () => {
          throw new Error("smtp down");
        },
      }),
      tracked(calls, { name: "send_backup", effects: { sent: true }, cost: 3 }),
    ];
    const graph = new GoapGraph(actions, { logger: quietLogger() });
    const result = await graph.invoke(new GoalSpec({ conditions: { sent: true }, policy: { replanStrategy: "never" } }), {});
    expect(result.status).toBe("failed");
    expect(result.replanReason).toBe("action_failed");
    expect(calls).toEqual(["send"]);
    expect(result.executionHistory.map((r) => [r.actionName, r.success, r.error])).toEqual([["send", false, "smtp down"]]);
    expect(result.replanCount).toBe(0);
  });

  it("with replanStrategy 'never' fails when the plan is exhausted short of the goal", async () => {
    const calls: string[] = [];
    const noop = tracked(calls, { name: "pretend", effects: { done: true }, run: () => ({}) });
    const graph = new GoapGraph([noop], { logger: quietLogger() });
    const result = await graph.invoke(new GoalSpec({ conditions: { done: true }, policy: { replanStrategy: "never" } }), {});
    expect(result.status).toBe("failed");
    expect(result.replanReason).toBe("plan_exhausted");
    expect(calls).toEqual(["pretend"]);
  });

  it("stops at maxReplans", async () => {
    const calls: string[] = [];
    const stubborn = tracked(calls, {
      name: "deploy",
      effects: { deployed: true },
      maxRetries: 100,
      run: () => {
        throw new Error("flaky cluster");
      },
    });
    const graph = new GoapGraph([stubborn], { logger: quietLogger() });
    const result = await graph.invoke(new GoalSpec({ conditions: { deployed: true }, policy: { maxReplans: 3 } }), {});
    expect(result.status).toBe("failed");
    expect(result.replanReason).toBe("max_replans_exceeded (3)");
    expect(result.replanCount).toBe(3);
    expect(calls).toEqual(["deploy", "deploy", "deploy", "deploy"]);
    expect(result.actionFailureCounts).toEqual({ deploy: 4 });
    expect(result.blacklistedActions).toEqual([]);
  });

  it("blacklists an action only after more than maxRetries failures", async () => {
    const calls: string[] = [];
    const shaky = tracked(calls, {
      name: "upload",
      effects: { uploaded: true },
      maxRetries: 1,
      run: (_attempt, call) => {
        if (call <= 2) throw new Error(`timeout ${call}`);
      },
    });
    const slow = tracked(calls, { name: "upload_slow", effects: { uploaded: true }, cost: 4 });
    const result = await new GoapGraph([shaky, slow], { logger: quietLogger() }).invoke({ uploaded: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(calls).toEqual(["upload", "upload", "upload_slow"]);
    expect(result.actionFailureCounts).toEqual({ upload: 2 });
    expect(result.blacklistedActions).toEqual(["upload"]);
    expect(result.replanCount).toBe(2);
  });

  it("replans after every action with replanStrategy 'every_action'", async () => {
    const calls: string[] = [];
    const actions = ["a", "b", "c"].map((name, i) =>
      tracked(calls, { name, preconditions: i ? { [`done_${i - 1}`]: true } : {}, effects: { [`done_${i}`]: true } }),
    );
    const graph = new GoapGraph(actions, { logger: quietLogger() });
    const goal = new GoalSpec({ conditions: { done_2: true }, policy: { replanStrategy: "every_action" } });
    const trail = await updateTrail(await graph.stream(goal, {}, { streamMode: "updates" }));
    expect(trail.filter((l) => l.startsWith("planner") || l.includes("reason"))).toEqual([
      "planner executing plan=a,b,c",
      "observer - reason=every_action_replan",
      "planner executing plan=b,c",
      "observer - reason=every_action_replan",
      "planner executing plan=c",
      "observer goal_achieved reason=null",
    ]);
    expect(calls).toEqual(["a", "b", "c"]);
  });

  it("an empty plan achieves a goal that already holds without executing anything", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph([tracked(calls, { name: "x", effects: { done: true } })], { logger: quietLogger() });
    const result = await graph.invoke({ done: true }, { done: true });
    expect(result.status).toBe("goal_achieved");
    expect(result.plan?.actions).toEqual([]);
    expect(calls).toEqual([]);
    expect(successfulActionNames(result)).toEqual([]);
  });

  it("uses a returned object as the authoritative outcome over declared effects", async () => {
    const action = new ActionSpec({ name: "roll", effects: { rolled: true }, execute: () => ({ rolled: true, value: 6 }) });
    const result = await new GoapGraph([action], { logger: quietLogger() }).invoke({ rolled: true }, {});
    expect(result.worldState).toEqual({ rolled: true, value: 6 });
  });

  it("samples the transition model when execute returns nothing, seeded", async () => {
    const seen: number[] = [];
    const model = {
      expected: (_s: unknown, a: ActionSpec) => a.getEffects({}),
      sample: (_s: unknown, _a: ActionSpec, rng: { next(): number }) => {
        const r = rng.next();
        seen.push(r);
        return { coin: r < 0.5 ? "heads" : "tails", flipped: true };
      },
    };
    const flip = new ActionSpec({ name: "flip", effects: { flipped: true } });
    const run = async () =>
      (await new GoapGraph([flip], { transitionModel: model, seed: 7, logger: quietLogger() }).invoke({ flipped: true }, {})).worldState;
    const first = await run();
    const second = await run();
    expect(first).toEqual(second);
    expect(seen[0]).toBe(seen[1]);
    expect(first.coin).toBe((seen[0] as number) < 0.5 ? "heads" : "tails");
  });

  it("records an execute that returns a non-object as a failure naming the action", async () => {
    const bad = new ActionSpec({ name: "bad", effects: { ok: true }, execute: () => "oops" as never });
    const result = await new GoapGraph([bad], { logger: quietLogger() }).invoke(
      new GoalSpec({ conditions: { ok: true }, policy: { replanStrategy: "never" } }),
      {},
    );
    expect(result.executionHistory[0]?.error).toBe(
      'action "bad": execute returned string; expected an object of world-state updates or nothing',
    );
  });
});
