import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActionSpec, type Condition, type Effect, GoalSpec, LangGoapError, type WorldState } from "../../src/core/index.js";
import { type PlanDetailedResult, planDetailed } from "../../src/planner/index.js";
import { PlannerPool } from "../../src/workers/index.js";
import { villageActions, villageStart } from "../support/village.js";

// One pool for the whole file: starting workers from src (through tsx) is the slow part, so both workers start in
// the hook (its own limit), not inside whichever test happens to come first (31.9 s under load ~30 once).
const pool = new PlannerPool({ size: 2 });
beforeAll(async () => {
  const warm = new ActionSpec({ name: "warm", effects: { ready: true } });
  const results = await Promise.all([1, 2].map(() => pool.planDetailed({ ready: false }, { ready: true }, [warm])));
  expect(results.map((r) => r.status)).toEqual(["found", "found"]);
});
afterAll(() => pool.destroy());

const chop = new ActionSpec({ name: "chop", effects: { wood: { inc: 2 } }, cost: 2 });
const gather = new ActionSpec({ name: "gather", effects: { wood: { inc: 1 } }, cost: 1.5 });
const woodActions = Object.freeze([chop, gather]);

/** A search that never ends by itself: n grows without bound and the goal wants it negative. */
const endless = Object.freeze([new ActionSpec({ name: "up", effects: { n: { inc: 1 } }, cost: 1 })]);
const NO_LIMITS = { maxNodes: Number.POSITIVE_INFINITY, timeBudgetMs: Number.POSITIVE_INFINITY, heuristic: "zero" } as const;

function comparable(result: PlanDetailedResult) {
  return {
    status: result.status,
    actionNames: result.plan?.actionNames ?? null,
    totalCost: result.plan?.totalCost ?? null,
    expectedStates: result.plan?.expectedStates ?? null,
    startState: result.plan?.startState ?? null,
    nodesExpanded: result.stats.nodesExpanded,
    nodesGenerated: result.stats.nodesGenerated,
    heuristic: result.plan?.metadata.heuristic ?? null,
    actionsPruned: result.plan?.metadata.actionsPruned ?? null,
    usedBlacklistFallback: result.usedBlacklistFallback,
    budget: result.budget ? { ...result.budget, elapsedMs: 0, message: result.budget.message.replace(/\d+ ms/, "T ms") } : null,
    explanation: result.status === "no_plan" ? result.explanation : null,
  };
}

async function expectCode(promise: Promise<unknown>, code: string): Promise<LangGoapError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LangGoapError);
  expect((error as LangGoapError).code).toBe(code);
  return error as LangGoapError;
}

describe("PlannerPool: the same answers as in-thread planning", () => {
  const village = Object.freeze([...villageActions]);
  const problems: Array<[string, WorldState, Record<string, Condition>, readonly ActionSpec[], object]> = [
    ["village, not hungry", villageStart, { is_hungry: false }, village, {}],
    ["village, rested, with blacklist", villageStart, { is_tired: false }, village, { blacklisted: ["go_to_shelter"] }],
    ["numeric, hmax", { wood: 0 }, { wood: { gte: 7 } }, woodActions, { heuristic: "hmax" }],
    ["numeric, weighted hff", { wood: 1 }, { wood: { gte: 9 } }, woodActions, { heuristic: "hff", weight: 2 }],
    ["goal already holds", { wood: 5 }, { wood: { gte: 3 } }, woodActions, {}],
    ["no plan", { wood: 0 }, { stone: true }, woodActions, {}],
    ["expansion budget", { wood: 0 }, { wood: { gte: 40 } }, woodActions, { maxExpansions: 3 }],
    ["node budget", { wood: 0 }, { wood: { gte: 40 } }, woodActions, { maxNodes: 5, heuristic: "zero" }],
  ];

  it.each(problems)("%s", async (_label, start, goal, actions, options) => {
    const local = planDetailed(start, goal, actions, options);
    const pooled = await pool.planDetailed(start, goal, actions, options);
    expect(pooled.ranIn).toBe("worker");
    expect(comparable(pooled)).toEqual(comparable(local));
    // The plan's actions are the caller's own specs, as in-thread.
    if (pooled.plan) for (const [i, a] of pooled.plan.actions.entries()) expect(a).toBe(local.plan?.actions[i]);
  });

  it("tells budget_exhausted from no_plan, with the budget's figures", async () => {
    const exhausted = await pool.planDetailed({ wood: 0 }, { wood: { gte: 40 } }, woodActions, { maxExpansions: 3 });
    expect(exhausted.status).toBe("budget_exhausted");
    expect(exhausted.budget?.limit).toBe("expansions");
    expect(exhausted.plan).toBeNull();
    const none = await pool.planDetailed({ wood: 0 }, { stone: true }, woodActions);
    expect(none.status).toBe("no_plan");
    expect(none.explanation?.unreachableConditions).toEqual(["stone = true"]);
  });

  it("gives the same plans, costs and statuses on generated domains (property)", async () => {
    const BOOLS = ["b0", "b1", "b2"] as const;
    const conditionArb: fc.Arbitrary<[string, Condition]> = fc.oneof(
      fc.tuple(fc.constantFrom(...BOOLS), fc.boolean()),
      fc.tuple(fc.constant("n"), fc.oneof(fc.record({ gte: fc.integer({ min: 0, max: 4 }) }), fc.integer({ min: 0, max: 4 }))),
    );
    const effectArb: fc.Arbitrary<[string, Effect]> = fc.oneof(
      fc.tuple(fc.constantFrom(...BOOLS), fc.boolean()),
      fc.tuple(
        fc.constant("n"),
        fc.oneof(fc.record({ inc: fc.integer({ min: 1, max: 2 }) }), fc.record({ dec: fc.integer({ min: 1, max: 2 }) })),
      ),
    );
    const domainArb = fc.record({
      actions: fc.array(
        fc.record({
          pre: fc.array(conditionArb, { maxLength: 2 }),
          eff: fc.array(effectArb, { minLength: 1, maxLength: 2 }),
          cost: fc.integer({ min: 0, max: 4 }),
        }),
        {
          minLength: 1,
          maxLength: 6,
        },
      ),
      start: fc.record({ b0: fc.boolean(), b1: fc.boolean(), b2: fc.boolean(), n: fc.integer({ min: 0, max: 2 }) }),
      goal: fc.array(conditionArb, { minLength: 1, maxLength: 2 }),
      heuristic: fc.constantFrom("hmax", "zero", "hff", "goal-count", "lmcut"),
    });
    await fc.assert(
      fc.asyncProperty(domainArb, async (d) => {
        const actions = d.actions.map((a, i) => {
          const preconditions: Record<string, Condition> = Object.fromEntries(a.pre);
          const effects: Record<string, Effect> = Object.fromEntries(a.eff);
          const n = effects.n as { inc?: number; dec?: number } | undefined;
          if (n?.inc !== undefined) preconditions.n = { lte: 4 - n.inc };
          if (n?.dec !== undefined) preconditions.n = { gte: n.dec };
          return new ActionSpec({ name: `a${i}`, preconditions, effects, cost: a.cost });
        });
        const goal = new GoalSpec({ conditions: Object.fromEntries(d.goal) });
        const options = { heuristic: d.heuristic };
        const local = planDetailed(d.start, goal, actions, options);
        const pooled = await pool.planDetailed(d.start, goal, actions, options);
        expect(comparable(pooled)).toEqual(comparable(local));
      }),
      { numRuns: 60, seed: 25 },
    );
  });

  it("plans a crowd submitted in one turn in batches, each domain sent once per worker", async () => {
    const fresh = new PlannerPool({ size: 2, maxBatch: 16 });
    try {
      const starts = Array.from({ length: 100 }, (_, i) => ({ wood: i % 7 }));
      // Two arrays with equal content are one domain (content key).
      const copy = [new ActionSpec({ name: "chop", effects: { wood: { inc: 2 } }, cost: 2 }), gather];
      const results = await Promise.all(starts.map((s, i) => fresh.planDetailed(s, { wood: { gte: 9 } }, i % 2 ? woodActions : copy)));
      for (const [i, r] of results.entries()) {
        expect(comparable(r)).toEqual(comparable(planDetailed(starts[i] as WorldState, { wood: { gte: 9 } }, woodActions)));
      }
      const { tasks, domainsSent, planned, outstanding } = fresh.stats;
      expect(planned).toBe(100);
      expect(outstanding).toBe(0);
      // Sent with the first task of each worker; again only to a worker that asks (it started late or was replaced).
      expect(domainsSent).toBeGreaterThanOrEqual(2);
      expect(domainsSent).toBeLessThanOrEqual(4);
      // 100 problems in batches of at most 16: 7 tasks, plus one per worker that had to ask for the domain.
      expect(tasks).toBeLessThanOrEqual(7 + 2);
    } finally {
      await fresh.destroy();
    }
  });
});

describe("PlannerPool: errors, refusals and bounds", () => {
  it("sends coded errors back across the thread as LangGoapError", async () => {
    const error = await expectCode(
      pool.planDetailed({ wood: 0 }, { wood: 3 }, woodActions, { heuristic: "nope" as never }),
      "INVALID_OPTION",
    );
    expect(error.message).toContain("heuristic");
    const twice = [chop, new ActionSpec({ name: "chop", effects: { wood: 1 } })];
    await expectCode(pool.planDetailed({ wood: 0 }, { wood: 3 }, twice), "DUPLICATE_ACTION");
  });

  it("refuses effect and cost functions, custom goals and tracers with NOT_SERIALIZABLE, naming the culprit", async () => {
    const dynamic = new ActionSpec({ name: "grow", effects: (s) => ({ wood: (s.wood as number) * 2 }), effectKeys: ["wood"] });
    const priced = new ActionSpec({ name: "buy", effects: { wood: { inc: 1 } }, cost: (s) => 1 + (s.wood as number) });
    expect((await expectCode(pool.planDetailed({ wood: 1 }, { wood: 4 }, [dynamic]), "NOT_SERIALIZABLE")).message).toContain(
      '"grow" has an effect function',
    );
    expect((await expectCode(pool.planDetailed({ wood: 1 }, { wood: 4 }, [priced]), "NOT_SERIALIZABLE")).message).toContain(
      '"buy" has a cost function',
    );
    class Never extends GoalSpec {
      override isSatisfied(): boolean {
        return false;
      }
    }
    await expectCode(pool.planDetailed({ wood: 0 }, new Never({ conditions: { wood: 2 } }), woodActions), "NOT_SERIALIZABLE");
    await expectCode(pool.planDetailed({ wood: 0 }, { wood: 2 }, woodActions, { tracer: {}, recordExpansions: true }), "NOT_SERIALIZABLE");
  });

  it('plans what cannot cross in-thread with unserializable: "in-thread", and says so', async () => {
    const mixed = new PlannerPool({ size: 1, unserializable: "in-thread" });
    try {
      const priced = new ActionSpec({ name: "buy", effects: { wood: { inc: 1 } }, cost: (s) => 1 + (s.wood as number) });
      const result = await mixed.planDetailed({ wood: 0 }, { wood: { gte: 2 } }, [priced]);
      expect(result.ranIn).toBe("in-thread");
      expect(result.plan?.actionNames).toEqual(["buy", "buy"]);
      expect(result.plan?.totalCost).toBe(3);
      expect(mixed.stats.inThread).toBe(1);
      expect(mixed.stats.tasks).toBe(0);
    } finally {
      await mixed.destroy();
    }
  });

  it("refuses a start state that cannot be copied with NOT_SERIALIZABLE, and plans the next problem", async () => {
    const error = await expectCode(
      pool.planDetailed({ wood: 0, hook: (() => 1) as never }, { wood: { gte: 3 } }, woodActions),
      "NOT_SERIALIZABLE",
    );
    expect(error.message).toContain("could not be copied to a worker");
    expect((await pool.planDetailed({ wood: 0 }, { wood: { gte: 3 } }, woodActions)).status).toBe("found");
  });

  it("refuses problems past maxQueue with POOL_QUEUE_FULL", async () => {
    const small = new PlannerPool({ size: 1, maxQueue: 2 });
    try {
      const first = small.planDetailed({ wood: 0 }, { wood: { gte: 3 } }, woodActions);
      const second = small.planDetailed({ wood: 1 }, { wood: { gte: 3 } }, woodActions);
      await expectCode(small.planDetailed({ wood: 2 }, { wood: { gte: 3 } }, woodActions), "POOL_QUEUE_FULL");
      expect((await first).status).toBe("found");
      expect((await second).status).toBe("found");
      expect((await small.planDetailed({ wood: 2 }, { wood: { gte: 3 } }, woodActions)).status).toBe("found");
    } finally {
      await small.destroy();
    }
  });

  it("rejects bad pool options", () => {
    expect(() => new PlannerPool({ size: 0 })).toThrow(/size must be an integer >= 1/);
    expect(() => new PlannerPool({ unserializable: "maybe" as never })).toThrow(/unserializable/);
  });
});

describe("PlannerPool: abort, crash and close", () => {
  it("stops a running search on abort, with status aborted and the signal's reason", async () => {
    await pool.plan({ n: 0 }, { n: 1 }, endless); // the workers hold the domain
    const controller = new AbortController();
    const running = pool.planDetailed({ n: 0 }, { n: -1 }, endless, { ...NO_LIMITS, signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort(new Error("frame over"));
    const result = await running;
    expect(result.status).toBe("aborted");
    expect(result.abortReason).toBe("Error: frame over");
    expect(result.plan).toBeNull();
  });

  it("answers a queued problem's abort at once, without waiting for the worker", async () => {
    const one = new PlannerPool({ size: 1 });
    try {
      const blocker = new AbortController();
      const running = one.planDetailed({ n: 0 }, { n: -1 }, endless, { ...NO_LIMITS, signal: blocker.signal });
      await new Promise((resolve) => setTimeout(resolve, 0));
      const queued = new AbortController();
      const waiting = one.planDetailed({ n: 0 }, { n: 2 }, endless, { signal: queued.signal });
      queued.abort();
      // The worker is busy with an endless search: only an answer from the caller's side can settle this.
      const result = await waiting;
      expect(result.status).toBe("aborted");
      expect(result.stats.nodesExpanded).toBe(0);
      expect(result.abortReason).toBe("AbortError: This operation was aborted");
      blocker.abort();
      expect((await running).status).toBe("aborted");
      // An already-aborted signal never reaches a worker.
      const before = one.stats.tasks;
      expect((await one.planDetailed({ n: 0 }, { n: 2 }, endless, { signal: AbortSignal.abort() })).status).toBe("aborted");
      expect(one.stats.tasks).toBe(before);
    } finally {
      await one.destroy();
    }
  });

  it("fails the problems of a worker that dies with WORKER_CRASHED, and plans again with a new worker", async () => {
    const one = new PlannerPool({ size: 1 });
    try {
      await one.plan({ n: 0 }, { n: 1 }, endless);
      const doomed = one.planDetailed({ n: 0 }, { n: -1 }, endless, { ...NO_LIMITS, timeBudgetMs: 60_000 });
      // The problem is posted to the idle worker in a microtask: after one turn of the event loop the worker has it.
      await new Promise((resolve) => setImmediate(resolve));
      await one.crashOneWorker();
      const error = await expectCode(doomed, "WORKER_CRASHED");
      expect(error.message).toContain("replaced");
      expect(one.stats.crashedTasks).toBe(1);
      const after = await one.planDetailed({ wood: 0 }, { wood: { gte: 3 } }, woodActions);
      expect(after.plan?.actionNames).toEqual(["chop", "gather"]);
    } finally {
      await one.destroy();
    }
  });

  it("close() lets accepted work finish, then refuses new problems with POOL_CLOSED", async () => {
    // Starting a worker from src goes through tsx: slow on a busy machine, so the timeout is generous.
    const closing = new PlannerPool({ size: 1, closeTimeoutMs: 120_000 });
    const accepted = closing.planDetailed({ wood: 0 }, { wood: { gte: 5 } }, woodActions);
    const closed = closing.close();
    expect((await accepted).plan?.totalCost).toBe(5.5);
    await closed;
    expect(closing.closed).toBe(true);
    await expectCode(closing.planDetailed({ wood: 0 }, { wood: 1 }, woodActions), "POOL_CLOSED");
  });

  it("close() does not wait past closeTimeoutMs for an endless search; destroy() fails what is left with POOL_CLOSED", async () => {
    const stuck = new PlannerPool({ size: 1, closeTimeoutMs: 200 });
    const endlessRun = stuck.planDetailed({ n: 0 }, { n: -1 }, endless, NO_LIMITS);
    const failed = expectCode(endlessRun, "POOL_CLOSED");
    await new Promise((resolve) => setTimeout(resolve, 0));
    await stuck.close();
    await failed;
    await stuck.destroy(); // twice is fine
  });
});
