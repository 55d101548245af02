import { createVillageActions, villageStartState } from "../../examples/lib/village.js";
import { ActionSpec, type WorldState } from "../../src/core/index.js";
import { type CSPMetadata, type Plan, plan } from "../../src/planner/index.js";

/** The village plan for "not hungry": go_to_tree, chop_wood, go_to_campfire, cook_food, eat_food (cost 8). */
export function villagePlan(): Plan {
  const found = plan(villageStartState(), { is_hungry: false }, createVillageActions());
  if (!found) throw new Error("village plan not found");
  return found;
}

/** The village plan with a hand-written schedule: tree and campfire walks in parallel. */
export function scheduledVillagePlan(csp: Partial<CSPMetadata> = {}): Plan {
  const base = villagePlan();
  const durations = [1000, 2000, 1500, 3000, 1000];
  const starts = [0, 1000, 0, 3000, 6000];
  return base.with({
    metadata: {
      csp: {
        status: "optimal",
        solver: "none",
        solveTimeMs: 0,
        resourceUsage: [],
        makespanMs: 7000,
        schedule: base.actionNames.map((actionName, index) => ({
          index,
          actionName,
          startMs: starts[index] as number,
          durationMs: durations[index] as number,
          endMs: (starts[index] as number) + (durations[index] as number),
        })),
        ...csp,
      },
    },
  });
}

/** A plan over independent actions (no causal links between steps). */
export function independentPlan(): Plan {
  const actions = ["wash", "dry", "fold"].map((name) => new ActionSpec({ name, effects: { [`${name}ed`]: true } }));
  const start: WorldState = {};
  const found = plan(start, { washed: true, dryed: true, folded: true }, actions);
  if (!found) throw new Error("independent plan not found");
  return found;
}
