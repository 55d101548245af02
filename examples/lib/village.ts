/**
 * The village NPC domain of the Godot utility-AI/GOAP guide (section 10): a
 * villager who can chop wood, cook, eat and sleep. Shared by the examples,
 * the benchmarks and the demo so they all plan over the same actions.
 */
import { ActionSpec, type Conditions, type WorldState } from "../../src/core/index.js";

/**
 * The seven village actions with the guide's costs, preconditions and effects.
 * A fresh array of fresh (frozen) specs on every call.
 *
 * @example
 * ```ts
 * plan(villageStartState(), VILLAGE_GOALS.notHungry, createVillageActions())?.actionNames;
 * // ["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"]
 * ```
 */
export function createVillageActions(): ActionSpec[] {
  return [
    new ActionSpec({
      name: "go_to_tree",
      cost: 1,
      effects: { near_tree: true },
      description: "Walk to the nearest tree.",
    }),
    new ActionSpec({
      name: "chop_wood",
      cost: 2,
      preconditions: { has_axe: true, near_tree: true },
      effects: { has_wood: true },
      description: "Chop the tree with the axe to get wood.",
    }),
    new ActionSpec({
      name: "go_to_campfire",
      cost: 1,
      effects: { near_campfire: true },
      description: "Walk to the campfire.",
    }),
    new ActionSpec({
      name: "cook_food",
      cost: 3,
      preconditions: { has_wood: true, near_campfire: true },
      effects: { has_food: true, has_wood: false },
      description: "Burn the wood at the campfire to cook a meal.",
    }),
    new ActionSpec({
      name: "eat_food",
      cost: 1,
      preconditions: { has_food: true },
      effects: { is_hungry: false, has_food: false },
      description: "Eat the cooked meal.",
    }),
    new ActionSpec({
      name: "go_to_shelter",
      cost: 1,
      effects: { near_shelter: true },
      description: "Walk to the shelter.",
    }),
    new ActionSpec({
      name: "sleep",
      cost: 1,
      preconditions: { near_shelter: true },
      effects: { is_tired: false },
      description: "Sleep in the shelter until rested.",
    }),
  ];
}

/** The guide's initial world state: a hungry villager with an axe, near nothing. */
export function villageStartState(): WorldState {
  return {
    has_axe: true,
    has_wood: false,
    has_food: false,
    near_tree: false,
    near_campfire: false,
    near_shelter: false,
    is_hungry: true,
    is_tired: false,
  };
}

/** The villager's goals in the guide: not hungry, not tired, and gathering wood. */
export const VILLAGE_GOALS = Object.freeze({
  notHungry: Object.freeze({ is_hungry: false }),
  rested: Object.freeze({ is_tired: false }),
  gatherWood: Object.freeze({ has_wood: true }),
} satisfies Record<string, Conditions>);

/**
 * The guide's `_pick_next_goal`: hungry beats tired beats gathering wood.
 *
 * @example
 * ```ts
 * pickVillageGoal({ ...villageStartState(), is_hungry: false, is_tired: true }); // { is_tired: false }
 * ```
 */
export function pickVillageGoal(state: Readonly<WorldState>): Conditions {
  if (state.is_hungry === true) return VILLAGE_GOALS.notHungry;
  if (state.is_tired === true) return VILLAGE_GOALS.rested;
  return VILLAGE_GOALS.gatherWood;
}
