/**
 * The problem-only structure of the relaxation (the part of a
 * `RelaxedModel` that does not depend on the state): which actions need
 * each atom, which atoms each action may make true and how, and per slot
 * the cheapest assignment and cost per unit of change. Built in slices
 * (see `Pace`): on a domain of 100,000 actions it takes seconds.
 * @internal
 */
import { type CompiledProblem, EFFECT_ADD, EFFECT_ASSIGN, OP_EQ, OP_GT, OP_GTE, OP_LT, OP_LTE, passTests } from "../compiled-problem.js";
import { csrSteps, invertCsr } from "../csr.js";
import { PACE_EVERY, type Pace } from "../pace.js";

/** An achiever assigns the atom's value. */
export const KIND_ASSIGN = 0;
/** An achiever adds to the atom's numeric fact. */
export const KIND_ADD = 1;
/** An achiever may make the atom true in a way the model does not follow (a function effect, `inc` on a category). */
export const KIND_ANY = 2;

export interface NumericAtomInfo {
  /** +1: needs the value raised (gt/gte); -1: lowered (lt/lte); 0: other. */
  readonly direction: number;
  readonly bound: number;
}

export interface RelaxedParts {
  readonly preCount: Int32Array;
  /** CSR: the actions that need atom i as a precondition. */
  readonly preOfStart: Int32Array;
  readonly preOfActions: Int32Array;
  /** Actions without preconditions. */
  readonly freeActions: Int32Array;
  readonly numericInfo: (NumericAtomInfo | null)[];
  /** Per atom: its slot, and +1/-1 for one-sided numeric bounds (else 0) with the bound. */
  readonly atomSlot: Int32Array;
  readonly atomDirection: Int8Array;
  readonly atomBound: Float64Array;
  /** Per atom: slot and code of an atom that is one equality test on a category (fast path), else -1. */
  readonly simpleSlot: Int32Array;
  readonly simpleValue: Float64Array;
  /** Per slot: cheapest non-additive writer (assign/function), cost per unit up and down. */
  readonly slotAssignCost: Float64Array;
  readonly slotRatioUp: Float64Array;
  readonly slotRatioDown: Float64Array;
  /** CSR: the atoms each action may make true, how (KIND_*) and by how much (for KIND_ADD). */
  readonly achStart: Int32Array;
  readonly achAtom: Int32Array;
  readonly achKind: Uint8Array;
  readonly achDelta: Float64Array;
}

export function* relaxedParts(p: CompiledProblem, pace: Pace): Generator<void, RelaxedParts, void> {
  const nAtoms = p.atoms.length;
  const nActions = p.actions.length;
  const nSlots = p.factCount;
  // Preconditions: each action's distinct atoms (lists are short; duplicates are rare), then who needs each atom.
  const distinctPre = yield* csrSteps(
    nActions,
    (i, emit) => {
      const pre = p.actions[i]!.preAtoms;
      for (let k = 0; k < pre.length; k++) {
        let seen = false;
        for (let j = 0; j < k && !seen; j++) seen = pre[j] === pre[k];
        if (!seen) emit(pre[k] as number);
      }
    },
    pace,
  );
  const preCount = new Int32Array(nActions);
  for (let i = 0; i < nActions; i++) preCount[i] = (distinctPre.start[i + 1] as number) - (distinctPre.start[i] as number);
  const needs = invertCsr(distinctPre, nAtoms);
  yield* pace.check();
  let free = 0;
  for (let i = 0; i < nActions; i++) if (preCount[i] === 0) free++;
  const freeActions = new Int32Array(free);
  free = 0;
  for (let i = 0; i < nActions; i++) if (preCount[i] === 0) freeActions[free++] = i;

  // Atoms by slot, for matching effects to the atoms they can make true.
  const slotOf = yield* csrSteps(nAtoms, (i, emit) => emit(p.atoms[i]!.key), pace);
  const { start: bySlotStart, items: bySlot } = invertCsr(slotOf, p.width);
  const numericInfo: (NumericAtomInfo | null)[] = new Array(nAtoms);
  const atomSlot = new Int32Array(nAtoms);
  const atomDirection = new Int8Array(nAtoms);
  const atomBound = new Float64Array(nAtoms);
  const simpleSlot = new Int32Array(nAtoms).fill(-1);
  const simpleValue = new Float64Array(nAtoms);
  for (let i = 0; i < nAtoms; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const atom = p.atoms[i]!;
    const info = numericInfoOf(p, atom.testStart, atom.testEnd, atom.key);
    numericInfo[i] = info;
    atomSlot[i] = atom.key;
    atomDirection[i] = info?.direction ?? 0;
    atomBound[i] = info?.bound ?? 0;
    // The `===` fast path only for codes: numbers compare with numbersEqual's tolerance (in passTests).
    if (atom.testEnd - atom.testStart === 1 && p.testOp[atom.testStart] === OP_EQ && !p.numeric[atom.key]) {
      simpleSlot[i] = atom.key;
      simpleValue[i] = p.testArg[atom.testStart] as number;
    }
  }

  const slotAssignCost = new Float64Array(nSlots).fill(Number.POSITIVE_INFINITY);
  const slotRatioUp = new Float64Array(nSlots).fill(Number.POSITIVE_INFINITY);
  const slotRatioDown = new Float64Array(nSlots).fill(Number.POSITIVE_INFINITY);
  const probe = new Float64Array(p.width).fill(Number.NaN);
  const achStart = new Int32Array(nActions + 1);
  const achAtom: number[] = [];
  const achKind: number[] = [];
  const achDelta: number[] = [];
  const push = (atom: number, kind: number, delta: number) => {
    achAtom.push(atom);
    achKind.push(kind);
    achDelta.push(delta);
  };
  for (let i = 0; i < nActions; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const a = p.actions[i]!;
    achStart[i] = achAtom.length;
    // Admissible bounds use static costs; a cost function counts as 0 (as `rebindStart` sets costLow).
    const low = Math.max(a.staticCost, 0);
    for (let e = a.effectStart; e < a.effectEnd; e++) {
      const slot = p.effectKey[e] as number;
      if (slot >= nSlots) continue; // once-bit
      const op = p.effectOp[e];
      const arg = p.effectArg[e] as number;
      const first = bySlotStart[slot] as number;
      const last = bySlotStart[slot + 1] as number;
      if (op === EFFECT_ASSIGN) {
        slotAssignCost[slot] = Math.min(slotAssignCost[slot] as number, low);
        probe[slot] = arg;
        for (let k = first; k < last; k++) {
          const atom = bySlot[k] as number;
          const at = p.atoms[atom]!;
          if (passTests(p, probe, 0, at.testStart, at.testEnd)) push(atom, KIND_ASSIGN, 0);
        }
        probe[slot] = Number.NaN;
      } else if (op === EFFECT_ADD) {
        if (arg > 0) slotRatioUp[slot] = Math.min(slotRatioUp[slot] as number, low / arg);
        if (arg < 0) slotRatioDown[slot] = Math.min(slotRatioDown[slot] as number, low / -arg);
        if (arg === 0) continue;
        for (let k = first; k < last; k++) {
          const atom = bySlot[k] as number;
          const info = numericInfo[atom];
          // One-sided bounds are only ever made true by moves in their direction.
          if (info && info.direction !== 0 && Math.sign(arg) !== info.direction) continue;
          push(atom, KIND_ADD, arg);
        }
      } else {
        slotAssignCost[slot] = Math.min(slotAssignCost[slot] as number, low);
        for (let k = first; k < last; k++) push(bySlot[k] as number, KIND_ANY, 0);
      }
    }
    if (a.dynamicEffects) {
      for (const slot of a.dynamicKeys) {
        slotAssignCost[slot] = Math.min(slotAssignCost[slot] as number, low);
        for (let k = bySlotStart[slot] as number; k < (bySlotStart[slot + 1] as number); k++) push(bySlot[k] as number, KIND_ANY, 0);
      }
    }
  }
  achStart[nActions] = achAtom.length;
  return {
    preCount,
    preOfStart: needs.start,
    preOfActions: needs.items,
    freeActions,
    numericInfo,
    atomSlot,
    atomDirection,
    atomBound,
    simpleSlot,
    simpleValue,
    slotAssignCost,
    slotRatioUp,
    slotRatioDown,
    achStart,
    achAtom: Int32Array.from(achAtom),
    achKind: Uint8Array.from(achKind),
    achDelta: Float64Array.from(achDelta),
  };
}

function numericInfoOf(p: CompiledProblem, start: number, end: number, slot: number): NumericAtomInfo | null {
  if (!p.numeric[slot]) return null;
  let up = false;
  let down = false;
  let other = false;
  let bound = 0;
  for (let t = start; t < end; t++) {
    const op = p.testOp[t];
    if (op === OP_GT || op === OP_GTE) {
      up = true;
      bound = p.testArg[t] as number;
    } else if (op === OP_LT || op === OP_LTE) {
      down = true;
      bound = p.testArg[t] as number;
    } else if (op === OP_EQ) {
      other = true;
    } else {
      other = true;
    }
  }
  if (up && !down && !other) return { direction: 1, bound };
  if (down && !up && !other) return { direction: -1, bound };
  return { direction: 0, bound: 0 };
}
