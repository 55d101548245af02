/**
 * Problem-only data of the Float64-row representation (search-float.ts),
 * built once per compiled problem and kept in its workspace: the
 * precondition index that narrows an expansion's candidate actions, and
 * the per-slot keys of the rows' Zobrist hash.
 * @internal
 */
import { createRng } from "../core/rng.js";
import { type CompiledProblem, OP_EQ } from "./compiled-problem.js";
import { PACE_EVERY, type Pace, runUnpaced, unpaced } from "./pace.js";
import type { SearchSetup } from "./search-setup.js";

/** Actions bucketed by one equality test on a categorical slot; `always` lists the others. */
export interface PreconditionIndex {
  readonly always: Int32Array;
  readonly slots: Int32Array;
  readonly buckets: Int32Array[][];
}

export interface FloatDerived {
  readonly index: PreconditionIndex;
  readonly zLo: Int32Array;
  readonly zHi: Int32Array;
  /** Scratch: an expansion's candidate actions. */
  readonly candidates: Int32Array;
  /** Scratch for reading a float's bits when hashing. */
  readonly conv: Float64Array;
  readonly convBits: Int32Array;
}

function* indexSteps(p: CompiledProblem, pace: Pace): Generator<void, PreconditionIndex, void> {
  const always: number[] = [];
  const bySlot = new Map<number, number[][]>();
  for (let i = 0; i < p.actions.length; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const a = p.actions[i] as CompiledProblem["actions"][number];
    let indexed = false;
    for (let t = a.testStart; t < a.testEnd; t++) {
      const slot = p.testKey[t] as number;
      if (p.testOp[t] === OP_EQ && slot < p.factCount && !p.numeric[slot]) {
        const code = p.testArg[t] as number;
        const lists = bySlot.get(slot) ?? [];
        while (lists.length <= code) lists.push([]);
        (lists[code] as number[]).push(a.index);
        bySlot.set(slot, lists);
        indexed = true;
        break;
      }
    }
    if (!indexed) always.push(a.index);
  }
  const slots = Int32Array.from(bySlot.keys());
  const buckets = [...bySlot.values()].map((lists) => lists.map((l) => Int32Array.from(l)));
  return { always: Int32Array.from(always), slots, buckets };
}

/** The problem's derived data, built at its first float search unless {@link floatDerivedSteps} built it before. */
export function floatDerivedOf(setup: SearchSetup): FloatDerived {
  const cached = setup.workspace.floatDerived as FloatDerived | undefined;
  if (cached) return cached;
  const derived = runUnpaced(floatDerivedSteps(setup.p, unpaced()));
  setup.workspace.floatDerived = derived;
  return derived;
}

/** The problem's derived data in slices (see `Pace`): on a domain of many actions the index takes milliseconds. */
export function* floatDerivedSteps(p: CompiledProblem, pace: Pace): Generator<void, FloatDerived, void> {
  const index = yield* indexSteps(p, pace);
  yield* pace.check();
  const zobristRng = createRng(0x5eed);
  const conv = new Float64Array(1);
  return {
    index,
    zLo: Int32Array.from({ length: p.width }, () => (zobristRng.next() * 4294967296) | 0),
    zHi: Int32Array.from({ length: p.width }, () => (zobristRng.next() * 4294967296) | 0),
    candidates: new Int32Array(p.actions.length),
    conv,
    convBits: new Int32Array(conv.buffer),
  };
}

/**
 * `index` without the actions relevance analysis left out (`relevant[a] === 0`):
 * an expansion then never gathers them (on a wide world of distractor
 * actions that is nearly all of them). Linear in the index.
 */
export function relevantIndexOf(index: PreconditionIndex, relevant: Uint8Array): PreconditionIndex {
  const keep = (list: Int32Array) => list.filter((a) => relevant[a] === 1);
  return { always: keep(index.always), slots: index.slots, buckets: index.buckets.map((lists) => lists.map(keep)) };
}

/**
 * Fills `out` with the actions whose indexed test holds in the row at
 * `rowBase` (and the unindexed ones), in specificity order (action index
 * order); returns how many.
 */
export function gatherCandidates(index: PreconditionIndex, arena: Float64Array, rowBase: number, out: Int32Array): number {
  let nc = 0;
  const always = index.always;
  for (let i = 0; i < always.length; i++) out[nc++] = always[i] as number;
  const slots = index.slots;
  for (let s = 0; s < slots.length; s++) {
    const code = arena[rowBase + (slots[s] as number)] as number;
    const lists = index.buckets[s] as Int32Array[];
    if (code >= 0 && code < lists.length) {
      const bucket = lists[code] as Int32Array;
      for (let i = 0; i < bucket.length; i++) out[nc++] = bucket[i] as number;
    }
  }
  if (slots.length === 0) return nc;
  // Back into specificity order: insertion sort for the usual handful, the native sort when many actions are
  // candidates (unless they are in order already, as on long chains where most actions apply).
  if (nc > 32) {
    let sorted = true;
    for (let i = 1; i < nc && sorted; i++) sorted = (out[i - 1] as number) < (out[i] as number);
    if (!sorted) out.subarray(0, nc).sort();
  } else {
    for (let i = 1; i < nc; i++) {
      const v = out[i] as number;
      let j = i - 1;
      while (j >= 0 && (out[j] as number) > v) {
        out[j + 1] = out[j] as number;
        j--;
      }
      out[j + 1] = v;
    }
  }
  return nc;
}
