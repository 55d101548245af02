import { normalizeConditions, satisfiesConditions } from "./conditions.js";
import { describeValue, LangGoapError } from "./errors.js";
import type { WorldState } from "./facts.js";
import type { GoalLike, GoalSpec } from "./goal.js";
import { goalObject } from "./goal-object.js";

/** @internal What a search reads of its goal. A `GoalSpec` is one. */
export type SearchGoal = Pick<GoalSpec, "conditions" | "label" | "isSatisfied">;

/**
 * @internal The goal of a planning call as the search reads it: a
 * `GoalSpec` as it is; bare conditions checked as `new GoalSpec` checks
 * them, into a plain view, so that code that only plans (a browser game
 * bundling `ActionSpec` and `plan`) carries neither `GoalSpec` nor
 * `MultiGoal` and their options. Told apart by shape: a goal has an
 * `isSatisfied` method and a `MultiGoal` a `goals` list and a `toJSON`
 * method, and no condition's value is a function. A goal object
 * `{ conditions, name? }` is read as `toGoalSpec` reads it.
 */
export function searchGoalOf(goal: GoalLike | SearchGoal): SearchGoal {
  if (typeof goal !== "object" || goal === null || Array.isArray(goal)) {
    throw new LangGoapError("INVALID_GOAL", `expected a GoalSpec or an object of conditions, got ${describeValue(goal)}`);
  }
  const shaped = goal as { isSatisfied?: unknown; goals?: unknown; toJSON?: unknown };
  if (typeof shaped.isSatisfied === "function") return goal as SearchGoal;
  if (Array.isArray(shaped.goals) && typeof shaped.toJSON === "function") {
    throw new LangGoapError("INVALID_GOAL", "a MultiGoal cannot be planned directly; plan each of its goals, or run it in a GoapGraph");
  }
  const object = goalObject(goal, "the goal");
  const conditions = normalizeConditions(object ? object.conditions : goal, "goal conditions");
  const name = object?.name;
  return Object.freeze({
    conditions,
    get label() {
      return name ?? JSON.stringify(conditions);
    },
    isSatisfied: (state: Readonly<WorldState>) => satisfiesConditions(state, conditions),
  });
}

/**
 * @internal True for a goal whose class overrides `isSatisfied` (a goal
 * that decides its own satisfaction, as `NirvanaGoal`): A* has no
 * conditions to search toward. Read off the prototype chain, without
 * naming `GoalSpec` (see {@link searchGoalOf}): the `isSatisfied` in use
 * must be the one of the chain's root class, `GoalSpec`; a view of bare
 * conditions has none on its chain.
 */
export function decidesOwnSatisfaction(goal: SearchGoal): boolean {
  for (let proto = Object.getPrototypeOf(goal); proto !== null; proto = Object.getPrototypeOf(proto)) {
    if (Object.hasOwn(proto, "isSatisfied")) return Object.getPrototypeOf(proto) !== Object.prototype;
  }
  return false;
}
