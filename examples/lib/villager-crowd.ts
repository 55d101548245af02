/**
 * A village of utility-driven villagers for the inspector's crowd view:
 * each villager's UtilityBrain weighs hunger and energy into a goal (eat,
 * sleep or gather wood), its GoapAgent plans the village actions to reach
 * it, and tick behaviours make actions take time. Chopping sometimes fails
 * (seeded), so plans fail and villagers replan. Shared by the inspector
 * example and the inspector's browser tests.
 */
import { type ActionSpec, createRng, type WorldState } from "../../src/core/index.js";
import { type ActionBehaviour, brainGoalSelector, GoapAgent, PlanCache, UtilityBrain } from "../../src/utility/index.js";
import { createVillageActions, villageStartState } from "./village.js";

/** One villager: its agent and the brain that picks its goals. */
export interface Villager {
  readonly agent: GoapAgent;
  readonly brain: UtilityBrain;
}

/** A crowd of villagers on one clock. */
export interface VillagerCrowd {
  readonly villagers: readonly Villager[];
  /** Advances every villager by `deltaSeconds` of game time. */
  tick(deltaSeconds: number): void;
}

/** Options of {@link createVillagerCrowd}. */
export interface VillagerCrowdOptions {
  /** @defaultValue 1 */
  readonly seed?: number;
  /** Chance that a chop fails. @defaultValue 0.1 */
  readonly chopFailure?: number;
  /** Names villagers `${prefix}${i}`. @defaultValue "villager-" */
  readonly prefix?: string;
  /** The actions (e.g. with hostile names, for tests). @defaultValue the village actions */
  readonly actions?: readonly ActionSpec[];
}

function createBrain(): UtilityBrain {
  return new UtilityBrain({
    evaluationInterval: 0.5,
    momentum: 0.1,
    actions: [
      {
        name: "eat",
        goal: { is_hungry: false },
        considerations: [
          { name: "hunger", inputKey: "hunger", curve: { type: "exponential", exponent: 3 } },
          { name: "daylight", inputKey: "daylight", curve: { type: "linear", slope: 0.5, yShift: 0.5 } },
        ],
      },
      {
        name: "sleep",
        goal: { is_tired: false },
        considerations: [{ name: "tiredness", inputKey: "energy", curve: { type: "quadratic", exponent: 2, invert: true } }],
      },
      {
        name: "gather",
        weight: 0.6,
        goal: { has_wood: true },
        considerations: [
          { name: "fed", inputKey: "hunger", curve: { type: "linear", invert: true } },
          { name: "energy", inputKey: "energy", curve: { type: "linear" } },
        ],
      },
    ],
  });
}

/**
 * Creates `count` villagers with their own hunger and fatigue rates (drawn
 * from `seed`), sharing one plan cache.
 *
 * @example
 * ```ts
 * const crowd = createVillagerCrowd(100);
 * for (let t = 0; t < 600; t++) crowd.tick(0.1);
 * ```
 */
export function createVillagerCrowd(count: number, options: VillagerCrowdOptions = {}): VillagerCrowd {
  const rng = createRng(options.seed ?? 1);
  const chopFailure = options.chopFailure ?? 0.1;
  const prefix = options.prefix ?? "villager-";
  const cache = new PlanCache({ maxSize: 4096 });
  let clock = 0;
  const villagers: Villager[] = [];
  for (let i = 0; i < count; i++) {
    const hungerRate = rng.uniform(0.02, 0.06);
    const fatigueRate = rng.uniform(0.015, 0.04);
    const chopRng = rng.fork();
    const takes =
      (seconds: number): ActionBehaviour["execute"] =>
      (ctx) =>
        ctx.elapsed >= seconds - 1e-9;
    const brain = createBrain();
    const start: WorldState = { ...villageStartState(), hunger: rng.uniform(0, 0.8), energy: rng.uniform(0.4, 1), daylight: 1, wood: 0 };
    const agent = new GoapAgent({
      name: `${prefix}${i}`,
      actions: options.actions ?? createVillageActions(),
      state: start,
      selector: brainGoalSelector(brain),
      replanInterval: 0.5,
      planCache: cache,
      sensors: [
        {
          name: "body",
          sense: (state, dt) => {
            const hunger = Math.min(1, (state.hunger as number) + hungerRate * dt);
            const energy = Math.max(0, (state.energy as number) - fatigueRate * dt);
            return { hunger, energy, is_hungry: hunger > 0.6, is_tired: energy < 0.3, daylight: (Math.sin(clock / 20) + 1) / 2 };
          },
        },
      ],
      behaviours: {
        go_to_tree: { execute: takes(1), exit: (ctx) => ctx.update({ near_campfire: false, near_shelter: false }) },
        go_to_campfire: { execute: takes(1), exit: (ctx) => ctx.update({ near_tree: false, near_shelter: false }) },
        go_to_shelter: { execute: takes(1), exit: (ctx) => ctx.update({ near_tree: false, near_campfire: false }) },
        chop_wood: {
          execute: (ctx) => (ctx.elapsed < 1.5 - 1e-9 ? "running" : chopRng.next() < chopFailure ? "failed" : "done"),
          exit: (ctx, reason) => {
            if (reason === "completed") ctx.update({ wood: (ctx.state.wood as number) + 1 });
          },
        },
        cook_food: { execute: takes(1) },
        eat_food: { execute: takes(0.5), exit: (ctx, reason) => reason === "completed" && ctx.update({ hunger: 0, is_hungry: false }) },
        sleep: { execute: takes(3), exit: (ctx, reason) => reason === "completed" && ctx.update({ energy: 1, is_tired: false }) },
      },
    });
    villagers.push({ agent, brain });
  }
  return {
    villagers,
    tick(deltaSeconds) {
      clock += deltaSeconds;
      for (const { agent } of villagers) agent.tick(deltaSeconds);
    },
  };
}
