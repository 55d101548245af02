import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { Plan } from "../../src/planner/index.js";
import { renderAscii } from "../../src/viz/index.js";
import { scheduledVillagePlan, villagePlan } from "./fixtures.js";

describe("renderAscii", () => {
  it("draws each step with its cost and causal dependencies", () => {
    expect(renderAscii(villagePlan())).toBe(
      [
        "Plan (5 steps, cost=8)",
        "├── [0] go_to_tree  cost=1",
        "├── [1] chop_wood  cost=2  (after: [0])",
        "├── [2] go_to_campfire  cost=1",
        "├── [3] cook_food  cost=3  (after: [1, 2])",
        "└── [4] eat_food  cost=1  (after: [3])",
        "",
      ].join("\n"),
    );
  });

  it("omits per-step costs when every step costs 1 and says 'step' for one step", () => {
    const walk = new ActionSpec({ name: "walk", effects: { there: true } });
    const p = new Plan({ actions: [walk], expectedStates: [{ there: true }], totalCost: 1 });
    expect(renderAscii(p)).toBe("Plan (1 step, cost=1)\n└── [0] walk\n");
  });

  it("groups steps that start together in a schedule and shows the makespan", () => {
    expect(renderAscii(scheduledVillagePlan())).toBe(
      [
        "Plan (5 steps, cost=8, makespan=7s)",
        "├── t=0 (parallel):",
        "│     • [0] go_to_tree  cost=1  duration=1s",
        "│     • [2] go_to_campfire  cost=1  duration=1.5s",
        "├── t=1s  [1] chop_wood  cost=2  duration=2s  (after: [0])",
        "├── t=3s  [3] cook_food  cost=3  duration=3s  (after: [1, 2])",
        "└── t=6s  [4] eat_food  cost=1  duration=1s  (after: [3])",
        "",
      ].join("\n"),
    );
  });

  it("ignores the schedule with showSchedule: false", () => {
    expect(renderAscii(scheduledVillagePlan(), { showSchedule: false })).toBe(renderAscii(villagePlan()));
  });

  it("reports resources, violated constraints and the infeasibility explanation", () => {
    const text = renderAscii(
      scheduledVillagePlan({
        status: "infeasible",
        resourceUsage: [{ key: "usd", total: 12, max: 10, satisfied: false, level: "hard" }],
        explanation: {
          conflictingConstraints: [{ key: "usd", max: 10, level: "hard", weight: 1 }],
          resourceShortfalls: [{ constraint: "usd", key: "usd", total: 12, bound: "max", limit: 10, amount: 2 }],
          suggestion: "raise the usd budget to 12",
          plansConsidered: 3,
        },
      }),
    );
    expect(text).toContain("Plan (5 steps, cost=8, makespan=7s)  [INFEASIBLE]\n");
    expect(text).toContain("Resources:\n  usd: 12 / 10  [VIOLATED]\n");
    expect(text).toContain(
      [
        "Infeasibility Explanation:",
        "  conflicting constraints:",
        "    - usd <= 10 (hard)",
        "  resource shortfalls:",
        "    - usd: 12 against max 10, off by 2",
        "  plans considered: 3",
        "  Suggestion: raise the usd budget to 12",
        "",
      ].join("\n"),
    );
    expect(
      renderAscii(scheduledVillagePlan({ resourceUsage: [{ key: "usd", total: 3, max: 10, satisfied: true, level: "hard" }] }), {
        showResources: false,
      }),
    ).not.toContain("Resources:");
  });

  it("sums declared resources when the plan was not refined", () => {
    const buy = new ActionSpec({ name: "buy", effects: { owned: true }, resources: { usd: 2.5 } });
    const ship = new ActionSpec({
      name: "ship",
      preconditions: { owned: true },
      effects: { shipped: true },
      resources: { usd: 1, hours: 48 },
    });
    const p = new Plan({ actions: [buy, ship], expectedStates: [{ owned: true }, { owned: true, shipped: true }], totalCost: 2 });
    expect(renderAscii(p)).toContain("Resources:\n  hours: 48\n  usd: 3.5\n");
  });

  it("says when the plan is empty", () => {
    expect(renderAscii(Plan.empty({ done: true }))).toBe("Plan: (empty — goal already satisfied)\n");
  });
});
