/**
 * A goal whose only preference is a soft goal is still optimised: the
 * graph, pipelinePlan and the router all send it to the refinement
 * pipeline, which prefers plans that achieve soft goals (preferences rank
 * above cost).
 */
import { describe, expect, it } from "vitest";
import { ActionSpec, GoalSpec } from "../../src/core/index.js";
import { GoapGraph, successfulActionNames } from "../../src/graph/index.js";
import { pipelinePlan } from "../../src/optimize/index.js";
import { extractFeatures, RuleBasedClassifier } from "../../src/planner/index.js";
import { quietLogger } from "../graph/support.js";

const actions = [
  new ActionSpec({ name: "highway", effects: { arrived: true }, cost: 1 }),
  new ActionSpec({ name: "coast", effects: { arrived: true, scenic: true }, cost: 3 }),
];
const scenic = new GoalSpec({ conditions: { arrived: true }, softGoals: [{ conditions: { scenic: true }, weight: 5, name: "scenic" }] });

describe("soft goals on their own", () => {
  it("make the goal need optimisation, and the router choose the pipeline", () => {
    expect(scenic.needsOptimization).toBe(true);
    const features = extractFeatures({}, scenic, actions);
    expect(features.hasSoftGoals).toBe(true);
    expect(new RuleBasedClassifier().classify(features)).toBe("csp-pipeline");
  });

  it("pick the plan that achieves them in pipelinePlan, as a vacuous constraint already did", async () => {
    const found = await pipelinePlan({}, scenic, actions);
    expect(found?.actionNames).toEqual(["coast"]);
    const withConstraint = await pipelinePlan(
      {},
      new GoalSpec({ ...scenic.toOptions(), constraints: [{ key: "usd", max: 1e9 }] }),
      actions,
    );
    expect(withConstraint?.actionNames).toEqual(["coast"]);
    // Preferences rank above cost (see evaluate.ts); with no plan meeting the soft goal, the cheapest wins.
    const unreachable = new GoalSpec({ conditions: { arrived: true }, softGoals: [{ conditions: { flying: true }, weight: 1 }] });
    expect((await pipelinePlan({}, unreachable, actions))?.actionNames).toEqual(["highway"]);
  });

  it("pick the scenic route in a GoapGraph run", async () => {
    const result = await new GoapGraph(actions, { logger: quietLogger() }).invoke(scenic, {});
    expect(result.status).toBe("goal_achieved");
    expect(successfulActionNames(result)).toEqual(["coast"]);
  });
});
