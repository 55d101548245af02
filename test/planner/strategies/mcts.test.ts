import { afterEach, describe, expect, it, vi } from "vitest";
import { ActionSpec, createRng, GoalSpec, LangGoapError, type PlanningTracer, type WorldState } from "../../../src/core/index.js";
import {
  AStarStrategy,
  DeterministicTransitionModel,
  HeuristicRollout,
  MCTSStrategy,
  type MCTSStrategyOptions,
  planningKeys,
  RandomRollout,
  type RolloutContext,
  recordReturn,
  replayPlan,
  StochasticRollout,
  StochasticTransitionModel,
  ucb1,
} from "../../../src/planner/index.js";
import { createStateAnalyzer } from "../../../src/planner/strategies/mcts/analysis.js";
import { createStateKey } from "../../../src/planner/strategies/mcts/state-key.js";

/** A clock that moves `stepMs` at every reading (undone by vi.restoreAllMocks). */
function steppingClock(stepMs: number): void {
  let now = 0;
  vi.spyOn(performance, "now").mockImplementation(() => {
    now += stepMs;
    return now;
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

/** Deterministic budget: iterations only. */
const budget = (options: MCTSStrategyOptions = {}): MCTSStrategyOptions => ({
  iterations: 300,
  wallClockMs: Number.POSITIVE_INFINITY,
  ...options,
});

// A five-step chain with a distractor at each step.
const steps = ["a", "b", "c", "d", "e"];
const chain = steps.map(
  (s, i) => new ActionSpec({ name: `to_${s}`, preconditions: { at: i === 0 ? "start" : steps[i - 1] }, effects: { at: s } }),
);
const wander = new ActionSpec({ name: "wander", preconditions: { at: "a" }, effects: { at: "lost" } });
const back = new ActionSpec({ name: "come_back", preconditions: { at: "lost" }, effects: { at: "start" } });
const chainActions = [...chain, wander, back];
const atE = new GoalSpec({ conditions: { at: "e" } });

// A short bridge that collapses half the time, and a safe three-step way around.
const bridge = new ActionSpec({ name: "cross_bridge", preconditions: { at: "bank" }, effects: { at: "far" } });
const walk1 = new ActionSpec({ name: "to_ford", preconditions: { at: "bank" }, effects: { at: "ford" } });
const walk2 = new ActionSpec({ name: "wade", preconditions: { at: "ford" }, effects: { at: "island" } });
const walk3 = new ActionSpec({ name: "to_far", preconditions: { at: "island" }, effects: { at: "far" } });
const riverActions = [bridge, walk1, walk2, walk3];
const atFar = new GoalSpec({ conditions: { at: "far" } });
const collapsing = new StochasticTransitionModel({
  outcomes: { cross_bridge: [{ probability: 0.5, effects: { at: "river" }, label: "collapse" }] },
  actions: riverActions,
});

describe("ucb1", () => {
  it("is the mean plus c·sqrt(ln N / n), and +Infinity when unvisited", () => {
    expect(ucb1({ visits: 0, value: 0.9 }, 10, 1)).toBe(Number.POSITIVE_INFINITY);
    expect(ucb1({ visits: 10, value: 0.5 }, 100, Math.SQRT2)).toBeCloseTo(0.5 + Math.SQRT2 * Math.sqrt(Math.log(100) / 10), 12);
    // A well-explored good child is not penalised for its visits (LangGOAP divided the mean by them).
    expect(ucb1({ visits: 90, value: 0.8 }, 100, 0.1)).toBeGreaterThan(ucb1({ visits: 10, value: 0.6 }, 100, 0.1));
    expect(ucb1({ visits: 3, value: 0.4 }, 1, 2)).toBe(0.4);
  });

  it("recordReturn keeps a running mean", () => {
    const stats = { visits: 0, value: 0 };
    for (const r of [1, 0, 0.5, 0.5]) recordReturn(stats, r);
    expect(stats).toEqual({ visits: 4, value: 0.5 });
  });
});

describe("rollout policies", () => {
  const oneStep = new ActionSpec({ name: "finish", preconditions: { at: "d" }, effects: { at: "e" } });
  function context(state: WorldState, policyActions: ActionSpec[], stochastic = false): RolloutContext {
    const keyOf = createStateKey(planningKeys(atE, policyActions));
    const model = new DeterministicTransitionModel();
    return {
      state,
      spent: new Set(),
      goal: atE,
      actions: policyActions,
      model,
      stochastic,
      rng: createRng(5),
      depth: 10,
      discount: 0.9,
      deadEndReturn: 0,
      analyze: createStateAnalyzer({ goal: atE, actions: policyActions, model, estimate: () => 0.25, keyOf, stochastic }),
    };
  }

  it("start from the node being expanded and check the goal on the current state", () => {
    for (const policy of [new RandomRollout(), new HeuristicRollout(), new StochasticRollout()]) {
      // Already at the goal: full reward, no step taken.
      expect(policy.rollout(context({ at: "e" }, [oneStep]))).toBe(1);
      // One step away: the goal is reached by the cursor after one discounted step.
      expect(policy.rollout(context({ at: "d" }, [oneStep]))).toBeCloseTo(0.9, 12);
      // Nothing applies: a dead end is worth 0.
      expect(policy.rollout(context({ at: "start" }, [oneStep]))).toBe(0);
    }
  });

  it("credit the state estimate when the depth runs out", () => {
    const loop = [
      new ActionSpec({ name: "ping", preconditions: { at: "start" }, effects: { at: "a" } }),
      new ActionSpec({ name: "pong", preconditions: { at: "a" }, effects: { at: "start" } }),
    ];
    // 10 steps of ping-pong, then the estimate 0.25, discounted 10 times.
    expect(new HeuristicRollout().rollout(context({ at: "start" }, loop))).toBeCloseTo(0.25 * 0.9 ** 10, 12);
  });
});

describe("MCTSStrategy", () => {
  it("finds a valid plan to the goal on a deterministic problem", async () => {
    const p = await new MCTSStrategy(budget()).plan({ at: "start" }, atE, chainActions);
    expect(p?.actionNames).toEqual(["to_a", "to_b", "to_c", "to_d", "to_e"]);
    expect(p?.totalCost).toBe(5);
    const replay = replayPlan({ at: "start" }, p?.actions ?? [], atE);
    expect(replay.valid).toBe(true);
    expect(p?.expectedStates).toEqual(replay.states);
    expect(p?.metadata).toMatchObject({ strategy: "mcts", iterations: 300, partial: false });
  });

  it("is deterministic for a given seed, and the seed matters", async () => {
    const run = async (seed: number) => {
      // Mean backups average sampled returns, so the seed shows in the values (exact mode's value iteration would hide it).
      const p = await new MCTSStrategy(budget({ seed, transitionModel: collapsing, iterations: 120, backup: "mean" })).plan(
        { at: "bank" },
        atFar,
        riverActions,
      );
      return { names: p?.actionNames, value: p?.metadata.expectedReturn, size: p?.metadata.graphSize };
    };
    const first = await run(11);
    expect(await run(11)).toEqual(first);
    const others = await Promise.all([1, 2, 3, 4, 5].map(run));
    expect(new Set([first, ...others].map((r) => r.value)).size).toBeGreaterThan(1);
  });

  it("avoids a risky shortcut that A* takes on declared effects", async () => {
    const astar = await new AStarStrategy().plan({ at: "bank" }, atFar, riverActions);
    expect(astar?.actionNames).toEqual(["cross_bridge"]);
    for (const backup of ["bellman", "mean"] as const) {
      const p = await new MCTSStrategy(budget({ transitionModel: collapsing, backup })).plan({ at: "bank" }, atFar, riverActions);
      expect(p?.actionNames).toEqual(["to_ford", "wade", "to_far"]);
    }
  });

  it("follows expected outcomes only with determinize, like A*", async () => {
    const p = await new MCTSStrategy(budget({ transitionModel: collapsing, determinize: true })).plan({ at: "bank" }, atFar, riverActions);
    expect(p?.actionNames).toEqual(["cross_bridge"]);
  });

  it("plans with a random rollout policy too", async () => {
    const p = await new MCTSStrategy(budget({ rolloutPolicy: new RandomRollout(), transitionModel: collapsing })).plan(
      { at: "bank" },
      atFar,
      riverActions,
    );
    expect(p?.actionNames).toEqual(["to_ford", "wade", "to_far"]);
  });

  it("weighs dead ends by deadEndPenalty (risk aversion)", async () => {
    // Jumping reaches the goal 90% of the time and strands the agent otherwise; walking takes six safe steps.
    const jump = new ActionSpec({ name: "jump", preconditions: { at: "cliff" }, effects: { at: "top" } });
    const path = ["cliff", "p1", "p2", "p3", "p4", "p5", "top"];
    const walk = path
      .slice(1)
      .map((to, i) => new ActionSpec({ name: `walk_${to}`, preconditions: { at: path[i] as string }, effects: { at: to } }));
    const gamble = new StochasticTransitionModel({ outcomes: { jump: [{ probability: 0.1, effects: { at: "stranded" } }] } });
    const atTop = new GoalSpec({ conditions: { at: "top" } });
    // A steep discount (0.95: six steps are worth 0.74) makes the 90% jump worth more than the walk...
    const bold = await new MCTSStrategy(budget({ transitionModel: gamble, iterations: 400, discount: 0.95 })).plan({ at: "cliff" }, atTop, [
      jump,
      ...walk,
    ]);
    expect(bold?.actionNames).toEqual(["jump"]);
    // ... unless a dead end costs more than never arriving,
    const careful = await new MCTSStrategy(budget({ transitionModel: gamble, iterations: 400, discount: 0.95, deadEndPenalty: 3 })).plan(
      { at: "cliff" },
      atTop,
      [jump, ...walk],
    );
    expect(careful?.actionNames).toEqual(["walk_p1", "walk_p2", "walk_p3", "walk_p4", "walk_p5", "walk_top"]);
    // ... and by default, under a model that lists its outcomes, reaching the goal at all comes first (discount 0.995).
    const byDefault = await new MCTSStrategy({ transitionModel: gamble, seed: 3 }).plan({ at: "cliff" }, atTop, [jump, ...walk]);
    expect(byDefault?.actionNames).toEqual(["walk_p1", "walk_p2", "walk_p3", "walk_p4", "walk_p5", "walk_top"]);
    expect(byDefault?.metadata.valueIterationSweeps).toBeGreaterThan(0);
  });

  it("with allowNoOps, may start with an action expected to change nothing, for its chances", async () => {
    // Waiting on the ledge usually does nothing, but 30% of the time a safe path opens; stepping off is a coin flip.
    const wait = new ActionSpec({ name: "wait", preconditions: { at: "ledge" }, effects: { at: "ledge" } });
    const step = new ActionSpec({ name: "step", preconditions: { at: "ledge" }, effects: { at: "top" } });
    const climb = new ActionSpec({ name: "climb", preconditions: { at: "path" }, effects: { at: "top" } });
    const ledge = new StochasticTransitionModel({
      outcomes: { wait: [{ probability: 0.3, effects: { at: "path" } }], step: [{ probability: 0.5, effects: { at: "pit" } }] },
    });
    const atTop = new GoalSpec({ conditions: { at: "top" } });
    const options = budget({ transitionModel: ledge, deadEndPenalty: 1 });
    const hasty = await new MCTSStrategy({ ...options, allowNoOps: false }).plan({ at: "ledge" }, atTop, [wait, step, climb]);
    expect(hasty?.actionNames).toEqual(["step"]);
    const patient = await new MCTSStrategy({ ...options, allowNoOps: true }).plan({ at: "ledge" }, atTop, [wait, step, climb]);
    expect(patient?.actionNames[0]).toBe("wait");
    expect(replayPlan({ at: "ledge" }, patient?.actions ?? [], atTop).valid).toBe(true);
  });

  it("returns null for a goal that cannot be reached, without searching", async () => {
    const tracer = { completions: [] as number[], onSearchComplete: (n: number) => void tracer.completions.push(n) };
    const p = await new MCTSStrategy(budget({ anytimeFallback: true })).plan(
      { at: "start" },
      new GoalSpec({ conditions: { at: "moon" } }),
      chainActions,
      {
        tracer,
      },
    );
    expect(p).toBeNull();
    expect(tracer.completions).toEqual([0]);
  });

  it("returns null when search finds no path, or the best partial plan with anytimeFallback", async () => {
    // Each action undoes the other's fact: both conditions are reachable alone, never together.
    const setP = new ActionSpec({ name: "set_p", effects: { p: true, q: false } });
    const setQ = new ActionSpec({ name: "set_q", effects: { q: true, p: false } });
    const both = new GoalSpec({ conditions: { p: true, q: true } });
    const start = { p: false, q: false };
    expect(await new MCTSStrategy(budget({ iterations: 50 })).plan(start, both, [setP, setQ])).toBeNull();
    const partial = await new MCTSStrategy(budget({ iterations: 50, anytimeFallback: true })).plan(start, both, [setP, setQ]);
    expect(partial?.length).toBeGreaterThan(0);
    expect(partial?.metadata).toMatchObject({ partial: true, extraction: "partial" });
    expect(replayPlan(start, partial?.actions ?? []).valid).toBe(true);
  });

  it("stops at the wall-clock budget", async () => {
    // Each clock reading moves 1 ms: the 30 ms budget passes after a fixed number of iterations, on any machine.
    steppingClock(1);
    const strategy = new MCTSStrategy({ iterations: 1_000_000_000, wallClockMs: 30, seed: 1 });
    const p = await strategy.plan({ at: "start" }, atE, chainActions);
    const done = p?.metadata.iterations as number;
    expect(p?.metadata.stopReason).toBe("time");
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(30);
  });

  it("stops when the signal aborts, even mid-search", async () => {
    const controller = new AbortController();
    let samples = 0;
    // A stochastic model (no outcome list): every iteration samples. The abort comes at the 2,000th sample.
    const sampled = {
      stochastic: true,
      expected: (state: WorldState, action: ActionSpec) => action.getEffects(state),
      sample: (state: WorldState, action: ActionSpec) => {
        if (++samples === 2_000) controller.abort();
        return action.getEffects(state);
      },
    };
    const strategy = new MCTSStrategy({
      iterations: 1_000_000_000,
      wallClockMs: Number.POSITIVE_INFINITY,
      seed: 1,
      transitionModel: sampled,
    });
    const p = await strategy.plan({ at: "start" }, atE, chainActions, { signal: controller.signal });
    expect(controller.signal.aborted).toBe(true);
    expect(p?.metadata.stopReason).toBe("signal");
    expect(p?.metadata.iterations).toBeGreaterThan(0);
    expect(p?.metadata.iterations).toBeLessThan(1_000_000_000);
  });

  it("returns an empty plan when the goal already holds", async () => {
    const p = await new MCTSStrategy(budget()).plan({ at: "e" }, atE, chainActions);
    expect(p?.isEmpty).toBe(true);
    expect(p?.totalCost).toBe(0);
  });

  it("keeps the search graph for the next call after advance(), with reuseTree", async () => {
    const strategy = new MCTSStrategy(budget({ reuseTree: true }));
    const first = await strategy.plan({ at: "start" }, atE, chainActions);
    expect(first?.metadata.reusedTree).toBe(false);
    expect(strategy.advance("to_a", { at: "a" })).toBe(true);
    const second = await strategy.plan({ at: "a" }, atE, chainActions);
    expect(second?.metadata.reusedTree).toBe(true);
    expect(second?.actionNames).toEqual(["to_b", "to_c", "to_d", "to_e"]);
    // An action the search never considered, or another goal, starts afresh.
    expect(strategy.advance("teleport", { at: "b" })).toBe(false);
    expect((await strategy.plan({ at: "b" }, atE, chainActions))?.metadata.reusedTree).toBe(false);
    expect(strategy.advance("to_c", { at: "c" })).toBe(true);
    expect((await strategy.plan({ at: "c" }, new GoalSpec({ conditions: { at: "d" } }), chainActions))?.metadata.reusedTree).toBe(false);
    const fresh = new MCTSStrategy(budget());
    await fresh.plan({ at: "start" }, atE, chainActions);
    expect(fresh.advance("to_a", { at: "a" })).toBe(false);
  });

  it("reuses the last graph without advance() when the next search starts inside it", async () => {
    const strategy = new MCTSStrategy(budget({ reuseTree: true }));
    await strategy.plan({ at: "start" }, atE, chainActions);
    expect((await strategy.plan({ at: "b" }, atE, chainActions))?.metadata.reusedTree).toBe(true);
    // Other actions (here: another order) mean another search.
    await strategy.plan({ at: "start" }, atE, chainActions);
    expect((await strategy.plan({ at: "lost" }, atE, [...chainActions].reverse()))?.metadata.reusedTree).toBe(false);
  });

  it("skips blacklisted actions and never falls back to them (the graph lifts a blacklist)", async () => {
    const shortcut = new ActionSpec({ name: "shortcut", preconditions: { at: "start" }, effects: { at: "e" }, cost: 3 });
    const actions = [...chainActions, shortcut];
    const p = await new MCTSStrategy(budget()).plan({ at: "start" }, atE, actions, { blacklisted: ["shortcut"] });
    expect(p?.actionNames).not.toContain("shortcut");
    const around = await new MCTSStrategy(budget()).plan({ at: "start" }, atE, actions, { blacklisted: ["to_c"] });
    expect(around?.actionNames).toEqual(["shortcut"]);
    const blocked = await new MCTSStrategy(budget()).planDetailed({ at: "start" }, atE, actions, { blacklisted: ["to_c", "shortcut"] });
    expect(blocked.plan).toBeNull();
    expect(blocked.status).toBe("no_plan");
    expect(blocked.explanation?.unreachableConditions).toEqual(['at = "e"']);
    const all = await new MCTSStrategy(budget()).plan({ at: "start" }, atE, actions);
    expect(replayPlan({ at: "start" }, all?.actions ?? [], atE).valid).toBe(true);
  });

  it("never uses a run-once action twice on a path", async () => {
    const once = new ActionSpec({ name: "gift", effects: { coins: { inc: 5 } }, canRerun: false });
    const work = new ActionSpec({ name: "work", effects: { coins: { inc: 1 } } });
    const rich = new GoalSpec({ conditions: { coins: { gte: 8 } } });
    const p = await new MCTSStrategy(budget({ iterations: 400 })).plan({ coins: 0 }, rich, [once, work]);
    expect(p?.actionNames.filter((n) => n === "gift").length).toBeLessThanOrEqual(1);
    expect(replayPlan({ coins: 0 }, p?.actions ?? [], rich).valid).toBe(true);
  });

  it("reports expansions to the tracer only when asked", async () => {
    const expanded: Array<number | null> = [];
    const tracer: PlanningTracer = { onSearchExpand: (e) => void expanded.push(e.parentId) };
    const p = await new MCTSStrategy(budget({ iterations: 40 })).plan({ at: "start" }, atE, chainActions, { tracer });
    expect(expanded).toEqual([]);
    await new MCTSStrategy(budget({ iterations: 40 })).plan({ at: "start" }, atE, chainActions, { tracer, recordExpansions: true });
    expect(expanded.length).toBe((p?.metadata.nodesGenerated as number) - 1);
    expect(expanded[0]).toBe(0);
  });

  it("rejects bad options with the field named", () => {
    for (const [options, field] of [
      [{ iterations: 0 }, "iterations"],
      [{ wallClockMs: 0 }, "wallClockMs"],
      [{ discount: 0 }, "discount"],
      [{ c: 0 }, "c"],
      [{ rolloutDepth: 1.5 }, "rolloutDepth"],
      [{ treeReuseDecay: 2 }, "treeReuseDecay"],
      [{ iterations: Number.POSITIVE_INFINITY, wallClockMs: Number.POSITIVE_INFINITY }, "iterations"],
      [{ backup: "max" }, "backup"],
      [{ deadEndPenalty: -1 }, "deadEndPenalty"],
    ] as const) {
      try {
        new MCTSStrategy(options as MCTSStrategyOptions);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(LangGoapError);
        expect((error as LangGoapError).message).toContain(field);
      }
    }
  });
});
