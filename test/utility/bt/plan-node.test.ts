import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createVillageActions, VILLAGE_GOALS, villageStartState } from "../../../examples/lib/village.js";
import type { LangGoapError } from "../../../src/core/index.js";
import {
  ActionNode,
  BehaviourTree,
  type BtNode,
  type BtStatus,
  PlanNode,
  type PlanNodeOptions,
  StupSelector,
  UtilitySelector,
} from "../../../src/utility/index.js";
import { stillClock } from "../../support/still-clock.js";
import { always } from "./scripted.js";

// Agents plan within a frame's time budget (100 ms): time stands still here, so a busy machine cannot end a search
// on it. The tests are about plans, ticks and events, not time.
beforeEach(() => {
  stillClock();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const ACTIONS = ["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food", "go_to_shelter", "sleep"];
const HUNGRY_PLAN = ["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"];

/** One leaf per village action; `runs[name]` scripts a leaf's statuses over its ticks (default: success at once). */
function leaves(log: string[], runs: Record<string, BtStatus[]> = {}): Record<string, BtNode> {
  return Object.fromEntries(
    ACTIONS.map((name) => {
      let i = 0;
      const script = runs[name] ?? ["success"];
      const leaf = new ActionNode({
        name,
        run: () => {
          const status = script[Math.min(i++, script.length - 1)] as BtStatus;
          log.push(`${name} ${status}`);
          return status;
        },
        exit: (reason) => {
          if (reason === "interrupted") log.push(`${name} interrupted`);
        },
      });
      return [name, leaf];
    }),
  );
}

function villager(log: string[], extra: Partial<PlanNodeOptions> = {}, runs: Record<string, BtStatus[]> = {}) {
  const node = new PlanNode({
    name: "eat",
    actions: createVillageActions(),
    goal: VILLAGE_GOALS.notHungry,
    leaves: leaves(log, runs),
    ...extra,
  });
  const tree = new BehaviourTree({ root: node, blackboard: villageStartState() });
  return { node, tree };
}

function tickUntilDone(tree: BehaviourTree, max = 50): BtStatus[] {
  const seen: BtStatus[] = [];
  for (let i = 0; i < max; i++) {
    const status = tree.tick(0.1);
    seen.push(status);
    if (status !== "running") break;
  }
  return seen;
}

describe("PlanNode: a plan carried out by leaves", () => {
  it("plans from the blackboard and plays each planned action by its leaf, one after another", () => {
    const log: string[] = [];
    const { node, tree } = villager(log);
    expect(tickUntilDone(tree)).toEqual(["running", "running", "running", "running", "success"]);
    expect(log).toEqual(HUNGRY_PLAN.map((a) => `${a} success`));
    // The agent's world state is the tree's blackboard, the same object.
    expect(node.agent?.state).toBe(tree.blackboard);
    expect(tree.blackboard).toMatchObject({ is_hungry: false, near_campfire: true, has_wood: false });
    // An achieved goal that still holds succeeds at once on the next activation.
    expect(tree.tick(0.1)).toBe("success");
    expect(log).toHaveLength(5);
  });

  it("replans when a leaf fails, and finishes with the new plan", () => {
    const log: string[] = [];
    const { node, tree } = villager(log, {}, { chop_wood: ["running", "failure", "success"] });
    const plans: string[] = [];
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(tree.tick(0.1));
      const names = node.plan?.actionNames.join(",");
      if (names && names !== plans.at(-1)) plans.push(names);
      if (statuses.at(-1) !== "running") break;
    }
    expect(statuses.at(-1)).toBe("success");
    expect(statuses.slice(0, -1).every((s) => s === "running")).toBe(true);
    // go_to_tree's effect (near_tree) stays: the replan starts at chop_wood.
    expect(log).toEqual([
      "go_to_tree success",
      "chop_wood running",
      "chop_wood failure",
      "chop_wood success",
      "go_to_campfire success",
      "cook_food success",
      "eat_food success",
    ]);
    expect(plans).toEqual([HUNGRY_PLAN.join(","), "chop_wood,go_to_campfire,cook_food,eat_food"]);
    expect(node.replans).toBe(1);
  });

  it("gives up (failure) after maxReplans replans when a leaf keeps failing, and says why", () => {
    const log: string[] = [];
    const { node, tree } = villager(log, { maxReplans: 2 }, { chop_wood: ["failure"] });
    const statuses = tickUntilDone(tree);
    expect(statuses.at(-1)).toBe("failure");
    expect(log.filter((l) => l === "chop_wood failure")).toHaveLength(3);
    expect(node.lastFailure).toMatch(/^gave up after 3 replans \(maxReplans 2\); last: "chop_wood" failed: execute reported failure/);
    expect(node.agent?.goal).toBeNull();
  });

  it("replans when the world deviates: the running step's precondition breaks mid-run", () => {
    const log: string[] = [];
    const { node, tree } = villager(log, {}, { chop_wood: ["running"] });
    tree.tick(0.1); // go_to_tree
    tree.tick(0.1); // chop_wood starts and runs
    tree.update({ near_tree: false }); // the tree is carried away
    expect(tree.tick(0.1)).toBe("running");
    expect(log).toEqual(["go_to_tree success", "chop_wood running", "chop_wood interrupted", "go_to_tree success"]);
    expect(node.replans).toBe(1);
    expect(node.plan?.actionNames).toEqual(HUNGRY_PLAN);
  });

  it("succeeds early when the world already satisfies the goal, interrupting the running leaf", () => {
    const log: string[] = [];
    const { tree } = villager(log, {}, { chop_wood: ["running"] });
    tree.tick(0.1);
    tree.tick(0.1);
    tree.update({ is_hungry: false }); // someone fed the villager
    expect(tree.tick(0.1)).toBe("success");
    expect(log.at(-1)).toBe("chop_wood interrupted");
  });

  it("fails at once when no plan exists, naming why", () => {
    const log: string[] = [];
    const node = new PlanNode({ actions: createVillageActions(), goal: VILLAGE_GOALS.notHungry, leaves: leaves(log) });
    const tree = new BehaviourTree({ root: node, blackboard: { ...villageStartState(), has_axe: false } });
    expect(tree.tick(0.1)).toBe("failure");
    expect(node.lastFailure).toMatch(/no plan reaches/);
    expect(log).toEqual([]);
  });

  it("aborted by its parent, it interrupts the running leaf and plans afresh on its next activation", () => {
    const log: string[] = [];
    const plan = new PlanNode({
      name: "eat",
      actions: createVillageActions(),
      goal: VILLAGE_GOALS.notHungry,
      leaves: leaves(log, { chop_wood: ["running", "running", "success"] }),
    });
    const root = new UtilitySelector({
      children: [
        { node: plan, utility: { name: "eat", considerations: [{ inputKey: "hunger", curve: {} }] } },
        { node: always("flee", "running", log), utility: { name: "flee", considerations: [{ inputKey: "threat", curve: {} }] } },
      ],
    });
    const tree = new BehaviourTree({ root, blackboard: { ...villageStartState(), hunger: 0.8, threat: 0 } });
    tree.tick(0.1);
    tree.tick(0.1);
    tree.update({ threat: 0.9 });
    tree.tick(0.1);
    tree.update({ threat: 0 });
    tree.tick(0.1);
    expect(log).toEqual([
      "go_to_tree success",
      "chop_wood running",
      "chop_wood interrupted",
      "flee enter",
      "flee running",
      "flee exit interrupted",
      "chop_wood running", // near_tree still holds: the new plan starts at chop_wood
    ]);
    expect(plan.plan?.actionNames).toEqual(["chop_wood", "go_to_campfire", "cook_food", "eat_food"]);
  });

  it("refuses bad options with codes: both or neither goal and selector, leaves of unknown actions, a negative maxReplans", () => {
    const actions = createVillageActions();
    const code = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return `${(error as LangGoapError).code}: ${(error as Error).message}`;
      }
      return "no error";
    };
    expect(code(() => new PlanNode({ actions }))).toMatch(/^INVALID_OPTION: plan node "plan": give exactly one of goal and selector/);
    expect(code(() => new PlanNode({ actions, goal: {}, leaves: { fly: always("fly", "success") } }))).toMatch(/^UNKNOWN_ACTION: .*"fly"/);
    expect(code(() => new PlanNode({ actions, goal: {}, maxReplans: -1 }))).toMatch(/^INVALID_OPTION: .*maxReplans/);
  });

  it("a plan node is bound to one blackboard: a second tree is refused", () => {
    const node = new PlanNode({ actions: createVillageActions(), goal: VILLAGE_GOALS.notHungry });
    new BehaviourTree({ root: node, blackboard: villageStartState() }).tick(0.1);
    expect(() => new BehaviourTree({ root: node, blackboard: villageStartState() }).tick(0.1)).toThrow(/bound to another blackboard/);
  });
});

describe("STUP executed by a tree", () => {
  it("STUP chooses the goal by utility and hands over its plan; the tree plays it leaf by leaf; the next activation chooses again", () => {
    const log: string[] = [];
    const stup = new StupSelector({
      actions: createVillageActions(),
      seed: 7,
      goals: [
        { name: "eat", goal: VILLAGE_GOALS.notHungry, score: (s) => (s.is_hungry ? 0.9 : 0) },
        { name: "rest", goal: VILLAGE_GOALS.rested, score: (s) => (s.is_tired ? 0.8 : 0) },
        // A hungry villager does not rest: eating outranks resting.
        { name: "eat-first", goal: VILLAGE_GOALS.notHungry, score: (s) => (s.is_hungry ? 1 : 0), rank: 1 },
      ],
    });
    const node = new PlanNode({ name: "stup", actions: createVillageActions(), selector: stup, leaves: leaves(log) });
    const tree = new BehaviourTree({ root: node, blackboard: { ...villageStartState(), is_tired: true } });

    expect(tickUntilDone(tree)).toEqual(["running", "running", "running", "running", "success"]);
    expect(node.lastSelection?.name).toBe("eat-first");
    expect(node.lastSelection?.table.map((r) => [r.name, r.status])).toEqual([
      ["eat", "lower_rank"],
      ["rest", "lower_rank"],
      ["eat-first", "chosen"],
    ]);
    expect(log).toEqual(HUNGRY_PLAN.map((a) => `${a} success`));

    // Fed now: the next activation lets STUP choose again, and it picks rest.
    expect(tickUntilDone(tree)).toEqual(["running", "success"]);
    expect(node.lastSelection?.name).toBe("rest");
    expect(log.slice(5)).toEqual(["go_to_shelter success", "sleep success"]);
    expect(tree.blackboard).toMatchObject({ is_hungry: false, is_tired: false });

    // Nothing left to want: STUP selects no goal, and the node fails (a fallback branch can take over).
    expect(tree.tick(0.1)).toBe("failure");
    expect(node.lastFailure).toBe("no goal was selected");
  });

  it("a STUP plan whose leaf fails is replanned through STUP's goal", () => {
    const log: string[] = [];
    const stup = new StupSelector({
      actions: createVillageActions(),
      goals: [{ name: "eat", goal: VILLAGE_GOALS.notHungry, score: 1 }],
    });
    const node = new PlanNode({
      actions: createVillageActions(),
      selector: stup,
      leaves: leaves(log, { cook_food: ["failure", "success"] }),
    });
    const tree = new BehaviourTree({ root: node, blackboard: villageStartState() });
    expect(tickUntilDone(tree).at(-1)).toBe("success");
    expect(log).toEqual([
      "go_to_tree success",
      "chop_wood success",
      "go_to_campfire success",
      "cook_food failure",
      "cook_food success",
      "eat_food success",
    ]);
    expect(node.replans).toBe(1);
  });
});
