/**
 * The first job of compiling: one slot per planning key (goal, preconditions
 * and effects, in the order first seen) and whether the slot stores numbers
 * (every value seen for it is a number) or interned codes.
 * @internal
 */
import type { ActionSpec } from "../core/action.js";
import { type Condition, isOperatorCondition } from "../core/conditions.js";
import { type Effect, isOperatorEffect } from "../core/effects.js";
import { factOf, type WorldState } from "../core/facts.js";
import type { SearchGoal } from "../core/search-goal.js";
import { PACE_EVERY, type Pace } from "./pace.js";

export interface Slots {
  readonly keys: readonly string[];
  readonly keyIndex: ReadonlyMap<string, number>;
  readonly factCount: number;
  /** 1 when a slot is numeric. */
  readonly numeric: Uint8Array;
}

/** Calls `see` with each value a condition compares a fact with (no arrays: compiling runs cold, once per problem). */
function seeConditionValues(condition: Condition, see: (value: unknown) => void): void {
  if (!isOperatorCondition(condition)) {
    see(condition);
    return;
  }
  if (condition.eq !== undefined) see(condition.eq);
  if (condition.ne !== undefined) see(condition.ne);
  const list = condition.in;
  if (list !== undefined) for (let i = 0; i < list.length; i++) see(list[i]);
}

/** Calls `see` with the value an effect assigns, if it assigns one. */
function seeEffectValue(effect: Effect, see: (value: unknown) => void): void {
  if (!isOperatorEffect(effect)) see(effect);
  else if (effect.set !== undefined) see(effect.set);
}

/** The slots of a problem, in slices (see `Pace`). */
export function* slotsSteps(
  start: Readonly<WorldState>,
  goal: SearchGoal,
  actions: readonly ActionSpec[],
  pace: Pace,
): Generator<void, Slots, void> {
  const keys: string[] = [];
  const keyIndex = new Map<string, number>();
  const add = (key: string) => {
    if (!keyIndex.has(key)) {
      keyIndex.set(key, keys.length);
      keys.push(key);
    }
  };
  // Indexed loops over key arrays, not `for … of` over entries or sets: this code runs once per problem, cold,
  // where each iterator step allocates, and the garbage is GC pauses in the caller's thread (with compile-tests.ts
  // and compile-actions.ts: 55 MB allocated by planning the wide world of 10,000 facts for 2 s before, 28 MB after).
  const goalKeys = Object.keys(goal.conditions);
  for (let j = 0; j < goalKeys.length; j++) add(goalKeys[j] as string);
  for (let i = 0; i < actions.length; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const a = actions[i] as ActionSpec;
    const preKeys = Object.keys(a.preconditions);
    for (let j = 0; j < preKeys.length; j++) add(preKeys[j] as string);
    const effects = a.staticEffects;
    if (effects) {
      const effectKeys = Object.keys(effects);
      for (let j = 0; j < effectKeys.length; j++) add(effectKeys[j] as string);
    } else for (const k of a.effectKeys) add(k);
  }
  const factCount = keys.length;

  const sawNonNumber = new Uint8Array(factCount);
  const note = (key: string, value: unknown) => {
    const slot = keyIndex.get(key);
    if (slot !== undefined && value !== undefined && typeof value !== "number") sawNonNumber[slot] = 1;
  };
  for (let i = 0; i < factCount; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const k = keys[i] as string;
    note(k, factOf(start, k));
  }
  let noting = "";
  const noteValue = (value: unknown) => note(noting, value);
  for (let j = 0; j < goalKeys.length; j++) {
    noting = goalKeys[j] as string;
    seeConditionValues(goal.conditions[noting] as Condition, noteValue);
  }
  for (let i = 0; i < actions.length; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const a = actions[i] as ActionSpec;
    const preKeys = Object.keys(a.preconditions);
    for (let j = 0; j < preKeys.length; j++) {
      noting = preKeys[j] as string;
      seeConditionValues(a.preconditions[noting] as Condition, noteValue);
    }
    const effects = a.staticEffects;
    if (!effects) continue;
    const effectKeys = Object.keys(effects);
    for (let j = 0; j < effectKeys.length; j++) {
      noting = effectKeys[j] as string;
      seeEffectValue(effects[noting] as Effect, noteValue);
    }
  }
  const numeric = new Uint8Array(factCount);
  for (let i = 0; i < factCount; i++) numeric[i] = sawNonNumber[i] ? 0 : 1;
  return { keys, keyIndex, factCount, numeric };
}
