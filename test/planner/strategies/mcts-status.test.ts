/**
 * MCTS never claims a proof it does not have: `no_plan` only when relaxed
 * reachability or a fully explored graph proves it, `budget_exhausted` with
 * figures when iterations or time ran out first.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { createGridworld, frozenLake4x4 } from "../../../examples/lib/gridworld.js";
import { ActionSpec, GoalSpec } from "../../../src/core/index.js";
import { MCTSStrategy, planWithStatus, StochasticTransitionModel } from "../../../src/planner/index.js";

/** A clock that moves `stepMs` at every reading, whatever the machine's speed. */
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

const chain = [
  new ActionSpec({ name: "a", preconditions: { s: 0 }, effects: { s: 1 } }),
  new ActionSpec({ name: "b", preconditions: { s: 1 }, effects: { s: 2 } }),
  new ActionSpec({ name: "c", preconditions: { s: 2 }, effects: { s: 3 } }),
];

describe("MCTS status", () => {
  it("says budget_exhausted, with its figures, when its iterations run out on a solvable counter (fin needs n >= 20,000)", async () => {
    const actions = [
      new ActionSpec({ name: "inc", effects: { n: { inc: 1 } } }),
      new ActionSpec({ name: "finish", preconditions: { n: { gte: 20_000 } }, effects: { fin: true } }),
    ];
    const start = { n: 0, fin: false };
    const goal = new GoalSpec({ conditions: { fin: true } });
    // A* plans it: 20,000 incs then finish.
    const mcts = new MCTSStrategy({ iterations: 200, wallClockMs: Number.POSITIVE_INFINITY, seed: 1 });
    const result = await mcts.planDetailed(start, goal, actions);
    expect(result.status).toBe("budget_exhausted");
    expect(result.plan).toBeNull();
    expect(result.explanation).toBeUndefined();
    expect(result.stats?.nodesExpanded).toBe(200);
    expect(result.budget?.limit).toBe("expansions");
    expect(result.budget?.maxExpansions).toBe(200);
    expect(result.budget?.nodesExpanded).toBe(200);
    expect(result.budget?.nodesStored).toBeGreaterThan(1);
    expect(result.budget?.message).toContain("iteration budget (iterations 200) after 200 iterations");
    // Callers that go through the status wrapper (the graph's planner node) see the same.
    expect((await planWithStatus(mcts, start, goal, actions)).status).toBe("budget_exhausted");
    expect(await mcts.plan(start, goal, actions)).toBeNull();
  });

  it("says no_plan when the whole reachable graph was explored without meeting the goal", async () => {
    // Each action rules the other out: relaxed reachability sees both facts reachable, the three states do not.
    const actions = [
      new ActionSpec({ name: "take_a", preconditions: { b: false }, effects: { a: true } }),
      new ActionSpec({ name: "take_b", preconditions: { a: false }, effects: { b: true } }),
    ];
    const start = { a: false, b: false };
    const goal = new GoalSpec({ conditions: { a: true, b: true } });
    const result = await new MCTSStrategy({ iterations: 200, wallClockMs: Number.POSITIVE_INFINITY }).planDetailed(start, goal, actions);
    expect(result.status).toBe("no_plan");
    expect(result.budget).toBeUndefined();
    expect(result.stats?.nodesGenerated).toBe(3);
  });

  it("says no_plan with an explanation when relaxed reachability rules the goal out", async () => {
    const actions = [new ActionSpec({ name: "noop", effects: { x: true } })];
    const result = await new MCTSStrategy().planDetailed({ x: false, y: false }, new GoalSpec({ conditions: { y: true } }), actions);
    expect(result.status).toBe("no_plan");
    expect(result.explanation?.unreachableConditions.length).toBeGreaterThan(0);
  });

  it("says aborted when its signal fired", async () => {
    const actions = [
      new ActionSpec({ name: "inc", effects: { n: { inc: 1 } } }),
      new ActionSpec({ name: "finish", preconditions: { n: { gte: 20_000 } }, effects: { fin: true } }),
    ];
    const controller = new AbortController();
    controller.abort(new Error("stop"));
    const result = await new MCTSStrategy().planDetailed({ n: 0, fin: false }, new GoalSpec({ conditions: { fin: true } }), actions, {
      signal: controller.signal,
    });
    expect(result.status).toBe("aborted");
    expect(result.abortReason).toBe("Error: stop");
  });

  it("marks a plan whose iterations all ran: stopReason iterations", async () => {
    const result = await new MCTSStrategy({ iterations: 50, wallClockMs: Number.POSITIVE_INFINITY, seed: 1 }).planDetailed(
      { s: 0 },
      new GoalSpec({ conditions: { s: 3 } }),
      chain,
    );
    expect(result.status).toBe("found");
    expect(result.plan?.actionNames).toEqual(["a", "b", "c"]);
    expect(result.plan?.metadata.stopReason).toBe("iterations");
  });

  it("marks a plan found after wallClockMs cut its iterations: stopReason time", async () => {
    // Each clock reading moves 40 ms: the 100 ms budget passes before the 1,000 iterations do.
    steppingClock(40);
    const result = await new MCTSStrategy({ iterations: 1000, wallClockMs: 100, seed: 1 }).planDetailed(
      { s: 0 },
      new GoalSpec({ conditions: { s: 3 } }),
      chain,
    );
    expect(result.status).toBe("found");
    expect(result.plan?.actionNames).toEqual(["a", "b", "c"]);
    expect(result.plan?.metadata.iterations).toBeLessThan(1000);
    expect(result.plan?.metadata.stopReason).toBe("time");
  });

  it("marks exact mode's exploration cut by wallClockMs as a time stop, not an iteration stop", async () => {
    const world = createGridworld(frozenLake4x4(), { slip: 0.2 });
    // One iteration, then the closure of the graph reads the clock once per action tried: 1 ms a reading, 15 ms allowed.
    steppingClock(1);
    const cut = await new MCTSStrategy({ transitionModel: world.model, iterations: 1, wallClockMs: 15, seed: 1 }).planDetailed(
      world.start,
      world.goal,
      world.actions,
    );
    expect(cut.plan?.metadata.exploredEveryState).toBe(false);
    expect(cut.plan?.metadata.stopReason).toBe("time");
    vi.restoreAllMocks();
    // Without a clock limit the same search explores every state and says its iterations ended it.
    const whole = await new MCTSStrategy({
      transitionModel: world.model,
      iterations: 1,
      wallClockMs: Number.POSITIVE_INFINITY,
      seed: 1,
    }).planDetailed(world.start, world.goal, world.actions);
    expect(whole.plan?.metadata.exploredEveryState).toBe(true);
    expect(whole.plan?.metadata.stopReason).toBe("iterations");
  });

  it("reports a time limit when wallClockMs cut exact mode's exploration of an unsolved search", async () => {
    // Two counters that must both reach 100 through increments that fail half the time: one iteration and the
    // plan completion (5,000 states) find no path, and the clock cuts the closure.
    const inc = (key: string) => new ActionSpec({ name: `inc_${key}`, effects: { [key]: { inc: 1 } } });
    const finish = new ActionSpec({ name: "finish", preconditions: { x: { gte: 100 }, y: { gte: 100 } }, effects: { done: true } });
    const model = new StochasticTransitionModel({
      outcomes: { inc_x: [{ probability: 0.5, effects: {} }], inc_y: [{ probability: 0.5, effects: {} }] },
    });
    steppingClock(1);
    const result = await new MCTSStrategy({ transitionModel: model, iterations: 1, wallClockMs: 15, seed: 1 }).planDetailed(
      { x: 0, y: 0, done: false },
      new GoalSpec({ conditions: { done: true } }),
      [inc("x"), inc("y"), finish],
    );
    expect(result.status).toBe("budget_exhausted");
    expect(result.budget?.limit).toBe("time");
    expect(result.budget?.message).toContain("its time budget (wallClockMs 15)");
  });
});
