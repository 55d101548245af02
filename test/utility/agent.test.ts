import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createVillageActions, pickVillageGoal, VILLAGE_GOALS, villageStartState } from "../../examples/lib/village.js";
import { ActionSpec, type WorldState } from "../../src/core/index.js";
import {
  type ActionBehaviour,
  GoapAgent,
  type GoapAgentEvents,
  type GoapAgentOptions,
  PlanCache,
  type StupSelection,
  StupSelector,
  stupGoalSelector,
  UtilityBrain,
} from "../../src/utility/index.js";
import { stillClock } from "../support/still-clock.js";

// Agents plan within a frame's time budget (100 ms): time stands still here, so a busy machine cannot end a search
// on it. The tests are about plans, ticks and events, not time.
beforeEach(() => {
  stillClock();
});
afterEach(() => {
  vi.restoreAllMocks();
});

const HUNGRY_PLAN = ["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"];

/** Records every event as one readable line. */
function record(agent: GoapAgent): string[] {
  const log: string[] = [];
  const on = <K extends keyof GoapAgentEvents>(event: K, line: (e: GoapAgentEvents[K]) => string) =>
    agent.on(event, (e) => log.push(`${event} ${line(e)}`.trim()));
  on("goalChanged", (e) => e.name ?? e.goal?.label ?? "none");
  on("planFound", (e) => `${e.plan.actionNames.join(",")}${e.fromCache ? " (cache)" : ""}`);
  on("planFailed", (e) => e.reason);
  on("planInvalidated", (e) => e.reason);
  on("actionStarted", (e) => e.action.name);
  on("actionCompleted", (e) => e.action.name);
  on("actionFailed", (e) => `${e.action.name}: ${e.reason}`);
  on("goalAchieved", (e) => e.name ?? e.goal.label);
  on("hookFailed", (e) => `${e.hook} ${e.name}`);
  return log;
}

const villager = (extra: Partial<GoapAgentOptions> = {}) =>
  new GoapAgent({ actions: createVillageActions(), state: villageStartState(), goal: VILLAGE_GOALS.notHungry, ...extra });

describe("GoapAgent: the guide's loop", () => {
  it("plans the hungry villager's meal and runs it action by action, one tick each", () => {
    const agent = villager();
    const log = record(agent);
    expect(agent.status).toBe("pending");
    for (let i = 0; i < 5; i++) agent.tick(0.1);
    expect(log).toEqual([
      `planFound ${HUNGRY_PLAN.join(",")}`,
      "actionStarted go_to_tree",
      "actionCompleted go_to_tree",
      "actionStarted chop_wood",
      "actionCompleted chop_wood",
      "actionStarted go_to_campfire",
      "actionCompleted go_to_campfire",
      "actionStarted cook_food",
      "actionCompleted cook_food",
      "actionStarted eat_food",
      "actionCompleted eat_food",
      'goalAchieved {"is_hungry":false}',
    ]);
    expect(agent.status).toBe("achieved");
    expect(agent.state).toMatchObject({ is_hungry: false, has_food: false, has_wood: false, near_campfire: true });
  });

  it("runs enter, execute(delta) until done, and exit with the reason", () => {
    const calls: string[] = [];
    const timed = (name: string, seconds: number): ActionBehaviour => ({
      enter: () => calls.push(`enter ${name}`),
      execute: (ctx, delta) => {
        calls.push(`execute ${name} ${ctx.elapsed.toFixed(1)} ${delta}`);
        return ctx.elapsed >= seconds - 1e-9;
      },
      exit: (_ctx, reason) => calls.push(`exit ${name} ${reason}`),
    });
    const agent = new GoapAgent({
      actions: createVillageActions(),
      state: { ...villageStartState(), is_hungry: false, is_tired: true },
      goal: VILLAGE_GOALS.rested,
      behaviours: { go_to_shelter: timed("go_to_shelter", 0.2), sleep: timed("sleep", 0.1) },
    });
    for (let i = 0; i < 6; i++) agent.tick(0.1);
    expect(calls).toEqual([
      "enter go_to_shelter",
      "execute go_to_shelter 0.0 0.1",
      "execute go_to_shelter 0.1 0.1",
      "execute go_to_shelter 0.2 0.1",
      "exit go_to_shelter completed",
      "enter sleep",
      "execute sleep 0.1 0.1",
      "exit sleep completed",
    ]);
    expect(agent.status).toBe("achieved");
  });
});

describe("GoapAgent: validation and replanning", () => {
  /** A villager whose sensor reports near_tree from a tree that can move away. */
  function withMovingTree() {
    const world = { treeHere: false };
    const agent = new GoapAgent({
      actions: createVillageActions(),
      state: villageStartState(),
      goal: VILLAGE_GOALS.notHungry,
      replanInterval: 0.3,
      sensors: [{ name: "tree", sense: () => ({ near_tree: world.treeHere }) }],
      behaviours: {
        go_to_tree: { execute: () => (world.treeHere = true) },
        chop_wood: { execute: (ctx) => ctx.elapsed >= 1 },
      },
    });
    return { agent, world };
  }

  it("replans when a sensor moves the tree away mid-chop", () => {
    const { agent, world } = withMovingTree();
    const log = record(agent);
    agent.tick(0.1); // plans, walks to the tree
    agent.tick(0.1); // chopping
    world.treeHere = false;
    agent.tick(0.1); // validation is due (0.3 s): near_tree broke
    expect(log).toEqual([
      `planFound ${HUNGRY_PLAN.join(",")}`,
      "actionStarted go_to_tree",
      "actionCompleted go_to_tree",
      "actionStarted chop_wood",
      'planInvalidated preconditions of "chop_wood" no longer hold: near_tree',
      `planFound ${HUNGRY_PLAN.join(",")}`,
      "actionStarted go_to_tree",
      "actionCompleted go_to_tree",
      "actionStarted chop_wood",
    ]);
    for (let i = 0; i < 20; i++) agent.tick(0.1);
    expect(log.at(-1)).toBe('goalAchieved {"is_hungry":false}');
    expect(log.filter((l) => l.startsWith("planFound"))).toHaveLength(2);
  });

  it("does not notice a broken precondition before the next validation", () => {
    const { agent, world } = withMovingTree();
    const log = record(agent);
    agent.tick(0.1);
    world.treeHere = false;
    agent.tick(0.1);
    expect(log.some((l) => l.startsWith("planInvalidated"))).toBe(false);
    agent.tick(0.1);
    expect(log.some((l) => l.startsWith("planInvalidated"))).toBe(true);
  });

  it("leaves invalid actions out of planning and interrupts a running action that becomes invalid", () => {
    const world = { trees: 1 };
    const exits: string[] = [];
    const agent = villager({
      replanInterval: 0,
      behaviours: {
        chop_wood: { isValid: () => world.trees > 0, execute: (ctx) => ctx.elapsed >= 1, exit: (_c, reason) => exits.push(reason) },
      },
    });
    const log = record(agent);
    agent.tick(0.1);
    agent.tick(0.1);
    world.trees = 0;
    agent.tick(0.1);
    expect(log.slice(-2)).toEqual([
      'planInvalidated "chop_wood" is no longer valid',
      'planFailed no plan reaches {"is_hungry":false} (invalid now: chop_wood)',
    ]);
    expect(exits).toEqual(["interrupted"]);
    expect(agent.status).toBe("blocked");
  });

  it("stops as soon as the world achieves the goal for it", () => {
    const agent = villager({ replanInterval: 0, behaviours: { chop_wood: { execute: () => false } } });
    const log = record(agent);
    agent.tick(0.1);
    agent.tick(0.1);
    agent.update({ is_hungry: false });
    agent.tick(0.1);
    expect(log.slice(-1)).toEqual(['goalAchieved {"is_hungry":false}']);
    expect(agent.plan).toBeNull();
  });

  it("replans at the next validation when a plan ends short of the goal", () => {
    const eat = new ActionSpec({ name: "eat", effects: { is_hungry: false } });
    const agent = new GoapAgent({
      actions: [eat],
      state: { is_hungry: true },
      goal: { is_hungry: false },
      applyEffects: false,
      replanInterval: 0.3,
    });
    const log = record(agent);
    agent.tick(0.1);
    expect(log).toEqual([
      "planFound eat",
      "actionStarted eat",
      "actionCompleted eat",
      "planInvalidated plan finished but the goal does not hold: is_hungry",
    ]);
    expect(agent.status).toBe("blocked");
    agent.tick(0.1);
    expect(log).toHaveLength(4);
    agent.tick(0.1); // validation due
    expect(log.slice(4, 5)).toEqual(["planFound eat"]);
  });

  it("drops a plan whose next action cannot start, and replans at the next validation", () => {
    const agent = villager({ applyEffects: false, replanInterval: 0.3 });
    const log = record(agent);
    agent.tick(0.1);
    agent.tick(0.1);
    expect(log).toEqual([
      `planFound ${HUNGRY_PLAN.join(",")}`,
      "actionStarted go_to_tree",
      "actionCompleted go_to_tree",
      'planInvalidated preconditions of "chop_wood" do not hold at its start: near_tree',
    ]);
    expect(agent.status).toBe("blocked");
    agent.tick(0.1);
    expect(log.filter((l) => l.startsWith("planFound"))).toHaveLength(2);
  });

  it("pursues its goal again when it is undone after being achieved", () => {
    const agent = villager({ replanInterval: 0.5 });
    const log = record(agent);
    for (let i = 0; i < 5; i++) agent.tick(0.1);
    agent.update({ is_hungry: true });
    agent.tick(0.1);
    expect(agent.status).toBe("pending");
    for (let i = 0; i < 4; i++) agent.tick(0.1); // the next validation, 0.5 s after the last
    expect(agent.status).toBe("running");
    expect(log.filter((l) => l.startsWith("planFound"))).toEqual([
      `planFound ${HUNGRY_PLAN.join(",")}`,
      // still near the tree and the campfire from the first meal
      "planFound chop_wood,cook_food,eat_food",
    ]);
  });
});

describe("GoapAgent: failures never break the loop", () => {
  it("reports a throwing sensor and keeps going", () => {
    const agent = villager({
      sensors: [
        {
          name: "broken",
          sense: () => {
            throw new Error("sensor down");
          },
        },
        { name: "bad", sense: () => 42 as unknown as WorldState },
      ],
    });
    const log = record(agent);
    for (let i = 0; i < 5; i++) agent.tick(0.1);
    expect(log.filter((l) => l.startsWith("hookFailed"))).toHaveLength(10);
    expect(log.at(-1)).toBe('goalAchieved {"is_hungry":false}');
  });

  it("fails an action whose execute throws, waits for the next validation, then retries", () => {
    let attempts = 0;
    const agent = villager({
      replanInterval: 0.5,
      behaviours: {
        chop_wood: {
          execute: () => {
            attempts++;
            if (attempts === 1) throw new Error("axe slipped");
            return true;
          },
        },
      },
    });
    const log = record(agent);
    agent.tick(0.1);
    agent.tick(0.1);
    expect(agent.status).toBe("blocked");
    expect(log.slice(-2)).toEqual(["hookFailed execute chop_wood", "actionFailed chop_wood: execute threw: axe slipped"]);
    agent.tick(0.1);
    agent.tick(0.1);
    expect(log.filter((l) => l.startsWith("planFound"))).toHaveLength(1);
    agent.tick(0.2); // 0.5 s since the last validation
    expect(log.filter((l) => l.startsWith("planFound"))).toHaveLength(2);
    for (let i = 0; i < 5; i++) agent.tick(0.1);
    expect(agent.status).toBe("achieved");
  });

  it("reports planFailed once per validation, not every tick", () => {
    const agent = new GoapAgent({
      actions: createVillageActions(),
      state: { ...villageStartState(), has_axe: false },
      goal: VILLAGE_GOALS.notHungry,
      replanInterval: 1,
    });
    const log = record(agent);
    for (let i = 0; i < 25; i++) agent.tick(0.1);
    expect(log.filter((l) => l.startsWith("planFailed"))).toHaveLength(3);
    expect(agent.status).toBe("blocked");
  });

  it("rejects bad options by name", () => {
    expect(() => villager({ behaviours: { fly: {} } })).toThrow(/behaviours names "fly", which is not one of the actions/);
    expect(() => villager({ selector: () => undefined })).toThrow(/either a fixed goal or a selector/);
    expect(() => villager().tick(Number.NaN)).toThrow(/deltaSeconds must be a finite number >= 0, got NaN/);
  });
});

describe("GoapAgent: goal sources", () => {
  it("follows the guide's priority picker given as a selector function", () => {
    const agent = new GoapAgent({
      actions: createVillageActions(),
      state: { ...villageStartState(), is_tired: true },
      selector: ({ state, idle }) => (idle ? { goal: pickVillageGoal(state) } : undefined),
    });
    const log = record(agent);
    for (let i = 0; i < 10; i++) agent.tick(0.1);
    expect(log.filter((l) => /^(goalChanged|planFound|goalAchieved)/.test(l))).toEqual([
      'goalChanged {"is_hungry":false}',
      `planFound ${HUNGRY_PLAN.join(",")}`,
      'goalAchieved {"is_hungry":false}',
      'goalChanged {"is_tired":false}',
      "planFound go_to_shelter,sleep",
      'goalAchieved {"is_tired":false}',
      'goalChanged {"has_wood":true}',
      "planFound chop_wood",
      'goalAchieved {"has_wood":true}',
    ]);
  });

  it("takes goals from a UtilityBrain (the guide's hybrid)", () => {
    const brain = new UtilityBrain({
      evaluationInterval: 0,
      actions: [
        { name: "survive", goal: { is_hungry: false }, considerations: [{ inputKey: "hunger", curve: {} }] },
        { name: "rest", goal: { is_tired: false }, considerations: [{ inputKey: "fatigue", curve: {} }] },
      ],
    });
    const agent = new GoapAgent({
      actions: createVillageActions(),
      state: { ...villageStartState(), is_tired: true, hunger: 0.3, fatigue: 0.8 },
      selector: brain,
      behaviours: { sleep: { execute: (ctx) => ctx.elapsed >= 1 } },
    });
    const log = record(agent);
    agent.tick(0.1);
    agent.tick(0.1);
    agent.update({ hunger: 0.9 });
    agent.tick(0.1);
    expect(log).toEqual([
      "goalChanged rest",
      "planFound go_to_shelter,sleep",
      "actionStarted go_to_shelter",
      "actionCompleted go_to_shelter",
      "actionStarted sleep",
      "goalChanged survive",
      "planFound go_to_tree,chop_wood,go_to_campfire,cook_food,eat_food",
      "actionStarted go_to_tree",
      "actionCompleted go_to_tree",
      "actionStarted chop_wood",
    ]);
  });

  it("takes goals and ready plans from STUP, selecting again when idle", () => {
    const actions = createVillageActions();
    const stup = new StupSelector({
      actions,
      seed: 5,
      // Bounded by nodes only: the default 100 ms could run out on a cold start on a loaded machine and change the day.
      planOptions: { maxNodes: 100_000, timeBudgetMs: Number.POSITIVE_INFINITY },
      goals: [
        { name: "eat", goal: VILLAGE_GOALS.notHungry, score: (s) => (s.is_hungry ? 1 : 0), rank: 1 },
        { name: "rest", goal: VILLAGE_GOALS.rested, score: (s) => (s.is_tired ? 1 : 0), rank: 1 },
        { name: "wood", goal: VILLAGE_GOALS.gatherWood, score: 0.2 },
      ],
    });
    const selections: StupSelection[] = [];
    const agent = new GoapAgent({
      actions,
      state: { ...villageStartState(), is_tired: true },
      selector: stupGoalSelector(stup, { minInterval: 0, onSelect: (selection) => selections.push(selection) }),
    });
    const log = record(agent);
    agent.tick(0.1);
    // The agent runs the plan STUP made; it does not plan again.
    expect(selections).toHaveLength(1);
    expect(agent.plan).toBe(selections[0]?.plan);
    expect(selections[0]?.table.map((r) => r.status).sort()).toEqual(["candidate", "chosen", "lower_rank"]);
    for (let i = 0; i < 11; i++) agent.tick(0.1);
    // Three goals, then nothing left to do: every goal holds, so STUP chooses none.
    expect(selections.slice(3).map((sel) => sel.name)).toEqual(Array(selections.length - 3).fill(null));
    const goals = log.filter((l) => l.startsWith("goalChanged"));
    expect(goals).toHaveLength(3);
    expect(new Set(goals.slice(0, 2))).toEqual(new Set(["goalChanged eat", "goalChanged rest"]));
    expect(goals[2]).toBe("goalChanged wood");
    expect(agent.state).toMatchObject({ is_hungry: false, is_tired: false, has_wood: true });
  });

  it("shares plans between agents through a PlanCache", () => {
    const cache = new PlanCache();
    const first = villager({ planCache: cache, state: { ...villageStartState(), name: "anna" } });
    const second = villager({ planCache: cache, state: { ...villageStartState(), name: "bert" } });
    const log = record(second);
    first.tick(0.1);
    second.tick(0.1);
    expect(log[0]).toBe(`planFound ${HUNGRY_PLAN.join(",")} (cache)`);
    expect(second.plan?.actions.every((a) => second.actions.includes(a))).toBe(true);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 1 });
  });
});

describe("GoapAgent: shareState", () => {
  it("uses the given state object itself, so game code and the agent see the same facts; by default it copies", () => {
    const facts = villageStartState();
    const shared = villager({ state: facts, shareState: true });
    expect(shared.state).toBe(facts);
    facts.has_wood = true; // written by game code between ticks
    shared.tick(0.1);
    // Planned from the facts game code wrote: the wood is already there.
    expect(shared.plan?.actionNames).toEqual(["go_to_campfire", "cook_food", "eat_food"]);
    expect(facts.near_campfire).toBe(true); // written by the agent (go_to_campfire's effect)

    const own = villageStartState();
    const copied = villager({ state: own });
    expect(copied.state).not.toBe(own);
    copied.tick(0.1);
    expect(own.near_tree).toBe(false);
  });
});
