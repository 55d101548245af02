/**
 * One day of the guide's village NPC (section 10) in a small simulated
 * world, shared by the GoapAgent version (examples/village-agent.ts) and the
 * behaviour-tree version (examples/village-tree.ts) so both live the very
 * same day: the villager walks, chops, cooks and eats over ticks; sensors
 * report what is near; half a second into the first chop the tree is
 * carried away; at 8 s the villager grows tired.
 */
import type { WorldState } from "../../src/core/index.js";
import { GoapAgent, type GoapAgentEvents } from "../../src/utility/index.js";
import { createVillageActions, pickVillageGoal, villageStartState } from "./village.js";

export const VILLAGE_TICK = 0.1; // seconds per frame
export const VILLAGE_FRAMES = 300;
const SPEED = 4; // metres per second
const REACH = 1; // metres: "near"

export type Place = "tree" | "campfire" | "shelter";

/**
 * Planning bounded by nodes only: the agent's default budget also stops a
 * search after 100 ms, and a cold process on a busy machine can spend that
 * before its first expansion, which would change the day.
 */
export const VILLAGE_PLAN_OPTIONS = Object.freeze({ maxNodes: 100_000, timeBudgetMs: Number.POSITIVE_INFINITY });

/** A one-dimensional village: positions in metres. */
export interface VillageWorld {
  villager: number;
  tree: number;
  campfire: number;
  shelter: number;
  time: number;
  tiredAt: number;
  slept: boolean;
}

export function createVillageWorld(): VillageWorld {
  return { villager: 2, tree: 8, campfire: 0, shelter: -6, time: 0, tiredAt: 8, slept: false };
}

export const near = (world: VillageWorld, place: Place): boolean => Math.abs(world[place] - world.villager) < REACH;

/** Walks toward a place for one tick; true once within reach. */
export function walk(world: VillageWorld, place: Place, delta: number): boolean {
  const gap = world[place] - world.villager;
  world.villager += Math.sign(gap) * Math.min(Math.abs(gap), SPEED * delta);
  return near(world, place);
}

/** Seconds each work action takes in place. */
export const WORK_SECONDS = { chop_wood: 1.5, cook_food: 2, eat_food: 1, sleep: 3 } as const;

/** The guide's `_physics_process`: what the sensors report at the start of each tick. */
export function senseVillage(world: VillageWorld): WorldState {
  return {
    near_tree: near(world, "tree"),
    near_campfire: near(world, "campfire"),
    near_shelter: near(world, "shelter"),
    is_tired: world.time >= world.tiredAt && !world.slept,
  };
}

/** What a day produced: the timeline of agent events, the world and the facts at the end. */
export interface VillageDay {
  /** Each event stamped with the time and the villager's position. */
  readonly timeline: readonly string[];
  /** The same events without the stamps. */
  readonly events: readonly string[];
  readonly world: VillageWorld;
  readonly facts: WorldState;
}

/** Turns an agent's events into timeline lines (the same wording for both versions of the day). */
export function followAgent(agent: GoapAgent, note: (line: string) => void): void {
  const on = <K extends keyof GoapAgentEvents>(event: K, line: (e: GoapAgentEvents[K]) => string) => agent.on(event, (e) => note(line(e)));
  on("goalChanged", ({ goal }) => `goal: ${goal?.label ?? "none"}`);
  on("planFound", ({ plan }) => `plan: ${plan.actionNames.join(" -> ")} (cost ${plan.totalCost})`);
  on("planFailed", ({ reason }) => `no plan: ${reason}`);
  on("planInvalidated", ({ reason }) => `plan dropped: ${reason}`);
  on("actionStarted", ({ action }) => `start ${action.name}`);
  on("actionCompleted", ({ action }) => `done  ${action.name}`);
  on("actionFailed", ({ action, reason }) => `FAILED ${action.name}: ${reason}`);
  on("goalAchieved", ({ goal }) => `achieved ${goal.label}`);
  on("hookFailed", ({ hook, name, error }) => `hook ${hook} of ${name} threw: ${error}`);
}

/**
 * Runs the day's clock: the script (the tree is carried away 0.5 s into the
 * first chop) and one `step` per frame. `onChopStart` is wired by the caller
 * to whichever agent chops.
 */
export class VillageDayClock {
  readonly world = createVillageWorld();
  readonly timeline: string[] = [];
  readonly events: string[] = [];
  readonly #print: boolean;
  #moveTreeAt = Number.POSITIVE_INFINITY;

  constructor(print: boolean) {
    this.#print = print;
  }

  note = (line: string): void => {
    const stamped = `${this.world.time.toFixed(1).padStart(5)}s  x=${this.world.villager.toFixed(1).padStart(5)}  ${line}`;
    this.timeline.push(stamped);
    this.events.push(line);
    if (this.#print) console.log(stamped);
  };

  /** Call when an action starts: the first chop arms the tree's removal. */
  actionStarted(name: string): void {
    if (name === "chop_wood" && this.#moveTreeAt === Number.POSITIVE_INFINITY) this.#moveTreeAt = this.world.time + 0.5;
  }

  run(step: () => void, frames = VILLAGE_FRAMES): void {
    for (let frame = 0; frame < frames; frame++) {
      if (this.world.time >= this.#moveTreeAt - 1e-9) {
        this.world.tree = 14;
        this.#moveTreeAt = Number.NaN;
        this.note("!! the tree is carried away to x=14");
      }
      this.world.time += VILLAGE_TICK;
      step();
    }
  }
}

/** The day driven by one GoapAgent whose goals follow the guide's `_pick_next_goal`. */
export function runVillageAgentDay(print = false): VillageDay {
  const clock = new VillageDayClock(print);
  const { world } = clock;
  const work = (seconds: number) => (ctx: { elapsed: number }) => ctx.elapsed >= seconds - 1e-9;
  const agent = new GoapAgent({
    name: "villager",
    actions: createVillageActions(),
    state: villageStartState(),
    replanInterval: 0.5,
    planOptions: VILLAGE_PLAN_OPTIONS,
    sensors: [{ name: "village", sense: () => senseVillage(world) }],
    behaviours: {
      go_to_tree: { execute: (_ctx, delta) => walk(world, "tree", delta) },
      chop_wood: { execute: work(WORK_SECONDS.chop_wood) },
      go_to_campfire: { execute: (_ctx, delta) => walk(world, "campfire", delta) },
      cook_food: { execute: work(WORK_SECONDS.cook_food) },
      eat_food: { execute: work(WORK_SECONDS.eat_food) },
      go_to_shelter: { execute: (_ctx, delta) => walk(world, "shelter", delta) },
      sleep: {
        execute: work(WORK_SECONDS.sleep),
        exit: (_ctx, reason) => {
          if (reason === "completed") world.slept = true;
        },
      },
    },
    // The guide's _pick_next_goal, whenever the villager has nothing to do.
    selector: ({ state, idle }) => (idle ? { goal: pickVillageGoal(state) } : undefined),
  });
  followAgent(agent, clock.note);
  agent.on("actionStarted", ({ action }) => clock.actionStarted(action.name));
  clock.run(() => agent.tick(VILLAGE_TICK));
  return { timeline: clock.timeline, events: clock.events, world, facts: { ...agent.state } };
}
