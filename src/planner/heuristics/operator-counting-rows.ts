/**
 * The rows of the operator-counting program (`operator-counting.ts`), built
 * once per compiled problem: which numeric facts it counts (those only
 * constant `inc`/`dec` effects change), the goal's bounds on them, each
 * action's net change of them, and the bounds their moves never cross.
 * @internal
 */
import { equalitySlack } from "../../core/numeric-equality.js";
import {
  type CompiledProblem,
  EFFECT_ADD,
  EFFECT_ASSIGN,
  EFFECT_DECODED_ADD,
  OP_EQ,
  OP_GT,
  OP_GTE,
  OP_LT,
  OP_LTE,
} from "../compiled-problem.js";

/** Larger programs are not built: a pivot costs actions × (rows + actions), so 64 keeps an evaluation well under 1 ms. */
const MAX_ACTIONS = 64;

/** One row of the program: a bound on a counted fact's final value. */
export interface Row {
  readonly slot: number;
  /** +1: the fact must end at least `bound`; -1: at most `bound`. */
  readonly sense: 1 | -1;
  /** The goal's bound, if the goal bounds the fact this way. */
  readonly goalBound: number | null;
}

/** Two rows (floor and ceiling) per counted fact, with the goal's bounds; none beyond `MAX_ACTIONS` actions. */
export function programRows(p: CompiledProblem): Row[] {
  // Beyond MAX_ACTIONS there is no program, so the slots are not looked for (a pass over every effect of a wide domain).
  if (p.actions.length > MAX_ACTIONS) return [];
  const countable = countableSlots(p);
  const rows: Row[] = [];
  const goalLow = new Map<number, number>();
  const goalHigh = new Map<number, number>();
  for (let t = p.goalTestStart; t < p.goalTestEnd; t++) {
    const slot = p.testKey[t] as number;
    if (!countable.has(slot)) continue;
    const op = p.testOp[t];
    const arg = p.testArg[t] as number;
    // An equality holds within numbersEqual's tolerance: the program keeps that range open (admissible).
    const slack = op === OP_EQ ? equalitySlack(arg) : 0;
    if (op === OP_GT || op === OP_GTE || op === OP_EQ) goalLow.set(slot, Math.max(goalLow.get(slot) ?? -Infinity, arg - slack));
    if (op === OP_LT || op === OP_LTE || op === OP_EQ) goalHigh.set(slot, Math.min(goalHigh.get(slot) ?? Infinity, arg + slack));
  }
  for (const slot of countable) {
    rows.push({ slot, sense: 1, goalBound: goalLow.get(slot) ?? null });
    rows.push({ slot, sense: -1, goalBound: goalHigh.get(slot) ?? null });
  }
  return rows;
}

/** Numeric fact slots that only constant `inc`/`dec` effects write (so their final value is linear in the counts). */
function countableSlots(p: CompiledProblem): Set<number> {
  const written = new Set<number>();
  const excluded = new Set<number>();
  for (const a of p.actions) {
    if (a.dynamicEffects) for (const slot of a.dynamicKeys) excluded.add(slot);
    for (let e = a.effectStart; e < a.effectEnd; e++) {
      const slot = p.effectKey[e] as number;
      if (slot >= p.factCount) continue;
      const op = p.effectOp[e];
      if (op === EFFECT_ADD && p.numeric[slot] === 1) written.add(slot);
      else if (op === EFFECT_ASSIGN || op === EFFECT_DECODED_ADD || p.numeric[slot] !== 1) excluded.add(slot);
    }
  }
  return new Set([...written].filter((slot) => !excluded.has(slot)));
}

/** Each action's net change of `slot` per application. */
export function deltasOf(p: CompiledProblem, slot: number): Float64Array {
  const delta = new Float64Array(p.actions.length);
  for (const a of p.actions)
    for (let e = a.effectStart; e < a.effectEnd; e++)
      if (p.effectKey[e] === slot && p.effectOp[e] === EFFECT_ADD) delta[a.index] = (delta[a.index] as number) + (p.effectArg[e] as number);
  return delta;
}

/**
 * The bound `slot` never crosses by the actions moving it (sense +1: a
 * floor, −1: a ceiling): every action moving it that way needs it on the far
 * side of a limit first, so it stops at that limit plus the change;
 * ∓Infinity when some action moves it that way unconditioned. The fact's
 * value at a search's start bounds it too (see `rebind`).
 */
export function movedBound(p: CompiledProblem, slot: number, sense: 1 | -1, delta: Float64Array): number {
  const none = sense === 1 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  let kept = none;
  for (const a of p.actions) {
    const change = delta[a.index] as number;
    if (change * sense >= 0) continue;
    // The action's own precondition limit on the slot in the direction it moves.
    let limit = -none;
    for (let t = a.testStart; t < a.testEnd; t++) {
      if (p.testKey[t] !== slot) continue;
      const op = p.testOp[t];
      const arg = p.testArg[t] as number;
      const slack = op === OP_EQ ? equalitySlack(arg) : 0;
      if (sense === 1 && (op === OP_GTE || op === OP_GT || op === OP_EQ)) limit = Math.max(limit, arg - slack);
      if (sense === -1 && (op === OP_LTE || op === OP_LT || op === OP_EQ)) limit = Math.min(limit, arg + slack);
    }
    if (!Number.isFinite(limit)) return -none;
    kept = sense === 1 ? Math.min(kept, limit + change) : Math.max(kept, limit + change);
  }
  return kept;
}
