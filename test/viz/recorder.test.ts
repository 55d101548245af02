import { describe, expect, it } from "vitest";
import { type ActionSpec, GoalSpec } from "../../src/core/index.js";
import { ReportRecorder } from "../../src/viz/index.js";
import { villagePlan } from "./fixtures.js";

function clock(step = 1): () => number {
  let t = 100;
  return () => {
    t += step;
    return t;
  };
}

describe("ReportRecorder", () => {
  it("records planning rounds and attaches a replan reason reported after its plan", () => {
    const first = villagePlan();
    const second = villagePlan();
    const recorder = new ReportRecorder({ now: clock() });
    recorder.onPlanStart(new GoalSpec({ conditions: { is_hungry: false } }), {}, "astar");
    recorder.onPlanComplete(first, 2);
    recorder.onActionStart(first.actions[0] as ActionSpec);
    recorder.onActionComplete({ actionName: "go_to_tree", success: false, error: "tree fell", attempts: 2 });
    recorder.onPlanComplete(second, 3);
    recorder.onReplan("action go_to_tree failed", second);
    recorder.onGoalAchieved();
    expect(recorder.rounds.map((r) => [r.reason, r.plan, r.planningMs])).toEqual([
      [null, first, 2],
      ["action go_to_tree failed", second, 3],
    ]);
    expect(recorder.lastPlan).toBe(second);
    expect(recorder.events.map((e) => [e.atMs, e.hook, e.summary])).toEqual([
      [0, "onPlanStart", "planning for is_hungry = false with astar"],
      [1, "onPlanComplete", "[go_to_tree, chop_wood, go_to_campfire, cook_food, eat_food] cost 8 in 2ms"],
      [2, "onActionStart", "go_to_tree"],
      [3, "onActionComplete", "go_to_tree failed: tree fell after 2 attempts"],
      [4, "onPlanComplete", "[go_to_tree, chop_wood, go_to_campfire, cook_food, eat_food] cost 8 in 3ms"],
      [5, "onReplan", "action go_to_tree failed → [go_to_tree, chop_wood, go_to_campfire, cook_food, eat_food] cost 8"],
      [6, "onGoalAchieved", "goal achieved"],
    ]);
  });

  it("gives a replan reason reported before planning to the next round, and tells failed rounds from failed runs", () => {
    const recorder = new ReportRecorder({ now: clock() });
    recorder.onPlanStart({ is_hungry: false }, {}, "astar");
    recorder.onPlanComplete(villagePlan(), 1);
    recorder.onReplan("world changed", null);
    recorder.onPlanStart({ is_hungry: false }, {}, "astar");
    recorder.onPlanFailed("no_plan", 4);
    recorder.onPlanFailed("max replans reached", 0);
    expect(recorder.rounds).toHaveLength(2);
    expect(recorder.rounds[1]).toEqual({ plan: null, reason: "world changed", planningMs: 4, failure: "no_plan" });
    expect(recorder.events.slice(-2).map((e) => e.summary)).toEqual(["no_plan (after 4ms)", "run ended: max replans reached"]);
    expect(recorder.lastPlan).not.toBeNull();
  });

  it("counts search expansions without keeping them unless asked, and caps events", () => {
    const quiet = new ReportRecorder({ now: clock() });
    const loud = new ReportRecorder({ now: clock(), recordSearch: true, maxEvents: 2 });
    for (const recorder of [quiet, loud]) {
      for (let i = 0; i < 3; i++) recorder.onSearchExpand({ nodeId: i, parentId: null, actionName: null, state: {}, g: i, h: 1, f: i + 1 });
    }
    expect(quiet.searchExpansions).toBe(3);
    expect(quiet.events).toEqual([]);
    expect(loud.events.map((e) => e.summary)).toEqual(["#0 start g=0 h=1", "#1 start g=1 h=1"]);
    expect(loud.droppedEvents).toBe(1);
    expect(loud.toReport({ plan: null }).droppedEvents).toBe(1);
  });
});
