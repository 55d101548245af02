import { afterEach, describe, expect, it, vi } from "vitest";
import { addTwoProblem } from "../../bench/problems.js";
import { ActionSpec } from "../../src/core/index.js";
import { AGENT_PLAN_BUDGET } from "../../src/planner/index.js";
import { formatStupTable, GoapAgent, StupSelector } from "../../src/utility/index.js";
import { stillClock } from "../support/still-clock.js";

const shop = new ActionSpec({ name: "shop", cost: 2, effects: { fed: true } });

afterEach(() => {
  vi.restoreAllMocks();
});

describe("game-loop planners are bounded", () => {
  it("STUP marks a goal whose search ran out of budget budget_exhausted, not no_plan", () => {
    // Time stands still: the 100 ms frame budget cannot cut the easy searches short on a busy machine.
    stillClock();
    const { actions } = addTwoProblem();
    const stup = new StupSelector({
      actions: [...actions, shop],
      seed: 1,
      goals: [
        { name: "finish", goal: { done: true }, score: 5 },
        { name: "eat", goal: { fed: true }, score: 1 },
        { name: "fly", goal: { flying: true }, score: 1 },
      ],
    });
    const { name, table } = stup.select({ n: 0, done: false, fed: false });
    expect(name).toBe("eat");
    expect(table.map((r) => [r.name, r.status, r.planStatus])).toEqual([
      ["finish", "budget_exhausted", "budget_exhausted"],
      ["eat", "chosen", "found"],
      ["fly", "no_plan", "no_plan"],
    ]);
    expect(formatStupTable(table).split("\n")[1]).toMatch(/^finish .* budget_exhausted$/);
  });

  it("STUP's planner budgets default to a frame's worth and can be raised", () => {
    const { actions } = addTwoProblem();
    const goals = [{ name: "finish", goal: { done: true }, score: 5 }];
    const evaluateWith = (planOptions?: object) => new StupSelector({ actions, goals, ...(planOptions ? { planOptions } : {}) });
    stillClock();
    // The default stops at 100,000 states; a smaller explicit budget stops sooner, and still says why.
    expect(evaluateWith().evaluate({ n: 0 }).table[0]?.status).toBe("budget_exhausted");
    expect(evaluateWith({ maxNodes: 10 }).evaluate({ n: 0 }).table[0]?.status).toBe("budget_exhausted");
    expect(AGENT_PLAN_BUDGET).toEqual({ maxNodes: 100_000, timeBudgetMs: 100 });
  });

  it("GoapAgent fails the plan with status budget_exhausted and the figures, under its default node budget", () => {
    const { actions, start } = addTwoProblem();
    // The time budget is lifted so that the default node budget (which does not depend on the machine's speed) stops it.
    const agent = new GoapAgent({ actions, state: start, goal: { done: true }, planOptions: { timeBudgetMs: Number.POSITIVE_INFINITY } });
    const failures: { status: string; reason: string }[] = [];
    agent.on("planFailed", (e) => failures.push({ status: e.status, reason: e.reason }));
    agent.tick(0.1);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.status).toBe("budget_exhausted");
    expect(failures[0]?.reason).toMatch(
      /^planning stopped: budget_exhausted \(search stopped by its node budget \(maxNodes 100,000\) after 100,000 states held/,
    );
    expect(agent.status).toBe("blocked");
  });
});
