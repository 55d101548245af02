/**
 * The hook limits' remaining gaps (issue 23, items 4 and 6): a custom
 * planning strategy that never answers, a saver whose `list()` hangs, a
 * saver assigned to the compiled graph after `compile` (as the LangGraph
 * API server does), and values that are not JSON in a stuck handler's
 * state updates or a human's answer. Each test hangs or lets the bad value
 * into the state on code without the fix.
 */
import type { RunnableConfig } from "@langchain/core/runnables";
import { type CheckpointTuple, Command, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ActionSpec, type LangGoapError } from "../../src/core/index.js";
import {
  compileServedGraph,
  DEFAULT_PLANNING_TIMEOUT_MS,
  FunctionalStuckHandler,
  GoapGraph,
  StuckHandlerResult,
} from "../../src/graph/index.js";
import type { PlanningStrategy, StrategyContext } from "../../src/planner/index.js";
import { quietLogger } from "./support.js";

/** Each test would hang on code without the limits: vitest fails it at this bound instead of waiting. */
const NO_HANG = { timeout: 5_000 };

const pack = () => new ActionSpec({ name: "pack", effects: { packed: true } });

/** A saver whose `getTuple` (or `list`) never answers after `okCalls` calls. */
class HangingReads extends MemorySaver {
  calls = 0;
  constructor(
    private readonly method: "getTuple" | "list",
    private readonly okCalls = 0,
  ) {
    super();
  }

  override getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    if (this.method === "getTuple" && ++this.calls > this.okCalls) return new Promise(() => undefined);
    return super.getTuple(config);
  }

  override async *list(config: RunnableConfig, options?: Parameters<MemorySaver["list"]>[1]): AsyncGenerator<CheckpointTuple> {
    if (this.method === "list") await new Promise(() => undefined);
    yield* super.list(config, options);
  }
}

describe("a planning strategy has a time limit (planningTimeoutMs)", () => {
  it("the default is 60 s; a bad limit is an error naming the option", () => {
    expect(DEFAULT_PLANNING_TIMEOUT_MS).toBe(60_000);
    expect(() => new GoapGraph([], { planningTimeoutMs: 0 })).toThrow("planningTimeoutMs must be a number of milliseconds > 0");
  });

  it("a custom strategy that never answers ends the run budget_exhausted naming it; its signal aborts", NO_HANG, async () => {
    const contexts: StrategyContext[] = [];
    const stuck: PlanningStrategy = {
      name: "oracle",
      plan: (_start, _goal, _actions, context) => {
        if (context) contexts.push(context);
        return new Promise(() => undefined);
      },
    };
    const graph = new GoapGraph([pack()], { logger: quietLogger(), strategy: stuck, planningTimeoutMs: 30 });
    const result = await graph.invoke({ packed: true }, {});
    expect(result.status).toBe("budget_exhausted");
    expect(result.noPlanExplanation?.budget?.limit).toBe("time");
    expect(result.replanReason).toContain('planning strategy "oracle" did not answer within 30 ms (planningTimeoutMs)');
    expect(contexts).toHaveLength(1);
    expect(contexts[0]?.signal?.aborted).toBe(true);
    const reason = (contexts[0] as StrategyContext).signal?.reason as LangGoapError | undefined;
    expect(reason?.code).toBe("TIMEOUT");
  });

  it("a strategy that answers in time plans as before", async () => {
    const graph = new GoapGraph([pack()], { logger: quietLogger(), planningTimeoutMs: 5_000 });
    expect((await graph.invoke({ packed: true }, {})).status).toBe("goal_achieved");
  });
});

describe("every saver call a read waits on has the checkpointer limit", () => {
  it("a list() that never yields fails threadHistory with TIMEOUT naming list and the thread", NO_HANG, async () => {
    const saver = new HangingReads("list");
    const graph = new GoapGraph([pack()], { logger: quietLogger(), checkpointerTimeoutMs: 50 });
    graph.compile({ checkpointer: saver });
    const config = { configurable: { thread_id: "t-list" } };
    expect((await graph.invoke({ packed: true }, {}, config)).status).toBe("goal_achieved");
    const error = await graph.threadHistory(config).catch((e: unknown) => e);
    expect((error as LangGoapError).code).toBe("TIMEOUT");
    expect((error as LangGoapError).message).toBe('checkpointer.list (thread "t-list") did not settle within 50 ms');
  });

  it("a saver assigned after compile (as the API server does) gets the same limit", NO_HANG, async () => {
    const graph = new GoapGraph([pack()], { logger: quietLogger(), checkpointerTimeoutMs: 50 });
    const app = graph.compile();
    app.checkpointer = new HangingReads("getTuple");
    const error = await app
      .invoke(graph.createInput({ packed: true }, {}), { configurable: { thread_id: "t-late" } })
      .catch((e: unknown) => e);
    expect((error as LangGoapError).code).toBe("TIMEOUT");
    expect((error as LangGoapError).message).toBe('checkpointer.getTuple (thread "t-late") did not settle within 50 ms');
    // A copy made with withConfig keeps the rule.
    const copy = app.withConfig({ tags: ["x"] });
    copy.checkpointer = new HangingReads("getTuple");
    const again = await copy
      .invoke(graph.createInput({ packed: true }, {}), { configurable: { thread_id: "t-copy" } })
      .catch((e: unknown) => e);
    expect((again as LangGoapError).code).toBe("TIMEOUT");
  });

  it("a served graph limits the saver the server assigns to it", NO_HANG, async () => {
    const graph = new GoapGraph([pack()], { logger: quietLogger(), checkpointerTimeoutMs: 50 });
    const served = compileServedGraph(graph);
    served.checkpointer = new HangingReads("getTuple");
    const error = await served
      .invoke(graph.createInput({ packed: true }, {}) as never, { configurable: { thread_id: "t-served" } })
      .catch((e: unknown) => e);
    expect((error as LangGoapError).code).toBe("TIMEOUT");
    // Limited once: assigning the limited saver again does not wrap it twice.
    const limited = served.checkpointer;
    served.checkpointer = limited;
    expect(served.checkpointer).toBe(limited);
  });
});

describe("values from stuck handlers and humans are JSON or refused", () => {
  it("a stuck handler's state update that is not JSON is no resolution, with a warning naming the path; the next handler is asked", async () => {
    const logger = quietLogger();
    const locked = new ActionSpec({ name: "publish", preconditions: { license: true }, effects: { published: true } });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const bad = new FunctionalStuckHandler("bigint", () =>
      StuckHandlerResult.replan({ message: "bought", stateUpdates: { license: true, receipt: { total: 10n } as never } }),
    );
    const good = new FunctionalStuckHandler("plain", () =>
      StuckHandlerResult.replan({ message: "bought", stateUpdates: { license: true } }),
    );
    const graph = new GoapGraph([locked], { logger, stuckHandlers: [bad, good], maxStuckIterations: 1 });
    const result = await graph.invoke({ published: true }, {}, { configurable: { thread_id: "t-stuck" } });
    expect(result.status).toBe("goal_achieved");
    expect(result.worldState.receipt).toBeUndefined();
    expect(logger.messages).toContain(
      'stuck handler "bigint" returned a state update that is not JSON at "receipt.total": 10n (a BigInt) is not JSON; treated as no resolution',
    );
    const onlyBad = new GoapGraph([locked], { logger: quietLogger(), stuckHandlers: [bad], maxStuckIterations: 1 });
    expect((await onlyBad.invoke({ published: true }, {})).status).toBe("no_plan");
  });

  it("an approval answer that is not JSON refuses the action invalid_value naming the path; the thread stays readable", async () => {
    const launch = new ActionSpec({ name: "launch", effects: { launched: true }, requireHumanApproval: true });
    const graph = new GoapGraph([launch], { logger: quietLogger() });
    const app = graph.compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t-answer" } };
    expect((await graph.invoke({ launched: true }, {}, config)).status).toBe("awaiting_human");
    // The answer carries a BigInt, sent as a raw Command (graph.resume checks it itself, below).
    await app.invoke(new Command({ resume: { approved: true, note: 10n } }), config);
    const after = await app.getState(config);
    const history = after.values.executionHistory as { actionName: string; failure: string | null; error: string | null }[];
    expect(history[0]?.failure).toBe("invalid_value");
    expect(history[0]?.error).toBe(
      'human_answer_invalid: the answer about action "launch" is not JSON at "note": 10n (a BigInt) is not JSON',
    );
    expect(JSON.stringify(after.values.humanInput)).toBe("{}");
  });

  it("graph.resume refuses an answer that is not JSON with INVALID_ANSWER naming the path, before anything is written", async () => {
    const form = new ActionSpec({
      name: "order",
      effects: { ordered: true },
      requireHumanApproval: z.object({ qty: z.number() }),
    });
    const graph = new GoapGraph([form], { logger: quietLogger() });
    graph.compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t-form" } };
    const paused = await graph.invoke({ ordered: true }, {}, config);
    expect(paused.status).toBe("awaiting_human");
    const error = await graph.resume({ qty: Number.NaN }, config).catch((e: unknown) => e);
    expect((error as LangGoapError).code).toBe("INVALID_ANSWER");
    expect((error as LangGoapError).message).toContain('the answer is not JSON at "qty": NaN is not a JSON number');
    // Still waiting for an answer: a good one goes through.
    expect((await graph.resume({ qty: 2 }, config)).status).toBe("goal_achieved");
  });
});
