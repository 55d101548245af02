import type { ActionSpec } from "../core/action.js";
import { type Condition, type Conditions, formatCondition } from "../core/conditions.js";
import { type Effect, formatEffect } from "../core/effects.js";
import { type GoalLike, GoalSpec, MultiGoal } from "../core/goal.js";

/** @internal Conditions as `key = value` / `key >= 3` strings. */
export function formatConditions(conditions: Conditions): string[] {
  return Object.entries(conditions).map(([key, condition]) => formatCondition(key, condition as Condition));
}

/** @internal An action's effects as `key = value` / `key += 2` strings (function effects list their keys). */
export function formatEffects(action: ActionSpec): string[] {
  const effects = action.staticEffects;
  if (!effects) return [...action.effectKeys].map((key) => `${key} = (computed)`);
  return Object.entries(effects).map(([key, effect]) => formatEffect(key, effect as Effect));
}

/** @internal A goal as readable lines: its conditions, or each subgoal of a MultiGoal with the mode first. */
export function describeGoal(goal: GoalLike | MultiGoal): string[] {
  if (goal instanceof MultiGoal) {
    return [`${goal.mode} of ${goal.goals.length} goals:`, ...goal.goals.map((g, i) => `  ${i + 1}. ${goalConditions(g).join(" and ")}`)];
  }
  return goalConditions(goal);
}

function goalConditions(goal: GoalLike): string[] {
  return formatConditions(goal instanceof GoalSpec ? goal.conditions : goal);
}
