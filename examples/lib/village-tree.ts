/**
 * The village NPC as a behaviour tree: a utility selector at the root
 * chooses between fleeing (a plain branch of condition and action leaves)
 * and three plan-executing branches (eat, rest, gather wood), each a
 * PlanNode whose planned actions are played by leaf nodes. 20 nodes.
 * Shared by examples/village-tree.ts, its test and the agents benchmark.
 */
import {
  ActionNode,
  BehaviourTree,
  ConditionNode,
  type GoapAgent,
  type PlanCache,
  PlanNode,
  Sequence,
  Timeout,
  UtilitySelector,
} from "../../src/utility/index.js";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "./village.js";
import {
  followAgent,
  type Place,
  runVillageAgentDay,
  senseVillage,
  VILLAGE_PLAN_OPTIONS,
  VILLAGE_TICK,
  type VillageDay,
  VillageDayClock,
  type VillageWorld,
  WORK_SECONDS,
  walk,
} from "./village-day.js";

/** The root and the three plan branches, for inspection. */
export interface VillagerTree {
  readonly tree: BehaviourTree;
  readonly root: UtilitySelector;
  readonly plans: { readonly eat: PlanNode; readonly rest: PlanNode; readonly gather: PlanNode };
}

export interface VillagerTreeOptions {
  readonly planCache?: PlanCache;
  /** Receives each plan branch's agent when it is made (to follow its events). */
  readonly onAgent?: (agent: GoapAgent) => void;
  readonly blackboard?: ReturnType<typeof villageStartState>;
}

/** A leaf that walks toward a place, succeeding within reach. */
export const walkLeaf = (world: VillageWorld, place: Place) =>
  new ActionNode({ name: `walk to ${place}`, run: (ctx) => (walk(world, place, ctx.deltaSeconds) ? "success" : "running") });

/** A leaf that works in place for the action's seconds. */
export const workLeaf = (name: keyof typeof WORK_SECONDS, exit?: (reason: string) => void) =>
  new ActionNode({
    name,
    run: (_ctx, elapsed) => (elapsed.seconds >= WORK_SECONDS[name] - 1e-9 ? "success" : "running"),
    ...(exit ? { exit } : {}),
  });

/** Builds one villager's tree over its world (nodes keep per-NPC state: one tree per villager). */
export function buildVillagerTree(world: VillageWorld, options: VillagerTreeOptions = {}): VillagerTree {
  const actions = createVillageActions();
  const only = (...names: string[]) => actions.filter((a) => names.includes(a.name));
  const shared = {
    replanInterval: 0.5,
    planOptions: VILLAGE_PLAN_OPTIONS,
    ...(options.planCache ? { planCache: options.planCache } : {}),
    ...(options.onAgent ? { onAgent: options.onAgent } : {}),
  };
  const eat = new PlanNode({
    name: "eat",
    goal: VILLAGE_GOALS.notHungry,
    actions: only("go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"),
    leaves: {
      go_to_tree: walkLeaf(world, "tree"),
      // A chop that drags on (a blunt axe) fails, and the plan branch replans.
      chop_wood: new Timeout({ child: workLeaf("chop_wood"), limit: { seconds: 3 } }),
      go_to_campfire: walkLeaf(world, "campfire"),
      cook_food: workLeaf("cook_food"),
      eat_food: workLeaf("eat_food"),
    },
    ...shared,
  });
  const rest = new PlanNode({
    name: "rest",
    goal: VILLAGE_GOALS.rested,
    actions: only("go_to_shelter", "sleep"),
    leaves: {
      go_to_shelter: walkLeaf(world, "shelter"),
      sleep: workLeaf("sleep", (reason) => {
        if (reason === "completed") world.slept = true;
      }),
    },
    ...shared,
  });
  const gather = new PlanNode({
    name: "gather",
    goal: VILLAGE_GOALS.gatherWood,
    actions: only("go_to_tree", "chop_wood"),
    leaves: { go_to_tree: walkLeaf(world, "tree"), chop_wood: new Timeout({ child: workLeaf("chop_wood"), limit: { seconds: 3 } }) },
    ...shared,
  });
  // Not planned: while a wolf is near, run to the shelter (giving up after 5 s) and hide there.
  const flee = new Sequence({
    name: "flee",
    reactive: true,
    children: [
      new ConditionNode({ name: "wolf near?", conditions: { threat: { gte: 0.5 } } }),
      new Timeout({ child: walkLeaf(world, "shelter"), limit: { seconds: 5 } }),
      new ActionNode({ name: "hide", run: () => "running" }),
    ],
  });
  const step = { type: "step", xShift: 0.5 } as const;
  const root = new UtilitySelector({
    name: "villager",
    momentum: 0.25,
    children: [
      { node: flee, utility: { name: "flee", weight: 4, considerations: [{ inputKey: "threat", defaultValue: 0, curve: step }] } },
      // Hungry beats tired beats gathering wood: the guide's _pick_next_goal, as utility weights.
      { node: eat, utility: { name: "eat", weight: 3, considerations: [{ inputKey: "is_hungry", curve: step }] } },
      { node: rest, utility: { name: "rest", weight: 2, considerations: [{ inputKey: "is_tired", curve: step }] } },
      { node: gather, utility: { name: "gather", weight: 1, considerations: [{ name: "always", input: () => 1, curve: {} }] } },
    ],
  });
  const tree = new BehaviourTree({ name: "villager", root, blackboard: options.blackboard ?? villageStartState() });
  return { tree, root, plans: { eat, rest, gather } };
}

/** The shared day (see village-day.ts) lived by the tree instead of one GoapAgent. */
export function runVillageTreeDay(print = false): VillageDay & { readonly villager: VillagerTree } {
  const clock = new VillageDayClock(print);
  const villager = buildVillagerTree(clock.world, {
    onAgent: (agent) => {
      followAgent(agent, clock.note);
      agent.on("actionStarted", ({ action }) => clock.actionStarted(action.name));
    },
  });
  clock.run(() => {
    villager.tree.update(senseVillage(clock.world));
    villager.tree.tick(VILLAGE_TICK);
  });
  return { timeline: clock.timeline, events: clock.events, world: clock.world, facts: { ...villager.tree.blackboard }, villager };
}

export { runVillageAgentDay };
