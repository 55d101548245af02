/**
 * The execution guarantee in one process, on MemorySaver: an invocation
 * that never comes back (its process "died" inside an action) is taken
 * over by `recover()`, which re-runs the step in flight once, with the same
 * idempotency key and `stepAttempt` 2; other invocations may not take a
 * claimed step; a step left unfinished twice is not started a third time.
 * (Real processes killed with SIGKILL: crash-recovery.test.ts.)
 */

import type { RunnableConfig } from "@langchain/core/runnables";
import { MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { type ActionContext, ActionSpec, LangGoapError } from "../../src/core/index.js";
import { GoapGraph, type GoapState, successfulActionNames } from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

interface Execution {
  readonly action: string;
  readonly key: string;
  readonly stepAttempt: number;
  readonly attempt: number;
}

/**
 * A three-step chain whose step `hangAt` never returns while `hang.on` (the
 * process running it is as good as dead); steps in `approve` ask a human.
 */
function chain(log: Execution[], hang: { on: boolean; entered?: () => void }, hangAt = "b", approve: readonly string[] = []) {
  return ["a", "b", "c"].map(
    (name, i, all) =>
      new ActionSpec({
        name,
        preconditions: i === 0 ? {} : { [`${all[i - 1]}_done`]: true },
        effects: { [`${name}_done`]: true },
        requireHumanApproval: approve.includes(name),
        execute: async (_state, ctx: ActionContext) => {
          log.push({ action: name, key: ctx.idempotencyKey, stepAttempt: ctx.stepAttempt, attempt: ctx.attempt });
          if (name === hangAt && hang.on) {
            hang.entered?.();
            await new Promise(() => {});
          }
        },
      }),
  );
}

const thread = (id: string) => ({ configurable: { thread_id: id } });

/** Trials per fleet size of the concurrent recoveries (LANGGOAP_RACE_TRIALS=100 for the full sweep). */
const FLEET_TRIALS = Number(process.env.LANGGOAP_RACE_TRIALS ?? 25);

/** Starts a run that hangs inside `hangAt`; resolves once it is in there (the invocation is abandoned). */
async function startAndHang(graph: GoapGraph, hang: { on: boolean; entered?: () => void }, id: string): Promise<void> {
  const inside = new Promise<void>((resolve) => {
    hang.entered = resolve;
  });
  void graph.invoke({ c_done: true }, {}, thread(id));
  await inside;
}

async function errorOf(promise: Promise<unknown>): Promise<LangGoapError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LangGoapError);
  return error as LangGoapError;
}

describe("recover() after an invocation died inside a step", () => {
  it("re-runs only the step in flight, once, with the same idempotency key and stepAttempt 2", async () => {
    const saver = new MemorySaver();
    const log: Execution[] = [];
    const hang: { on: boolean; entered?: () => void } = { on: true };
    const first = new GoapGraph(chain(log, hang), { logger: quietLogger() });
    first.compile({ checkpointer: saver });
    await startAndHang(first, hang, "died");

    hang.on = false;
    const second = new GoapGraph(chain(log, hang), { logger: quietLogger() });
    second.compile({ checkpointer: saver });
    const result = await second.recover(thread("died"));
    expect(result.status).toBe("goal_achieved");
    expect(log.map((e) => `${e.action}#${e.stepAttempt}`)).toEqual(["a#1", "b#1", "b#2", "c#1"]);
    expect(log[1]?.key).toBe(log[2]?.key);
    // run : position : action : the checkpoint the step runs from
    const uuid = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";
    for (const [i, [position, action]] of [
      [0, "a"],
      [1, "b"],
      [1, "b"],
      [2, "c"],
    ].entries()) {
      expect(log[i]?.key).toMatch(new RegExp(`^${result.runId}:${position}:${action}:${uuid}$`));
    }
    expect(new Set(log.map((e) => e.key)).size).toBe(3);
    expect(successfulActionNames(result)).toEqual(["a", "b", "c"]);
  });

  it("another invocation may not take the claimed step: STEP_CLAIMED, and nothing runs", async () => {
    const saver = new MemorySaver();
    const log: Execution[] = [];
    const hang: { on: boolean; entered?: () => void } = { on: true };
    const graph = new GoapGraph(chain(log, hang), { logger: quietLogger() });
    const app = graph.compile({ checkpointer: saver });
    await startAndHang(graph, hang, "busy");
    hang.on = false;

    const error = await errorOf(app.invoke(null, thread("busy")));
    expect(error.code).toBe("STEP_CLAIMED");
    expect(error.message).toMatch(
      /^thread "busy": step 1 \("b"\) was claimed by another invocation at \S+, which runs or ran it; this invocation did not run it \(two invocations never run the same step\)\. If the process that claimed it stopped before finishing, continue the thread with graph\.recover\(config\)$/,
    );
    expect(log.map((e) => e.action)).toEqual(["a", "b"]);
    // recover() is the explicit take-over.
    expect((await graph.recover(thread("busy"))).status).toBe("goal_achieved");
    expect(log.map((e) => `${e.action}#${e.stepAttempt}`)).toEqual(["a#1", "b#1", "b#2", "c#1"]);
  });

  it("an invocation under the claimant's run_id takes the step over (a platform retrying the run of a dead worker)", async () => {
    const saver = new MemorySaver();
    const log: Execution[] = [];
    const hang: { on: boolean; entered?: () => void } = { on: true };
    const graph = new GoapGraph(chain(log, hang), { logger: quietLogger() });
    const app = graph.compile({ checkpointer: saver });
    await startAndHang(graph, hang, "retried");
    hang.on = false;
    const { runId } = (await app.getState(thread("retried"))).values as GoapState;
    const other = await errorOf(app.invoke(null, { configurable: { thread_id: "retried", run_id: "another-run" } }));
    expect(other.code).toBe("STEP_CLAIMED");
    const result = (await app.invoke(null, { configurable: { thread_id: "retried", run_id: runId } })) as GoapState;
    expect(result.status).toBe("goal_achieved");
    expect(log.map((e) => `${e.action}#${e.stepAttempt}`)).toEqual(["a#1", "b#1", "b#2", "c#1"]);
  });

  it("fleets of 2 and 4 recoveries of one crash: one takes the run over, every other gets STEP_CLAIMED", async () => {
    const tally = { trials: 0, oneWinner: 0, duplicates: 0, stepClaimed: 0 };
    for (const size of [2, 4]) {
      for (let trial = 0; trial < FLEET_TRIALS; trial++) {
        const saver = new MemorySaver();
        const log: Execution[] = [];
        const hang: { on: boolean; entered?: () => void } = { on: true };
        const hangAt = ["a", "b", "c"][trial % 3] as string;
        const graph = new GoapGraph(chain(log, hang, hangAt), { logger: quietLogger() });
        graph.compile({ checkpointer: saver });
        await startAndHang(graph, hang, "fleet");
        hang.on = false;
        const outcomes = await Promise.allSettled(Array.from({ length: size }, () => graph.recover(thread("fleet"))));
        const statuses = outcomes.map((o) => (o.status === "fulfilled" ? o.value.status : (o.reason as LangGoapError).code));
        tally.trials++;
        if (statuses.filter((s) => s === "goal_achieved").length === 1) tally.oneWinner++;
        tally.stepClaimed += statuses.filter((s) => s === "STEP_CLAIMED").length;
        const runs = log.map((e) => `${e.action}#${e.stepAttempt}`);
        const expected = ["a", "b", "c"].flatMap((a) => (a === hangAt ? [`${a}#1`, `${a}#2`] : [`${a}#1`]));
        if (runs.join() !== expected.join()) tally.duplicates++;
      }
    }
    expect(tally).toEqual({ trials: 2 * FLEET_TRIALS, oneWinner: 2 * FLEET_TRIALS, duplicates: 0, stepClaimed: FLEET_TRIALS * (1 + 3) });
  }, 120_000);

  it("a step left unfinished by two dead invocations is not started a third time: it fails as crashed and leaves the run", async () => {
    const saver = new MemorySaver();
    const log: Execution[] = [];
    const hang: { on: boolean; entered?: () => void } = { on: true };
    const graph = new GoapGraph(chain(log, hang), { logger: quietLogger() });
    graph.compile({ checkpointer: saver });
    await startAndHang(graph, hang, "poison");
    const inside = new Promise<void>((resolve) => {
      hang.entered = resolve;
    });
    const cut = new AbortController();
    const dying = graph.recover({ ...thread("poison"), signal: cut.signal });
    await inside;
    // While that recovery runs, no other may: it would run the run's steps a second time.
    const refused = await errorOf(graph.recover(thread("poison")));
    expect(refused.code).toBe("STEP_CLAIMED");
    expect(refused.message).toMatch(
      /^thread "poison": its run is being recovered by another invocation \(process \d+ on host "[^"]+", since \S+\)/,
    );
    // Cut short, it stops inside the step (its claim never finished), like a second crash.
    cut.abort();
    expect((await dying).status).toBe("aborted");

    const result = await graph.recover(thread("poison"));
    expect(log.map((e) => `${e.action}#${e.stepAttempt}`)).toEqual(["a#1", "b#1", "b#2"]);
    expect(result.status).toBe("no_plan");
    expect(result.replanReason).toBe("no plan without the actions excluded from this run: b (crashed twice)");
    expect(result.executionHistory.map((r) => [r.actionName, r.failure])).toEqual([
      ["a", null],
      ["b", "crashed"],
    ]);
    expect(result.executionHistory[1]?.error).toBe(
      `crashed: action "b" was running when its process stopped, twice (idempotency key ${log[1]?.key}); it is not started a third time`,
    );
  });

  it("a recovery finishes an approved step with the answer the dead invocation acted on, even when that answer's write was lost", async () => {
    // A saver that loses resume values: only the step claim remembers the human's answer.
    class LosingSaver extends MemorySaver {
      override async putWrites(config: RunnableConfig, writes: [string, unknown][], taskId: string): Promise<void> {
        return super.putWrites(
          config,
          writes.filter(([channel]) => channel !== "__resume__"),
          taskId,
        );
      }
    }
    const saver = new LosingSaver();
    const log: Execution[] = [];
    const hang: { on: boolean; entered?: () => void } = { on: true };
    const graph = new GoapGraph(chain(log, hang, "b", ["b"]), { logger: quietLogger() });
    graph.compile({ checkpointer: saver });
    const paused = await graph.invoke({ c_done: true }, {}, thread("answered"));
    expect(paused.__interrupt__?.[0]?.value).toMatchObject({ action: "b" });
    const inside = new Promise<void>((resolve) => {
      hang.entered = resolve;
    });
    void graph.resume(true, thread("answered"));
    await inside;

    hang.on = false;
    const result = await graph.recover(thread("answered"));
    expect(result.__interrupt__).toBeUndefined();
    expect(result.status).toBe("goal_achieved");
    expect(result.humanInput).toEqual({ b: true });
    expect(log.map((e) => `${e.action}#${e.stepAttempt}`)).toEqual(["a#1", "b#1", "b#2", "c#1"]);
  });
});

describe("recover() and step claims on threads that did not crash", () => {
  it("an ended run is returned as it is; a thread without a checkpoint is NOT_STARTED; a graph without a checkpointer cannot recover", async () => {
    const log: Execution[] = [];
    const graph = new GoapGraph(chain(log, { on: false }), { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const done = await graph.invoke({ c_done: true }, {}, thread("ended"));
    const again = await graph.recover(thread("ended"));
    expect(again.status).toBe("goal_achieved");
    expect(again.runId).toBe(done.runId);
    expect(log).toHaveLength(3);

    const never = await errorOf(graph.recover(thread("nothing")));
    expect(never.code).toBe("NOT_STARTED");
    expect(never.message).toBe(
      'GoapGraph.recover: thread "nothing" has no checkpoint: its run never started (or was killed before its first step was saved); start it with graph.invoke(goal, worldState, config)',
    );
    const unsaved = await errorOf(new GoapGraph(chain(log, { on: false })).recover(thread("x")));
    expect(unsaved.code).toBe("INVALID_OPTION");
  });

  it("QoS retries keep the idempotency key and stepAttempt 1; a run without a checkpointer has keys too", async () => {
    const seen: Execution[] = [];
    let calls = 0;
    const flaky = new ActionSpec({
      name: "charge",
      effects: { charged: true },
      qos: { maxAttempts: 3, backoffInitialMs: 1, idempotent: true },
      execute: (_state, ctx) => {
        seen.push({ action: "charge", key: ctx.idempotencyKey, stepAttempt: ctx.stepAttempt, attempt: ctx.attempt });
        if (++calls < 3) throw new Error("gateway timeout");
      },
    });
    const graph = new GoapGraph([flaky], { logger: quietLogger(), sleep: async () => {} });
    const result = await graph.invoke({ charged: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(seen.map((e) => [e.attempt, e.stepAttempt, e.key])).toEqual([
      [1, 1, `${result.runId}:0:charge`],
      [2, 1, `${result.runId}:0:charge`],
      [3, 1, `${result.runId}:0:charge`],
    ]);
  });

  it("an interrupt() inside execute releases the step: the resume runs it again without recover(), told it started before", async () => {
    const seen: Execution[] = [];
    const { interrupt } = await import("@langchain/langgraph");
    const confirm = new ActionSpec({
      name: "confirm",
      effects: { confirmed: true },
      execute: (_state, ctx) => {
        seen.push({ action: "confirm", key: ctx.idempotencyKey, stepAttempt: ctx.stepAttempt, attempt: ctx.attempt });
        const answer = interrupt({ question: "really?" });
        return { confirmed: answer === "yes" };
      },
    });
    const graph = new GoapGraph([confirm], { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const paused = await graph.invoke({ confirmed: true }, {}, thread("inner"));
    expect(paused.__interrupt__?.[0]?.value).toEqual({ question: "really?" });
    const done = await graph.resume("yes", thread("inner"));
    expect(done.status).toBe("goal_achieved");
    expect(seen.map((e) => e.stepAttempt)).toEqual([1, 2]);
    expect(seen[0]?.key).toBe(seen[1]?.key);
  });

  it("a fork from an earlier checkpoint runs its steps again as new steps, under new keys", async () => {
    const log: Execution[] = [];
    const graph = new GoapGraph(chain(log, { on: false }), { logger: quietLogger() });
    const app = graph.compile({ checkpointer: new MemorySaver() });
    await graph.invoke({ c_done: true }, {}, thread("fork"));
    let beforeB: RunnableConfig | undefined;
    for await (const s of app.getStateHistory(thread("fork"))) {
      const values = s.values as GoapState;
      if (s.next.includes("executor") && values.currentStep === 1) beforeB = s.config;
    }
    // Edit the state as it was before step b (LangGraph forks the thread there), then continue the fork.
    await app.updateState(beforeB as RunnableConfig, { reflectionContext: ["retry from b"] });
    const forked = (await app.invoke(null, thread("fork"))) as GoapState;
    expect(forked.status).toBe("goal_achieved");
    expect(log.map((e) => `${e.action}#${e.stepAttempt}`)).toEqual(["a#1", "b#1", "c#1", "b#1", "c#1"]);
    expect(log[3]?.key).not.toBe(log[1]?.key);
    expect(log[3]?.key.startsWith(`${forked.runId}:1:b:`)).toBe(true);
  });

  it("claims are invisible to LangGraph: state, history and time travel are those of the graph alone", async () => {
    const saver = new MemorySaver();
    const log: Execution[] = [];
    const graph = new GoapGraph(chain(log, { on: false }), { logger: quietLogger() });
    const app = graph.compile({ checkpointer: saver });
    const done = await graph.invoke({ c_done: true }, {}, thread("history"));
    const claims = await saver.getTuple({
      configurable: { thread_id: "history", checkpoint_ns: "langgoap-claims", checkpoint_id: `${done.runId}.0` },
    });
    expect(claims?.pendingWrites?.map(([, channel, value]) => [channel, (value as { position: number }).position])).toEqual([
      ["langgoap:step", 0],
      ["langgoap:step", 1],
      ["langgoap:step", 2],
    ]);

    expect(((await app.getState(thread("history"))).values as GoapState).status).toBe("goal_achieved");
    const history: { next: string[]; config: { configurable?: Record<string, unknown> } }[] = [];
    for await (const s of app.getStateHistory(thread("history"))) history.push({ next: [...s.next], config: s.config });
    expect(history.every((s) => s.config.configurable?.checkpoint_ns === "")).toBe(true);
    // input, start, planner, an executor superstep for each of the three steps (a step with nothing to decide goes
    // straight on), and the observer that sees the goal met
    expect(history).toHaveLength(7);
    expect(history.at(-1)?.next).toEqual(["__start__"]);
    // Time travel: replaying from the checkpoint before step "b" runs b and c again as a new branch.
    const beforeB = history.find((s) => s.next.includes("executor") && s !== history[0]);
    expect(beforeB).toBeDefined();
  });
});
