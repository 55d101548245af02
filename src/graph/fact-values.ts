import {
  type ActionSpec,
  type Condition,
  type Conditions,
  describeValue,
  type Effect,
  type GoalSpec,
  isNumericCondition,
  isOperatorCondition,
  isOperatorEffect,
  MultiGoal,
  type WorldState,
} from "../core/index.js";
import type { GoalData } from "./goal-data.js";
import type { NodeRuntime } from "./runtime.js";

/**
 * @internal What a domain says about its facts' types: the planning keys,
 * those every mention of which is a number (a comparison, `inc`/`dec`, a
 * number literal), and those some mention of which is not.
 */
export interface FactTypes {
  readonly planning: ReadonlySet<string>;
  readonly numeric: ReadonlySet<string>;
  readonly nonNumeric: ReadonlySet<string>;
}

interface MutableFactTypes {
  planning: Set<string>;
  numeric: Set<string>;
  nonNumeric: Set<string>;
}

function noteLiteral(types: MutableFactTypes, key: string, value: unknown): void {
  if (value === null || value === undefined) return;
  (typeof value === "number" ? types.numeric : types.nonNumeric).add(key);
}

function noteConditions(types: MutableFactTypes, conditions: Conditions): void {
  for (const [key, condition] of Object.entries(conditions) as [string, Condition][]) {
    types.planning.add(key);
    if (!isOperatorCondition(condition)) {
      noteLiteral(types, key, condition);
      continue;
    }
    if (isNumericCondition(condition)) types.numeric.add(key);
    for (const value of [condition.eq, condition.ne, ...(condition.in ?? [])]) noteLiteral(types, key, value);
  }
}

function noteEffect(types: MutableFactTypes, key: string, effect: Effect): void {
  if (!isOperatorEffect(effect)) noteLiteral(types, key, effect);
  else if (effect.set !== undefined) noteLiteral(types, key, effect.set);
  else types.numeric.add(key);
}

const byActions = new WeakMap<readonly ActionSpec[], FactTypes>();

/**
 * @internal The fact types that `actions` (and the goal conditions) imply.
 * Actions are scanned once per list; goal conditions are added per call.
 */
export function factTypes(actions: readonly ActionSpec[], goalConditions: readonly Conditions[] = []): FactTypes {
  let base = byActions.get(actions);
  if (!base) {
    const types: MutableFactTypes = { planning: new Set(), numeric: new Set(), nonNumeric: new Set() };
    for (const action of actions) {
      noteConditions(types, action.preconditions);
      for (const key of action.effectKeys) types.planning.add(key);
      const effects = action.staticEffects;
      if (effects) for (const [key, effect] of Object.entries(effects)) noteEffect(types, key, effect);
    }
    base = types;
    byActions.set(actions, base);
  }
  if (goalConditions.length === 0) return base;
  const types: MutableFactTypes = {
    planning: new Set(base.planning),
    numeric: new Set(base.numeric),
    nonNumeric: new Set(base.nonNumeric),
  };
  for (const conditions of goalConditions) noteConditions(types, conditions);
  return types;
}

/** A value a fact cannot hold, named for an error message. */
export interface BadFactValue {
  readonly key: string;
  readonly value: unknown;
  readonly expected: string;
}

/**
 * @internal The first value in `after` that its fact cannot hold, among the
 * keys that differ from `before`: `NaN` or an infinite number anywhere (a
 * world state holds JSON values, and checkpoints could not keep them), and
 * anything but a finite number or `null` in a number fact. A planning key
 * is a number fact when the domain only ever uses it as one, or when no
 * mention says otherwise and it held a number before.
 */
export function findBadFactValue(after: Readonly<WorldState>, before: Readonly<WorldState>, types: FactTypes): BadFactValue | null {
  for (const key of Object.keys(after)) {
    const value = after[key];
    if (Object.is(value, before[key]) || value === null || value === undefined) continue;
    if (typeof value === "number") {
      if (!Number.isFinite(value)) return { key, value, expected: "a finite number" };
      continue;
    }
    if (!types.planning.has(key) || types.nonNumeric.has(key)) continue;
    if (types.numeric.has(key) || typeof before[key] === "number") return { key, value, expected: "a finite number (it is a number fact)" };
  }
  return null;
}

/** @internal `who set "key" to value; expected ...`, e.g. `action "chop" set "wood" to NaN; expected a finite number`. */
export function describeBadFactValue(who: string, bad: BadFactValue): string {
  return `${who} set "${bad.key}" to ${describeValue(bad.value)}; expected ${bad.expected}`;
}

/** @internal The fact types of a node's actions and the run's goal (every subgoal of a MultiGoal). */
export function factTypesOfRun(runtime: NodeRuntime, goal: GoalData | null): FactTypes {
  if (!goal) return factTypes(runtime.actions);
  let restored: GoalSpec | MultiGoal;
  try {
    restored = runtime.goals.restore(goal);
  } catch {
    // A goal that cannot be restored fails elsewhere, loudly; the actions alone still type the facts.
    return factTypes(runtime.actions);
  }
  let byGoal = byRunGoal.get(runtime.actions);
  if (!byGoal) {
    byGoal = new WeakMap();
    byRunGoal.set(runtime.actions, byGoal);
  }
  let types = byGoal.get(restored);
  if (!types) {
    const goals = restored instanceof MultiGoal ? restored.goals : [restored];
    types = factTypes(
      runtime.actions,
      goals.map((g) => g.conditions),
    );
    byGoal.set(restored, types);
  }
  return types;
}

/** The fact types of a run by its action list and live goal: the same for each of its steps, computed at its first. */
const byRunGoal = new WeakMap<readonly ActionSpec[], WeakMap<GoalSpec | MultiGoal, FactTypes>>();
