import type { RunnableConfig } from "@langchain/core/runnables";
import { type Checkpoint, type CheckpointMetadata, MemorySaver } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { ActionSpec, DEFAULT_HOOK_TIMEOUT_MS, type HookContext, LangGoapError } from "../../src/core/index.js";
import {
  DEFAULT_CHECKPOINTER_TIMEOUT_MS,
  FirstOfPolicy,
  FunctionalConditionResolver,
  FunctionalGuard,
  FunctionalStuckHandler,
  GoapGraph,
  type TerminationPolicy,
} from "../../src/graph/index.js";
import { quietLogger } from "./support.js";

/** A hook answer that never comes; the hook's signal is kept to check it was aborted. */
function hang(signals: AbortSignal[], context?: HookContext): Promise<never> {
  if (context) signals.push(context.signal);
  return new Promise<never>(() => undefined);
}

/** Each test would hang on code without the limits: vitest fails it at this bound instead of waiting. */
const NO_HANG = { timeout: 5_000 };

const twoSteps = () => [
  new ActionSpec({ name: "pack", effects: { packed: true } }),
  new ActionSpec({ name: "ship", preconditions: { packed: true }, effects: { shipped: true } }),
];

describe("every deciding hook has a time limit (hookTimeoutMs)", () => {
  it("the default is 30 s; a bad limit is an error naming the option", () => {
    expect(DEFAULT_HOOK_TIMEOUT_MS).toBe(30_000);
    expect(() => new GoapGraph([], { hookTimeoutMs: 0 })).toThrow("hookTimeoutMs must be a number of milliseconds > 0");
  });

  it("a termination policy that never answers is skipped with a warning; its signal aborts; the run goes on", NO_HANG, async () => {
    const signals: AbortSignal[] = [];
    const logger = quietLogger();
    const stuck: TerminationPolicy = { name: "budget", shouldTerminate: (_s, context) => hang(signals, context) };
    const graph = new GoapGraph(twoSteps(), { logger, terminationPolicies: [stuck], hookTimeoutMs: 20 });
    const result = await graph.invoke({ shipped: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(result.executionHistory.map((r) => r.actionName)).toEqual(["pack", "ship"]);
    // Consulted after each of the two steps.
    expect(logger.messages.filter((m) => m.startsWith("termination policy"))).toEqual([
      'termination policy "budget" timed out and was skipped: termination policy "budget" did not settle within 20 ms',
      'termination policy "budget" timed out and was skipped: termination policy "budget" did not settle within 20 ms',
    ]);
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
  });

  it("a composite policy passes the signal on to its children", NO_HANG, async () => {
    const signals: AbortSignal[] = [];
    const logger = quietLogger();
    const child: TerminationPolicy = { name: "child", shouldTerminate: (_s, context) => hang(signals, context) };
    const graph = new GoapGraph(twoSteps(), { logger, terminationPolicies: [new FirstOfPolicy(child)], hookTimeoutMs: 20 });
    expect((await graph.invoke({ shipped: true }, {})).status).toBe("goal_achieved");
    expect(signals.length).toBe(2);
    expect(signals.every((s) => s.aborted && (s.reason as LangGoapError).code === "TIMEOUT")).toBe(true);
  });

  it("a guard that never answers counts as a failed warn naming it; the action runs", NO_HANG, async () => {
    const signals: AbortSignal[] = [];
    const logger = quietLogger();
    const guard = new FunctionalGuard("compliance", (_a, _w, context) => hang(signals, context));
    const graph = new GoapGraph(twoSteps(), { logger, guards: [guard], hookTimeoutMs: 20 });
    const result = await graph.invoke({ shipped: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(logger.messages.filter((m) => m.startsWith("guard"))).toEqual([
      'guard "compliance" warned about action "pack": guard "compliance" did not settle within 20 ms',
      'guard "compliance" warned about action "ship": guard "compliance" did not settle within 20 ms',
    ]);
    expect(signals.map((s) => s.aborted)).toEqual([true, true]);
  });

  it("a stuck handler that never answers counts as no resolution; the run ends no_plan", NO_HANG, async () => {
    const signals: AbortSignal[] = [];
    const logger = quietLogger();
    const handler = new FunctionalStuckHandler("buy-license", (_s, _why, context) => hang(signals, context));
    const locked = new ActionSpec({ name: "publish", preconditions: { license: true }, effects: { published: true } });
    const graph = new GoapGraph([locked], { logger, stuckHandlers: [handler], maxStuckIterations: 1, hookTimeoutMs: 20 });
    const result = await graph.invoke({ published: true }, {});
    expect(result.status).toBe("no_plan");
    expect(logger.messages).toContain(
      'stuck handler "buy-license" timed out; treated as no resolution: stuck handler "buy-license" did not settle within 20 ms',
    );
    expect(signals.map((s) => s.aborted)).toEqual([true]);
  });

  it("a condition resolver that never answers says unknown; the next resolver decides", NO_HANG, async () => {
    const signals: AbortSignal[] = [];
    const logger = quietLogger();
    const slow = new FunctionalConditionResolver("oracle", (_k, _w, context) => hang(signals, context));
    const fast = new FunctionalConditionResolver("table", (key) => key === "open");
    const enter = new ActionSpec({ name: "enter", preconditions: { open: true }, effects: { inside: true } });
    const graph = new GoapGraph([enter], { logger, resolvers: [slow, fast], hookTimeoutMs: 20 });
    const result = await graph.invoke({ inside: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(result.worldState.open).toBe(true);
    expect(logger.messages).toContain(
      'condition resolver "oracle" timed out; treated as unknown: condition resolver "oracle" on "open" did not settle within 20 ms',
    );
    expect(signals[0]?.aborted).toBe(true);
  });

  it("an effect validator that never answers fails the action as validation_failed naming it; the run replans", NO_HANG, async () => {
    const signals: AbortSignal[] = [];
    const audited = new ActionSpec({
      name: "audited_ship",
      effects: { shipped: true },
      effectValidator: (_b, _a, context) => hang(signals, context),
    });
    const plain = new ActionSpec({ name: "plain_ship", effects: { shipped: true }, cost: 5 });
    const graph = new GoapGraph([audited, plain], { logger: quietLogger(), hookTimeoutMs: 20 });
    const result = await graph.invoke({ shipped: true }, {});
    expect(result.status).toBe("goal_achieved");
    expect(result.executionHistory.map((r) => [r.actionName, r.failure, r.error])).toEqual([
      [
        "audited_ship",
        "validation_failed",
        'Effect validation failed: effect validator of action "audited_ship" did not settle within 20 ms',
      ],
      ["plain_ship", null, null],
    ]);
    expect(signals[0]?.aborted).toBe(true);
  });

  it("a transition model whose sample never answers fails the action as a timeout", NO_HANG, async () => {
    const model = { expected: () => ({}), sample: () => new Promise<never>(() => undefined) };
    const graph = new GoapGraph([new ActionSpec({ name: "roll", effects: { rolled: true } })], {
      logger: quietLogger(),
      transitionModel: model,
      hookTimeoutMs: 20,
    });
    const result = await graph.invoke({ rolled: true }, {});
    expect(result.status).toBe("failed");
    expect(result.executionHistory.map((r) => [r.failure, r.error])).toEqual([
      ["timeout", 'transition model sample for action "roll" did not settle within 20 ms'],
      ["timeout", 'transition model sample for action "roll" did not settle within 20 ms'],
    ]);
  });

  it("the run's own signal stops waiting on a hook at once, even with no limit", NO_HANG, async () => {
    const controller = new AbortController();
    // The user cancels while the guard is being asked.
    const guard = new FunctionalGuard("slow", () => {
      queueMicrotask(() => controller.abort(new Error("user cancelled")));
      return new Promise<never>(() => undefined);
    });
    const graph = new GoapGraph(twoSteps(), { logger: quietLogger(), guards: [guard], hookTimeoutMs: Number.POSITIVE_INFINITY });
    const result = await graph.invoke({ shipped: true }, {}, { signal: controller.signal });
    expect(result.status).toBe("aborted");
    expect(result.executionHistory).toEqual([]);
  });
});

/** A MemorySaver whose writes of a chosen kind stop answering after `okCalls` calls. */
class HangingSaver extends MemorySaver {
  calls = 0;
  constructor(
    private readonly method: "put" | "putWrites",
    private readonly okCalls: number,
    private readonly namespace?: string,
  ) {
    super();
  }

  #hangs(config: RunnableConfig): boolean {
    if (this.namespace !== undefined && config.configurable?.checkpoint_ns !== this.namespace) return false;
    return ++this.calls > this.okCalls;
  }

  override put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig> {
    if (this.method === "put" && this.#hangs(config)) return new Promise(() => undefined);
    return super.put(config, checkpoint, metadata);
  }

  override putWrites(config: RunnableConfig, writes: [string, unknown][], taskId: string): Promise<void> {
    if (this.method === "putWrites" && this.#hangs(config)) return new Promise(() => undefined);
    return super.putWrites(config, writes, taskId);
  }
}

describe("checkpointer calls have a time limit (checkpointerTimeoutMs)", () => {
  it("the default is 30 s; a bad limit is an error naming the option", () => {
    expect(DEFAULT_CHECKPOINTER_TIMEOUT_MS).toBe(30_000);
    expect(() => new GoapGraph([], { checkpointerTimeoutMs: -1 })).toThrow("checkpointerTimeoutMs must be a number of milliseconds > 0");
  });

  it("a step checkpoint write that never settles fails the run with TIMEOUT naming the method and thread", NO_HANG, async () => {
    const saver = new HangingSaver("put", 2);
    const graph = new GoapGraph(twoSteps(), { logger: quietLogger(), checkpointerTimeoutMs: 50 });
    graph.compile({ checkpointer: saver });
    const error = await graph.invoke({ shipped: true }, {}, { configurable: { thread_id: "t-put" } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LangGoapError);
    expect((error as LangGoapError).code).toBe("TIMEOUT");
    expect((error as LangGoapError).message).toBe('checkpointer.put (thread "t-put") did not settle within 50 ms');
  });

  it("a step claim write that never settles fails the run with TIMEOUT; the action never ran", NO_HANG, async () => {
    const saver = new HangingSaver("putWrites", 0, "langgoap-claims");
    const ran: string[] = [];
    const pack = new ActionSpec({ name: "pack", effects: { packed: true }, execute: () => void ran.push("pack") });
    const graph = new GoapGraph([pack], { logger: quietLogger(), checkpointerTimeoutMs: 50 });
    graph.compile({ checkpointer: saver });
    const error = await graph.invoke({ packed: true }, {}, { configurable: { thread_id: "t-claim" } }).catch((e: unknown) => e);
    expect((error as LangGoapError).code).toBe("TIMEOUT");
    expect((error as LangGoapError).message).toBe('checkpointer.putWrites (thread "t-claim") did not settle within 50 ms');
    expect(ran).toEqual([]);
  });

  it("the saver keeps its identity and its other methods (instanceof, list, getState)", async () => {
    const saver = new MemorySaver();
    const graph = new GoapGraph(twoSteps(), { logger: quietLogger(), checkpointerTimeoutMs: 1_000 });
    const app = graph.compile({ checkpointer: saver });
    expect(app.checkpointer).toBeInstanceOf(MemorySaver);
    const config = { configurable: { thread_id: "t-ok" } };
    expect((await graph.invoke({ shipped: true }, {}, config)).status).toBe("goal_achieved");
    expect((await app.getState(config)).values.status).toBe("goal_achieved");
    let checkpoints = 0;
    for await (const _ of saver.list(config)) checkpoints++;
    expect(checkpoints).toBeGreaterThan(3);
  });
});

describe("cost and effect functions are synchronous", () => {
  it("a cost function returning a promise is an error saying so, not a hang or a silent cost", () => {
    const chop = new ActionSpec({ name: "chop", effects: { wood: true }, cost: (() => Promise.resolve(1)) as never });
    expect(() => chop.getCost({})).toThrow(
      'action "chop": cost function returned a Promise; expected a number from 0 to 1000000000000 (MAX_ACTION_COST)',
    );
  });

  it("an effect function returning a promise is an error saying so (it was read as no effects at all)", () => {
    const chop = new ActionSpec({ name: "chop", effects: (() => Promise.resolve({ wood: true })) as never, effectKeys: ["wood"] });
    expect(() => chop.apply({})).toThrow('action "chop": effect function must return an object (synchronously), got a Promise');
  });
});
