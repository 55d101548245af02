/**
 * The village NPC domain from the Godot GOAP guide: a villager who can chop
 * wood, cook, eat and sleep. Shared by the NL tests.
 */
import { ActionSpec, type FactCatalog, type WorldState } from "../../src/core/index.js";

export const villageActions: readonly ActionSpec[] = [
  new ActionSpec({
    name: "go_to_tree",
    effects: { near_tree: true, near_campfire: false, near_shelter: false },
    cost: 1,
    description: "Walk to the nearest tree",
  }),
  new ActionSpec({
    name: "chop_wood",
    preconditions: { has_axe: true, near_tree: true },
    effects: { has_wood: true },
    cost: 2,
    description: "Chop wood from a tree with the axe",
  }),
  new ActionSpec({
    name: "go_to_campfire",
    effects: { near_campfire: true, near_tree: false, near_shelter: false },
    cost: 1,
    description: "Walk to the campfire",
  }),
  new ActionSpec({
    name: "cook_food",
    preconditions: { has_wood: true, near_campfire: true },
    effects: { has_food: true, has_wood: false },
    cost: 3,
    description: "Cook a meal on the campfire, burning the wood",
  }),
  new ActionSpec({
    name: "eat_food",
    preconditions: { has_food: true },
    effects: { is_hungry: false, has_food: false },
    cost: 1,
    description: "Eat the cooked meal so the villager is no longer hungry",
  }),
  new ActionSpec({
    name: "go_to_shelter",
    effects: { near_shelter: true, near_tree: false, near_campfire: false },
    cost: 1,
    description: "Walk to the shelter",
  }),
  new ActionSpec({
    name: "sleep",
    preconditions: { near_shelter: true },
    effects: { is_tired: false },
    cost: 2,
    description: "Sleep in the shelter until rested",
  }),
];

export const villageFacts: FactCatalog = {
  is_hungry: { type: "boolean", description: "the villager needs to eat", synonyms: ["hunger", "starving", "famished"] },
  is_tired: { type: "boolean", description: "the villager needs rest", synonyms: ["exhausted", "sleepy", "rest"] },
  has_wood: { type: "boolean", description: "the villager carries wood", synonyms: ["logs", "firewood", "timber"] },
  has_food: { type: "boolean", description: "the villager carries a cooked meal", synonyms: ["meal"] },
  has_axe: { type: "boolean", description: "the villager owns an axe" },
  near_tree: { type: "boolean", description: "the villager stands by a tree", synonyms: ["forest"] },
  near_campfire: { type: "boolean", description: "the villager stands by the campfire", synonyms: ["fire"] },
  near_shelter: { type: "boolean", description: "the villager stands by the shelter", synonyms: ["home"] },
};

export const villageStart: WorldState = {
  has_axe: true,
  has_wood: false,
  has_food: false,
  near_tree: false,
  near_campfire: false,
  near_shelter: false,
  is_hungry: true,
  is_tired: false,
};

/** The cheapest way to stop being hungry from {@link villageStart} (cost 8). */
export const HUNGRY_PLAN = ["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"];
