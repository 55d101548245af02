/**
 * Compiles the actions: each gets its precondition test range (plus the
 * "not used yet" test of a `canRerun: false` action), its static effects as
 * (slot, opcode, argument) entries of the effect pool, and the slots a
 * function effect may write. A `canRerun: false` action gets an extra 0/1
 * slot after the fact slots, so "used on this path" is part of the
 * searched state.
 * @internal
 */
import type { ActionSpec } from "../core/action.js";
import { isOperatorEffect } from "../core/effects.js";
import type { Slots } from "./compile-slots.js";
import type { TestPool } from "./compile-tests.js";
import type { ValueCodes } from "./compile-values.js";
import { type CompiledAction, EFFECT_ADD, EFFECT_ASSIGN, EFFECT_DECODED_ADD, OP_EQ } from "./compiled-problem.js";
import { PACE_EVERY, type Pace } from "./pace.js";

export interface CompiledActions {
  readonly actions: CompiledAction[];
  /** Row width: fact slots plus once-bits. */
  readonly width: number;
  readonly effectKey: Int32Array;
  readonly effectOp: Uint8Array;
  readonly effectArg: Float64Array;
  /** True when some action has a cost or effect function (they read decoded states). */
  readonly userReads: boolean;
}

/** Compiles `actions` in the order given, in slices (see `Pace`). */
export function* compileActionsSteps(
  actions: readonly ActionSpec[],
  { keyIndex, factCount, numeric }: Slots,
  codes: ValueCodes,
  tests: TestPool,
  pace: Pace,
): Generator<void, CompiledActions, void> {
  let width = factCount;
  let userReads = false;
  const effectKey: number[] = [];
  const effectOp: number[] = [];
  const effectArg: number[] = [];
  const compiled: CompiledAction[] = [];
  for (let index = 0; index < actions.length; index++) {
    if (index % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const spec = actions[index] as ActionSpec;
    const onceSlot = spec.canRerun ? -1 : width++;
    const pre = tests.conditions(spec.preconditions);
    if (onceSlot >= 0) tests.push(onceSlot, OP_EQ, 0);
    const testEnd = tests.size;
    const effectStart = effectKey.length;
    const effects = spec.staticEffects;
    let dynamicKeys: Int32Array;
    if (effects) {
      // Plain loops and typed arrays filled in place: this runs once per problem, cold, where iterators and
      // `Int32Array.from` allocate per step (garbage the caller's thread pays for in GC pauses on large worlds).
      const keys = Object.keys(effects);
      dynamicKeys = new Int32Array(keys.length);
      for (let j = 0; j < keys.length; j++) {
        const k = keys[j] as string;
        const effect = effects[k];
        const slot = keyIndex.get(k) as number;
        dynamicKeys[j] = slot;
        effectKey.push(slot);
        if (isOperatorEffect(effect) && effect.set === undefined) {
          effectOp.push(numeric[slot] ? EFFECT_ADD : EFFECT_DECODED_ADD);
          effectArg.push(effect.inc !== undefined ? effect.inc : -(effect.dec as number));
        } else {
          effectOp.push(EFFECT_ASSIGN);
          effectArg.push(codes.encode(slot, isOperatorEffect(effect) ? effect.set : effect));
        }
      }
    } else {
      dynamicKeys = new Int32Array(spec.effectKeys.size);
      let j = 0;
      for (const k of spec.effectKeys) dynamicKeys[j++] = keyIndex.get(k) as number;
    }
    const preAtoms = new Int32Array(pre.atoms.length);
    for (let j = 0; j < preAtoms.length; j++) preAtoms[j] = pre.atoms[j] as number;
    if (onceSlot >= 0) {
      effectKey.push(onceSlot);
      effectOp.push(EFFECT_ASSIGN);
      effectArg.push(1);
    }
    const staticCost = typeof spec.cost === "number" ? spec.cost : -1;
    if (spec.hasDynamicEffects || staticCost < 0) userReads = true;
    compiled.push({
      index,
      spec,
      testStart: pre.start,
      testEnd,
      preAtoms,
      effectStart,
      effectEnd: effectKey.length,
      dynamicEffects: spec.hasDynamicEffects,
      dynamicKeys,
      staticCost,
      onceSlot,
    });
  }
  return {
    actions: compiled,
    width,
    effectKey: Int32Array.from(effectKey),
    effectOp: Uint8Array.from(effectOp),
    effectArg: Float64Array.from(effectArg),
    userReads,
  };
}
