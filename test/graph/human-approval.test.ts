import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Command, interrupt, MemorySaver } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ActionSpec, GoalSpec, LangGoapError } from "../../src/core/index.js";
import { type GoalInput, GoapGraph, type GoapRunResult, type HumanRequest, successfulActionNames } from "../../src/graph/index.js";
import { quietLogger, tracked } from "./support.js";

function releaseDomain(calls: string[], budget: number[] = []) {
  return [
    tracked(calls, { name: "build", effects: { built: true } }),
    tracked(calls, { name: "test", preconditions: { built: true }, effects: { tested: true } }),
    tracked(calls, {
      name: "deploy_prod",
      preconditions: { tested: true },
      effects: { deployed: true },
      cost: 1,
      requireHumanApproval: true,
    }),
    tracked(calls, { name: "deploy_canary", preconditions: { tested: true }, effects: { deployed: true }, cost: 4 }),
    new ActionSpec({
      name: "order_ads",
      preconditions: { deployed: true },
      effects: { advertised: true },
      requireHumanApproval: z.object({ budget: z.number().positive(), channel: z.enum(["web", "tv"]) }),
      humanInputKey: "ad_order",
      execute: (state) => {
        calls.push("order_ads");
        budget.push((state.ad_order as { budget: number }).budget);
      },
    }),
  ];
}

const thread = (id: string) => ({ configurable: { thread_id: id } });
const deployGoal = new GoalSpec({ conditions: { deployed: true } });

describe("human approval", () => {
  it("pauses at interrupt() with the action described, and continues when approved", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph(releaseDomain(calls), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const paused = await graph.invoke(deployGoal, {}, thread("approve"));
    expect(calls).toEqual(["build", "test"]);
    const request = paused.__interrupt__?.[0]?.value as HumanRequest;
    expect(request).toEqual({
      type: "goap_action_approval",
      action: "deploy_prod",
      preconditions: { tested: true },
      effects: { deployed: true },
      worldState: { built: true, tested: true },
    });
    const done = await graph.resume(true, thread("approve"));
    expect(done.status).toBe("goal_achieved");
    expect(calls).toEqual(["build", "test", "deploy_prod"]);
    expect(done.humanInput).toEqual({ deploy_prod: true });
  });

  it("a denial blacklists the action at once and the run replans around it", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph(releaseDomain(calls), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    await graph.invoke(deployGoal, {}, thread("deny"));
    const done = await graph.resume({ approved: false, reason: "change freeze" }, thread("deny"));
    expect(done.status).toBe("goal_achieved");
    expect(calls).toEqual(["build", "test", "deploy_canary"]);
    expect(done.blacklistedActions).toEqual(["deploy_prod"]);
    expect(done.executionHistory[2]).toMatchObject({
      actionName: "deploy_prod",
      success: false,
      failure: "approval_denied",
      error: "human_approval_denied: change freeze",
    });
  });

  it("an unrecognised answer is a denial that says what was expected", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph(releaseDomain(calls), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    await graph.invoke(deployGoal, {}, thread("weird"));
    const done = await graph.resume("sure, go ahead", thread("weird"));
    expect(done.executionHistory[2]?.error).toBe(
      'human_approval_denied: unrecognised answer "sure, go ahead"; expected true, false or { approved, reason? }',
    );
    expect(calls).toEqual(["build", "test", "deploy_canary"]);
  });

  it("a typed form is validated on resume and stored under humanInputKey", async () => {
    const calls: string[] = [];
    const budgets: number[] = [];
    const graph = new GoapGraph(releaseDomain(calls, budgets), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const paused = await graph.invoke({ advertised: true }, { deployed: true }, thread("form"));
    const request = paused.__interrupt__?.[0]?.value as HumanRequest;
    expect(request.type).toBe("goap_action_form");
    expect(request.type === "goap_action_form" && request.formSchema).toMatchObject({
      type: "object",
      properties: { budget: { type: "number" }, channel: { enum: ["web", "tv"] } },
      required: ["budget", "channel"],
    });
    const done = await graph.resume({ budget: 250, channel: "web" }, thread("form"));
    expect(done.status).toBe("goal_achieved");
    expect(budgets).toEqual([250]);
    expect(done.worldState.ad_order).toEqual({ budget: 250, channel: "web" });
  });

  it("an invalid form blacklists the action at once and the run replans around it", async () => {
    const calls: string[] = [];
    const actions = [
      ...releaseDomain(calls),
      tracked(calls, { name: "order_default_ads", preconditions: { deployed: true }, effects: { advertised: true }, cost: 9 }),
    ];
    const graph = new GoapGraph(actions, { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    await graph.invoke({ advertised: true }, { deployed: true }, thread("bad-form"));
    const done = await graph.resume({ budget: -5, channel: "radio" }, thread("bad-form"));
    expect(done.status).toBe("goal_achieved");
    expect(calls).toEqual(["order_default_ads"]);
    expect(done.blacklistedActions).toEqual(["order_ads"]);
    expect(done.worldState.ad_order).toBeUndefined();
    const refused = done.executionHistory[0];
    expect(refused?.failure).toBe("form_invalid");
    expect(refused?.error).toMatch(/^human_form_invalid: budget: .+; channel: .+/);
    expect(done.humanInput).toEqual({ order_ads: { budget: -5, channel: "radio" } });
  });

  it("a human's refusal is final: when the refused action is the only way, the run ends no_plan after one question", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph(releaseDomain(calls), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const paused = await graph.invoke({ advertised: true }, { deployed: true }, thread("form-final"));
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ type: "goap_action_form", action: "order_ads" });
    const done = await graph.resume({ budget: "lots" }, thread("form-final"));
    expect(done.__interrupt__).toBeUndefined();
    expect(done.status).toBe("no_plan");
    expect(done.replanReason).toBe("no plan without the actions excluded from this run: order_ads (refused by a human)");
    expect(done.replanCount).toBe(1);
    expect(done.executionHistory.map((r) => [r.actionName, r.failure])).toEqual([["order_ads", "form_invalid"]]);
    expect(calls).toEqual([]);
  });

  it("a denied approval that is the only way ends the run denied after one question: status, stream events and tracer say so", async () => {
    const calls: string[] = [];
    const failed: string[] = [];
    const actions = releaseDomain(calls).filter((a) => a.name !== "deploy_canary");
    const graph = new GoapGraph(actions, { logger: quietLogger(), tracer: { onPlanFailed: (reason: string) => void failed.push(reason) } });
    const app = graph.compile({ checkpointer: new MemorySaver() });
    await graph.invoke(deployGoal, {}, thread("deny-final"));
    const events: unknown[] = [];
    for await (const chunk of await app.stream(new Command({ resume: false }), { ...thread("deny-final"), streamMode: "custom" })) {
      events.push(chunk);
    }
    const done = (await app.getState(thread("deny-final"))).values as GoapRunResult;
    expect(done.status).toBe("denied");
    expect(done.replanReason).toBe('denied: a human refused "deploy_prod", and no plan reaches the goal without it');
    expect(events).toContainEqual({ kind: "no_plan", suggestion: expect.any(String), status: "denied" });
    expect(events.at(-1)).toEqual({ kind: "finish", status: "denied", reason: done.replanReason });
    expect(failed).toEqual(["denied"]);
    expect(calls).toEqual(["build", "test"]);
    expect(done.executionHistory.filter((r) => r.actionName === "deploy_prod")).toHaveLength(1);
  });

  it("graph.resume(false) answers the same denied run result", async () => {
    const calls: string[] = [];
    const actions = releaseDomain(calls).filter((a) => a.name !== "deploy_canary");
    const graph = new GoapGraph(actions, { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    await graph.invoke(deployGoal, {}, thread("deny-resume"));
    const done = await graph.resume({ approved: false, reason: "change freeze" }, thread("deny-resume"));
    expect(done.__interrupt__).toBeUndefined();
    expect(done.status).toBe("denied");
    expect(done.executionHistory.at(-1)).toMatchObject({ actionName: "deploy_prod", failure: "approval_denied" });
  });

  it("a refusal that no longer matters ends the run no_plan: the goal is out of reach with or without the refused action", async () => {
    const calls: string[] = [];
    let readings = 0;
    const actions = [
      tracked(calls, { name: "open_window", preconditions: { locked: false }, effects: { window_open: true }, requireHumanApproval: true }),
    ];
    // The door locks while the human is asked: afterwards not even the refused action could run.
    const door = { name: "door", sense: () => ({ locked: readings++ > 0 }) };
    const graph = new GoapGraph(actions, { logger: quietLogger(), sensors: [door] });
    graph.compile({ checkpointer: new MemorySaver() });
    await graph.invoke({ window_open: true }, { locked: false }, thread("deny-moot"));
    const done = await graph.resume(false, thread("deny-moot"));
    expect(done.status).toBe("no_plan");
    expect(done.replanReason).toBe("no plan without the actions excluded from this run: open_window (refused by a human)");
    expect(calls).toEqual([]);
  });

  it("interrupt() inside execute without a checkpointer is a configuration error at once, not a failure retried", async () => {
    let runs = 0;
    const ask = new ActionSpec({
      name: "ask_operator",
      effects: { asked: true },
      maxRetries: 3,
      qos: { maxAttempts: 3 },
      execute: () => {
        runs++;
        interrupt({ question: "go?" });
      },
    });
    const graph = new GoapGraph([ask], { logger: quietLogger(), sleep: async () => {} });
    const error = await graph.invoke({ asked: true }, {}).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LangGoapError);
    expect((error as LangGoapError).code).toBe("INVALID_OPTION");
    expect((error as LangGoapError).message).toBe(
      'action "ask_operator" calls interrupt() inside execute, which pauses the run: compile with a checkpointer ' +
        "(graph.compile({ checkpointer: new MemorySaver() })) and pass a thread_id",
    );
    expect(runs).toBe(1);
  });

  it("resume() on a thread that is not paused says so", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph(releaseDomain(calls), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const never = await graph.resume(true, thread("never-ran")).then(
      () => null,
      (e: unknown) => e as LangGoapError,
    );
    expect(never?.code).toBe("NOT_PAUSED");
    expect(never?.message).toBe(
      'GoapGraph.resume: thread "never-ran" is not paused, it has no run: no question waits for an answer; start a run with graph.invoke(goal, worldState, config)',
    );
    await graph.invoke({ built: true }, {}, thread("ended"));
    const ended = await graph.resume(true, thread("ended")).then(
      () => null,
      (e: unknown) => e as LangGoapError,
    );
    expect(ended?.code).toBe("NOT_PAUSED");
    expect(ended?.message).toContain('thread "ended" is not paused, its run has ended (status "goal_achieved")');
    expect(calls).toEqual(["build"]);
    await expect(new GoapGraph(releaseDomain(calls)).resume(true, thread("x"))).rejects.toThrow(
      "GoapGraph.resume needs a graph compiled with a checkpointer (graph.compile({ checkpointer })) and config.configurable.thread_id",
    );
  });
});

describe("how often a human is asked", () => {
  /** Runs to the end, approving every question; returns the actions asked about, in order. */
  async function approveAll(graph: GoapGraph, goal: GoalInput, id: string) {
    const asked: string[] = [];
    let result = await graph.invoke(goal, {}, thread(id));
    while (result.__interrupt__) {
      asked.push((result.__interrupt__[0]?.value as HumanRequest | undefined)?.action ?? "<none>");
      result = await graph.resume(true, thread(id));
    }
    return { asked, result };
  }

  it("retries of an approved action run on the same approval; the blacklist fallback letting it back in asks once more", async () => {
    let runs = 0;
    const deploy = new ActionSpec({
      name: "deploy",
      effects: { deployed: true },
      requireHumanApproval: true,
      maxRetries: 3,
      execute: () => {
        runs++;
        throw new Error("cluster down");
      },
    });
    const graph = new GoapGraph([deploy], { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const { asked, result } = await approveAll(graph, { deployed: true }, "always-fails");
    // 1 + 3 retries on the first approval, then 1 + 3 more on the second, after the fallback readmitted it (was: asked before each of the 8).
    expect(runs).toBe(8);
    expect(asked).toEqual(["deploy", "deploy"]);
    expect(result.status).toBe("failed");
    expect(result.replanReason).toBe('action_exhausted: "deploy" failed 8 times (last: cluster down), and no plan avoids it');
  });

  it("an approved action that fails once and then succeeds is asked about once; a later step needing it again asks again", async () => {
    let failures = 1;
    const calls: string[] = [];
    const post = new ActionSpec({
      name: "post",
      effects: { posts: { inc: 1 } },
      requireHumanApproval: true,
      maxRetries: 2,
      execute: () => {
        calls.push("post");
        if (failures-- > 0) throw new Error("timeout");
      },
    });
    const graph = new GoapGraph([post], { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const { asked, result } = await approveAll(graph, { posts: { gte: 2 } }, "post-twice");
    expect(result.status).toBe("goal_achieved");
    // Asked, failed, retried on that answer and succeeded; the second post is a new step: asked again.
    expect(calls).toEqual(["post", "post", "post"]);
    expect(asked).toEqual(["post", "post"]);
  });
});

describe("resume() without an answer", () => {
  it("null or undefined answering a waiting question is INVALID_ANSWER naming the action; the question still waits", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph(releaseDomain(calls), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    await graph.invoke(deployGoal, {}, thread("no-answer"));
    for (const answer of [null, undefined]) {
      const error = await graph.resume(answer, thread("no-answer")).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(LangGoapError);
      expect((error as LangGoapError).code).toBe("INVALID_ANSWER");
      expect((error as LangGoapError).message).toBe(
        `GoapGraph.resume: the answer is ${answer}, but thread "no-answer" waits for a human's answer about action "deploy_prod": ` +
          "pass true, false or { approved, reason } for an approval, the form's value for a form (null and undefined are no answer)",
      );
    }
    expect(calls).toEqual(["build", "test"]);
    expect((await graph.resume(true, thread("no-answer"))).status).toBe("goal_achieved");
    expect(calls).toEqual(["build", "test", "deploy_prod"]);
  });

  it("a run paused without a question (interruptBefore) continues with no answer", async () => {
    const calls: string[] = [];
    const graph = new GoapGraph(releaseDomain(calls).slice(0, 2), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver(), interruptBefore: ["executor"] });
    const paused = await graph.invoke({ tested: true }, {}, thread("stepwise"));
    expect(paused.status).toBe("executing");
    expect(calls).toEqual([]);
    await graph.resume(null, thread("stepwise"));
    expect(calls).toEqual(["build"]);
    expect((await graph.resume(undefined, thread("stepwise"))).status).toBe("goal_achieved");
    expect(calls).toEqual(["build", "test"]);
  });
});

describe("resume after an interrupt in a fresh GoapGraph sharing only the checkpointer", () => {
  const dir = mkdtempSync(join(tmpdir(), "langgoap-resume-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const savers = {
    MemorySaver: () => {
      const saver = new MemorySaver();
      return [saver, saver] as const;
    },
    SqliteSaver: () => {
      const file = join(dir, "checkpoints.sqlite");
      return [SqliteSaver.fromConnString(file), SqliteSaver.fromConnString(file)] as const;
    },
  };

  for (const [name, makeSavers] of Object.entries(savers)) {
    it(`continues without re-executing finished actions (${name})`, async () => {
      const [firstSaver, secondSaver] = makeSavers();
      const before: string[] = [];
      const first = new GoapGraph(releaseDomain(before), { logger: quietLogger() });
      const app = first.compile({ checkpointer: firstSaver });
      const paused = await app.invoke(first.createInput(deployGoal, {}), thread(`fresh-${name}`));
      expect(before).toEqual(["build", "test"]);
      expect((paused as { __interrupt__?: unknown[] }).__interrupt__).toHaveLength(1);

      const after: string[] = [];
      const second = new GoapGraph(releaseDomain(after), { logger: quietLogger() });
      second.compile({ checkpointer: secondSaver });
      const done = await second.resume(true, thread(`fresh-${name}`));
      expect(done.status).toBe("goal_achieved");
      expect(after).toEqual(["deploy_prod"]);
      expect(before).toEqual(["build", "test"]);
      expect(successfulActionNames(done)).toEqual(["build", "test", "deploy_prod"]);
      expect(done.goal).toEqual({
        kind: "GoalSpec",
        spec: { conditions: { deployed: true }, policy: { replanStrategy: "on_deviation", priority: 0, maxReplans: 10 } },
        dynamic: [],
      });
    });
  }

  it("a goal whose value is a function must be pinned to be restored", async () => {
    const saver = new MemorySaver();
    const valued = new GoalSpec({ conditions: { deployed: true }, value: (s) => (s.vip ? 10 : 1) });
    const first = new GoapGraph(releaseDomain([]), { logger: quietLogger() });
    first.compile({ checkpointer: saver });
    await first.invoke(valued, {}, thread("valued"));

    const unpinned = new GoapGraph(releaseDomain([]), { logger: quietLogger() });
    unpinned.compile({ checkpointer: saver });
    await expect(unpinned.resume(true, thread("valued"))).rejects.toThrow(/value was a function.*goals: \[goal\]/);

    const pinned = new GoapGraph(releaseDomain([]), { logger: quietLogger(), goals: [valued] });
    pinned.compile({ checkpointer: saver });
    expect((await pinned.resume(true, thread("valued"))).status).toBe("goal_achieved");
  });
});
