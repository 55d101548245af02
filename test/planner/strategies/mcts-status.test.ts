/**
 * MCTS never claims a proof it does not have: `no_plan` only when relaxed
 * reachability or a fully explored graph proves it, `budget_exhausted` with
 * figures when iterations or time ran out first.
 */
import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../../src/core/index.js";
import { MCTSStrategy, planWithStatus } from "../../../src/planner/index.js";

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
});
