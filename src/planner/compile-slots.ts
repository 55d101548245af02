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
import type { GoalSpec } from "../core/goal.js";
import { PACE_EVERY, type Pace } from "./pace.js";

export interface Slots {
  readonly keys: readonly string[];
  readonly keyIndex: ReadonlyMap<string, number>;
  readonly factCount: number;
  /** 1 when a slot is numeric. */
  readonly numeric: Uint8Array;
}

function conditionValues(condition: Condition): unknown[] {
  if (!isOperatorCondition(condition)) return [condition];
  const out: unknown[] = [];
  if (condition.eq !== undefined) out.push(condition.eq);
  if (condition.ne !== undefined) out.push(condition.ne);
  if (condition.in !== undefined) out.push(...condition.in);
  return out;
}

function effectValues(effect: Effect): unknown[] {
  if (!isOperatorEffect(effect)) return [effect];
  return effect.set !== undefined ? [effect.set] : [];
}

/** The slots of a problem, in slices (see `Pace`). */
export function* slotsSteps(
  start: Readonly<WorldState>,
  goal: GoalSpec,
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
  for (const k of Object.keys(goal.conditions)) add(k);
  for (let i = 0; i < actions.length; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const a = actions[i] as ActionSpec;
    for (const k of Object.keys(a.preconditions)) add(k);
    for (const k of a.effectKeys) add(k);
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
  for (const [k, c] of Object.entries(goal.conditions)) for (const v of conditionValues(c)) note(k, v);
  for (let i = 0; i < actions.length; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const a = actions[i] as ActionSpec;
    for (const [k, c] of Object.entries(a.preconditions)) for (const v of conditionValues(c)) note(k, v);
    const effects = a.staticEffects;
    if (effects) for (const [k, e] of Object.entries(effects)) for (const v of effectValues(e)) note(k, v);
  }
  const numeric = new Uint8Array(factCount);
  for (let i = 0; i < factCount; i++) numeric[i] = sawNonNumber[i] ? 0 : 1;
  return { keys, keyIndex, factCount, numeric };
}
