/**
 * The village NPC domain (examples/lib/village.ts) plus a fact catalog with
 * the words people use for each fact, for the NL tests.
 */

import { createVillageActions, villageStartState } from "../../examples/lib/village.js";
import type { ActionSpec, FactCatalog, WorldState } from "../../src/core/index.js";

export const villageActions: readonly ActionSpec[] = createVillageActions();

export const villageStart: WorldState = villageStartState();

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

/** The cheapest way to stop being hungry from {@link villageStart} (cost 8). */
export const HUNGRY_PLAN = ["go_to_tree", "chop_wood", "go_to_campfire", "cook_food", "eat_food"];
