/**
 * Relaxed-reachability heuristics over compiled atoms (one condition on one
 * key). A generalized Dijkstra computes, per state, the cost of making each
 * atom true when deletes are ignored and numeric effects are counted by how
 * often they must repeat:
 *
 * - `hmax` takes the max over preconditions and, for one-sided numeric
 *   atoms, at least `deficit × cheapest cost-per-unit` — both lower bounds,
 *   so it is admissible and A* stays cost-optimal;
 * - `hadd` sums preconditions and multiplies by repetitions;
 * - `hff` extracts a relaxed plan from `hadd`'s best supporters.
 *
 * Soundness: an atom is declared unreachable (Infinity) only when no
 * sequence of actions could make it true, so Infinity prunes safely.
 */

import type { WorldState } from "../core/index.js";
import { type CompiledProblem, EFFECT_ADD, EFFECT_ASSIGN, OP_EQ, OP_GT, OP_GTE, OP_LT, OP_LTE, passTests } from "./compile.js";
import { CostHeap } from "./cost-heap.js";
import { LmCut } from "./lmcut.js";
import { OperatorCounting } from "./operator-counting.js";
import { PACE_EVERY, type Pace, runUnpaced, unpaced } from "./pace.js";
import type { HeuristicName } from "./types.js";

const KIND_ASSIGN = 0;
const KIND_ADD = 1;
const KIND_ANY = 2;

/** Evaluates a heuristic on rows of a compiled problem. */
export interface Heuristic {
  readonly name: HeuristicName;
  /**
   * Estimated cost to the goal from the row at `offset`; Infinity = dead
   * end; NaN = the search's deadline (see `beginSearch`) passed during the
   * evaluation, and the search must end: a value never depends on time.
   */
  evaluate(row: Float64Array, offset: number): number;
  /**
   * A lower bound on the cost to the goal after action `action` from the
   * state evaluated last (0 when it knows none better): lets a lazy search
   * key a child without evaluating it.
   */
  childEstimate?(action: number): number;
  /**
   * Starts a search that ends by `deadline` (a `performance.now()` time): a
   * heuristic that remembers per-node data (LM-cut's landmarks) forgets the
   * last search's, and an evaluation still running at the deadline returns
   * NaN (the search then ends) instead of a partial value.
   */
  beginSearch?(deadline: number): void;
  /**
   * The value of search node `node`, reached from node `parent` (-1 for
   * the root) by action `action`, for heuristics that reuse what they found
   * at the parent; `evaluate` for the others.
   */
  evaluateNode?(row: Float64Array, offset: number, node: number, parent: number, action: number): number;
}

interface NumericAtomInfo {
  /** +1: needs the value raised (gt/gte); -1: lowered (lt/lte); 0: other. */
  readonly direction: number;
  readonly bound: number;
}

/** Shared precomputation for every relaxed heuristic of one problem. */
export class RelaxedModel {
  readonly p: CompiledProblem;
  readonly nAtoms: number;
  readonly nActions: number;
  // CSR: actions that need atom i as a precondition.
  readonly preOfStart: Int32Array;
  readonly preOfActions: Int32Array;
  readonly preCount: Int32Array;
  /** Actions without preconditions: enabled at the start of every relaxation. */
  private readonly freeActions: Int32Array;
  // CSR: atoms each action may make true.
  readonly achStart: Int32Array;
  readonly achAtom: Int32Array;
  readonly achKind: Uint8Array;
  readonly achDelta: Float64Array;
  /** Cost used for admissible bounds (0 for cost functions). */
  readonly costLow: Float64Array;
  /** Cost used for estimates (cost functions evaluated at the start). */
  readonly costEstimate: Float64Array;
  readonly numericInfo: (NumericAtomInfo | null)[];
  /** Per slot: cheapest non-additive writer (assign/function), cost per unit up and down. */
  readonly slotAssignCost: Float64Array;
  readonly slotRatioUp: Float64Array;
  readonly slotRatioDown: Float64Array;
  readonly isGoalAtom: Uint8Array;

  // Scratch buffers reused across evaluations.
  readonly cost: Float64Array;
  readonly done: Uint8Array;
  readonly remaining: Int32Array;
  readonly agg: Float64Array;
  readonly supporter: Int32Array;
  readonly supporterReps: Float64Array;
  /** Slot and value of atoms that are one equality test (fast path), else -1. */
  private readonly simpleSlot: Int32Array;
  private readonly simpleValue: Float64Array;
  /** Per atom: +1/-1 for one-sided numeric bounds (else 0), the bound, and the slot. */
  private readonly atomDirection: Int8Array;
  private readonly atomBound: Float64Array;
  private readonly atomSlot: Int32Array;
  private readonly goalAtomCount: number;
  private readonly zeroStack: Int32Array;
  private readonly heap: CostHeap;

  /**
   * @param parts the structure derived from the problem alone; built here
   * unless a caller built it in slices ({@link relaxedModelSteps})
   */
  constructor(p: CompiledProblem, startRow: Float64Array, parts: RelaxedParts = runUnpaced(relaxedParts(p, unpaced()))) {
    this.p = p;
    const nAtoms = p.atoms.length;
    const nActions = p.actions.length;
    this.nAtoms = nAtoms;
    this.nActions = nActions;
    this.preCount = parts.preCount;
    this.preOfStart = parts.preOfStart;
    this.preOfActions = parts.preOfActions;
    this.freeActions = parts.freeActions;
    this.costLow = new Float64Array(nActions);
    this.costEstimate = new Float64Array(nActions);
    this.rebindStart(startRow);
    this.numericInfo = parts.numericInfo;
    this.slotAssignCost = parts.slotAssignCost;
    this.slotRatioUp = parts.slotRatioUp;
    this.slotRatioDown = parts.slotRatioDown;
    this.achStart = parts.achStart;
    this.achAtom = parts.achAtom;
    this.achKind = parts.achKind;
    this.achDelta = parts.achDelta;

    this.isGoalAtom = new Uint8Array(nAtoms);
    for (const g of p.goalAtoms) this.isGoalAtom[g] = 1;

    this.cost = new Float64Array(nAtoms);
    this.done = new Uint8Array(nAtoms);
    this.remaining = new Int32Array(nActions);
    this.agg = new Float64Array(nActions);
    this.supporter = new Int32Array(nAtoms);
    this.supporterReps = new Float64Array(nAtoms);
    this.simpleSlot = new Int32Array(nAtoms).fill(-1);
    this.simpleValue = new Float64Array(nAtoms);
    p.atoms.forEach((atom, i) => {
      // The `===` fast path only for codes: numbers compare with numbersEqual's tolerance (in passTests).
      if (atom.testEnd - atom.testStart === 1 && p.testOp[atom.testStart] === OP_EQ && !p.numeric[atom.key]) {
        this.simpleSlot[i] = atom.key;
        this.simpleValue[i] = p.testArg[atom.testStart] as number;
      }
    });
    this.atomDirection = Int8Array.from(this.numericInfo, (info) => info?.direction ?? 0);
    this.atomBound = Float64Array.from(this.numericInfo, (info) => info?.bound ?? 0);
    this.atomSlot = Int32Array.from(p.atoms, (atom) => atom.key);
    this.goalAtomCount = this.isGoalAtom.reduce((n, g) => n + g, 0);
    this.zeroStack = new Int32Array(nAtoms);
    this.heap = new CostHeap(nAtoms * 4);
  }

  /** Sets `out[i]` to 1 when atom `i` holds in the row, else 0. */
  /** True when no atom tests a numeric fact and every effect assigns a value: relaxation is plain reachability of atoms. */
  hasOnlyPlainAtoms(): boolean {
    return this.numericInfo.every((info) => info === null) && this.achKind.every((kind) => kind === KIND_ASSIGN);
  }

  fillHolds(row: Float64Array, offset: number, out: Uint8Array): void {
    const { p, simpleSlot, simpleValue } = this;
    for (let i = 0; i < this.nAtoms; i++) {
      const slot = simpleSlot[i] as number;
      if (slot >= 0) out[i] = row[offset + slot] === simpleValue[i] ? 1 : 0;
      else {
        const atom = p.atoms[i]!;
        out[i] = passTests(p, row, offset, atom.testStart, atom.testEnd) ? 1 : 0;
      }
    }
  }

  /** Re-estimates function costs at a new start state (used when a compiled problem is reused). */
  rebindStart(startRow: Float64Array): void {
    const p = this.p;
    let startState: WorldState | null = null;
    for (const a of p.actions) {
      if (a.staticCost >= 0) {
        this.costLow[a.index] = a.staticCost;
        this.costEstimate[a.index] = a.staticCost;
      } else {
        let estimate = 1;
        try {
          startState ??= p.decodeState(startRow, 0);
          estimate = a.spec.getCost(startState);
        } catch {
          // A cost that cannot be evaluated at the start is estimated as 1.
        }
        this.costEstimate[a.index] = estimate;
      }
    }
  }

  /**
   * Fills `cost` with relaxed atom costs for the row. `mode`: 0 = max
   * (admissible), 1 = sum. Returns the number of goal atoms left unreached.
   */
  relax(row: Float64Array, offset: number, mode: 0 | 1, stopAtGoals: boolean): number {
    const p = this.p;
    const { cost, done, remaining, agg, supporter, simpleSlot, simpleValue, isGoalAtom, preOfStart, preOfActions, preCount } = this;
    const nAtoms = this.nAtoms;
    const heap = this.heap;
    heap.size = 0;
    // Atoms true in the state cost 0: they are processed first from a plain
    // stack, so the heap only ever holds atoms that need achieving.
    const zero = this.zeroStack;
    let zeroTop = 0;
    let goalsLeft = this.goalAtomCount;
    for (let i = 0; i < nAtoms; i++) {
      done[i] = 0;
      supporter[i] = -1;
      const slot = simpleSlot[i] as number;
      let holds: boolean;
      if (slot >= 0) holds = row[offset + slot] === simpleValue[i];
      else {
        const atom = p.atoms[i]!;
        holds = passTests(p, row, offset, atom.testStart, atom.testEnd);
      }
      if (holds) {
        cost[i] = 0;
        zero[zeroTop++] = i;
      } else {
        cost[i] = Number.POSITIVE_INFINITY;
      }
    }
    remaining.set(preCount);
    agg.fill(0);
    const free = this.freeActions;
    for (let i = 0; i < free.length; i++) this.enable(free[i] as number, row, offset, mode);
    for (;;) {
      let atom: number;
      let c: number;
      if (zeroTop > 0) {
        atom = zero[--zeroTop] as number;
        c = 0;
        if (done[atom]) continue;
      } else if (heap.size > 0) {
        heap.pop();
        atom = heap.poppedItem;
        c = heap.poppedCost;
        if (done[atom] || c > (cost[atom] as number)) continue;
      } else break;
      done[atom] = 1;
      if (isGoalAtom[atom] && --goalsLeft === 0 && stopAtGoals) return 0;
      const end = preOfStart[atom + 1] as number;
      if (mode === 0) {
        for (let k = preOfStart[atom] as number; k < end; k++) {
          const a = preOfActions[k] as number;
          if (c > (agg[a] as number)) agg[a] = c;
          if (--remaining[a] === 0) this.enable(a, row, offset, 0);
        }
      } else {
        for (let k = preOfStart[atom] as number; k < end; k++) {
          const a = preOfActions[k] as number;
          agg[a] = (agg[a] as number) + c;
          if (--remaining[a] === 0) this.enable(a, row, offset, 1);
        }
      }
    }
    return goalsLeft;
  }

  private enable(a: number, row: Float64Array, offset: number, mode: 0 | 1): void {
    const base = this.agg[a] as number;
    const { achAtom, done, cost, atomDirection, atomSlot } = this;
    const end = this.achStart[a + 1] as number;
    if (mode === 0) {
      const own = (this.costLow[a] as number) + base;
      for (let k = this.achStart[a] as number; k < end; k++) {
        const atom = achAtom[k] as number;
        if (done[atom]) continue;
        let c = own;
        const direction = atomDirection[atom] as number;
        if (direction !== 0) {
          const slot = atomSlot[atom] as number;
          const bound = this.numericLowerBound(slot, direction, this.atomBound[atom] as number, row[offset + slot] as number);
          if (bound > c) c = bound;
        }
        // hmax needs no supporters (only hff reads them).
        if (c < (cost[atom] as number)) {
          cost[atom] = c;
          this.heap.push(atom, c);
        }
      }
      return;
    }
    const estimate = this.costEstimate[a] as number;
    for (let k = this.achStart[a] as number; k < end; k++) {
      const atom = achAtom[k] as number;
      if (done[atom]) continue;
      let reps = 1;
      const direction = atomDirection[atom] as number;
      if (direction !== 0 && this.achKind[k] === KIND_ADD) {
        const v = row[offset + (atomSlot[atom] as number)] as number;
        const deficit = ((this.atomBound[atom] as number) - (Number.isNaN(v) ? 0 : v)) * direction;
        if (deficit > 0) reps = Math.max(1, Math.ceil(deficit / Math.abs(this.achDelta[k] as number) - 1e-9));
      }
      const c = estimate * reps + base;
      if (c < (cost[atom] as number)) {
        cost[atom] = c;
        this.supporter[atom] = a;
        this.supporterReps[atom] = reps;
        this.heap.push(atom, c);
      }
    }
  }

  /** Admissible bound for a one-sided numeric atom: cheapest assignment, or deficit × cheapest cost per unit. */
  numericLowerBound(slot: number, direction: number, bound: number, value: number): number {
    const current = Number.isNaN(value) ? 0 : value;
    const deficit = (bound - current) * direction;
    if (deficit <= 0) return 0;
    const ratio = direction > 0 ? (this.slotRatioUp[slot] as number) : (this.slotRatioDown[slot] as number);
    return Math.min(this.slotAssignCost[slot] as number, deficit * ratio);
  }
}

/** The part of a {@link RelaxedModel} derived from the problem alone. @internal */
export interface RelaxedParts {
  readonly preCount: Int32Array;
  readonly preOfStart: Int32Array;
  readonly preOfActions: Int32Array;
  readonly freeActions: Int32Array;
  readonly numericInfo: (NumericAtomInfo | null)[];
  readonly slotAssignCost: Float64Array;
  readonly slotRatioUp: Float64Array;
  readonly slotRatioDown: Float64Array;
  readonly achStart: Int32Array;
  readonly achAtom: Int32Array;
  readonly achKind: Uint8Array;
  readonly achDelta: Float64Array;
}

/** Builds a {@link RelaxedModel} in slices (see `Pace`): on a domain of 100,000 actions its structure takes seconds. @internal */
export function* relaxedModelSteps(p: CompiledProblem, startRow: Float64Array, pace: Pace): Generator<void, RelaxedModel, void> {
  const parts = yield* relaxedParts(p, pace);
  return new RelaxedModel(p, startRow, parts);
}

/**
 * The problem-only structure of the relaxation: which actions need each
 * atom (CSR), which atoms each action may make true and how (CSR), and per
 * slot the cheapest assignment and cost per unit of change. Flat arrays
 * filled in two passes (count, then place) rather than a list per atom and
 * an object per achiever, which on large domains cost more in garbage
 * collection than the work itself.
 */
function* relaxedParts(p: CompiledProblem, pace: Pace): Generator<void, RelaxedParts, void> {
  const nAtoms = p.atoms.length;
  const nActions = p.actions.length;
  const nSlots = p.factCount;
  // Preconditions: each action's distinct atoms (lists are short; duplicates are rare).
  const preCount = new Int32Array(nActions);
  const preOfStart = new Int32Array(nAtoms + 1);
  const distinct = (pre: Int32Array, k: number): boolean => {
    for (let j = 0; j < k; j++) if (pre[j] === pre[k]) return false;
    return true;
  };
  for (let i = 0; i < nActions; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const pre = p.actions[i]!.preAtoms;
    let n = 0;
    for (let k = 0; k < pre.length; k++) {
      if (!distinct(pre, k)) continue;
      n++;
      preOfStart[(pre[k] as number) + 1]++;
    }
    preCount[i] = n;
  }
  for (let a = 0; a < nAtoms; a++) preOfStart[a + 1] = (preOfStart[a + 1] as number) + (preOfStart[a] as number);
  const preOfActions = new Int32Array(preOfStart[nAtoms] as number);
  const fill = preOfStart.slice(0, nAtoms);
  let free = 0;
  for (let i = 0; i < nActions; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const pre = p.actions[i]!.preAtoms;
    for (let k = 0; k < pre.length; k++) {
      if (!distinct(pre, k)) continue;
      const atom = pre[k] as number;
      preOfActions[fill[atom] as number] = i;
      fill[atom] = (fill[atom] as number) + 1;
    }
    if (preCount[i] === 0) free++;
  }
  const freeActions = new Int32Array(free);
  free = 0;
  for (let i = 0; i < nActions; i++) if (preCount[i] === 0) freeActions[free++] = i;

  // Atoms by slot (CSR), for matching effects to the atoms they can make true.
  const bySlotStart = new Int32Array(p.width + 1);
  for (const atom of p.atoms) bySlotStart[atom.key + 1]++;
  for (let s = 0; s < p.width; s++) bySlotStart[s + 1] = (bySlotStart[s + 1] as number) + (bySlotStart[s] as number);
  const bySlot = new Int32Array(nAtoms);
  const slotFill = bySlotStart.slice(0, p.width);
  const numericInfo: (NumericAtomInfo | null)[] = new Array(nAtoms);
  for (let i = 0; i < nAtoms; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const atom = p.atoms[i]!;
    bySlot[slotFill[atom.key] as number] = i;
    slotFill[atom.key] = (slotFill[atom.key] as number) + 1;
    numericInfo[i] = numericInfoOf(p, atom.testStart, atom.testEnd, atom.key);
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
    preOfStart,
    preOfActions,
    freeActions,
    numericInfo,
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

/** Builds the named heuristic for a compiled problem. */
/** hmax and the operator-counting bound of numeric net change, the larger of the two (both admissible). */
export function opcountHeuristic(counting: OperatorCounting, p: CompiledProblem, model: RelaxedModel): Heuristic {
  return {
    name: "opcount",
    evaluate: (row, offset) => {
      if (model.relax(row, offset, 0, true) > 0) return Number.POSITIVE_INFINITY;
      let h = 0;
      for (const g of p.goalAtoms) h = Math.max(h, model.cost[g] as number);
      return Math.max(h, counting.evaluate(row, offset));
    },
  };
}

/** The LM-cut heuristic over an {@link LmCut} (which a compiled problem may keep across searches). */
export function lmcutHeuristic(lmcut: LmCut): Heuristic {
  return {
    name: "lmcut",
    evaluate: (row, offset) => lmcut.evaluate(row, offset),
    childEstimate: (action) => lmcut.childEstimate(action),
    beginSearch: (deadline) => lmcut.beginSearch(deadline),
    evaluateNode: (row, offset, node, parent, action) => lmcut.evaluateNode(row, offset, node, parent, action),
  };
}

export function createHeuristic(name: HeuristicName, p: CompiledProblem, model: RelaxedModel): Heuristic {
  switch (name) {
    case "zero":
      return { name, evaluate: () => 0 };
    case "goal-count":
      return {
        name,
        evaluate: (row, offset) => {
          let n = 0;
          for (const g of p.goalAtoms) {
            const atom = p.atoms[g]!;
            if (!passTests(p, row, offset, atom.testStart, atom.testEnd)) n++;
          }
          return n;
        },
      };
    case "hmax":
      return {
        name,
        evaluate: (row, offset) => {
          if (model.relax(row, offset, 0, true) > 0) return Number.POSITIVE_INFINITY;
          let h = 0;
          for (const g of p.goalAtoms) h = Math.max(h, model.cost[g] as number);
          return h;
        },
      };
    case "lmcut":
      return lmcutHeuristic(new LmCut(p, model));
    case "opcount":
      return opcountHeuristic(new OperatorCounting(p, model), p, model);
    case "hadd":
      return {
        name,
        evaluate: (row, offset) => {
          if (model.relax(row, offset, 1, true) > 0) return Number.POSITIVE_INFINITY;
          let h = 0;
          for (const g of new Set(p.goalAtoms)) h += model.cost[g] as number;
          return h;
        },
      };
    case "hff": {
      const repsUsed = new Float64Array(p.actions.length);
      const visited = new Uint8Array(p.atoms.length);
      const stack: number[] = [];
      return {
        name,
        evaluate: (row, offset) => {
          if (model.relax(row, offset, 1, true) > 0) return Number.POSITIVE_INFINITY;
          repsUsed.fill(0);
          visited.fill(0);
          let h = 0;
          for (const g of p.goalAtoms) stack.push(g);
          while (stack.length > 0) {
            const atom = stack.pop() as number;
            if (visited[atom]) continue;
            visited[atom] = 1;
            if ((model.cost[atom] as number) === 0) continue;
            const a = model.supporter[atom] as number;
            if (a < 0) continue;
            const reps = model.supporterReps[atom] as number;
            if ((repsUsed[a] as number) < reps) {
              h += (model.costEstimate[a] as number) * (reps - (repsUsed[a] as number));
              repsUsed[a] = reps;
            }
            for (const pre of p.actions[a]!.preAtoms) if (!visited[pre]) stack.push(pre);
          }
          return h;
        },
      };
    }
    default:
      throw new Error(`unknown heuristic ${String(name)}`);
  }
}

/** Relaxed reachability from a row: which atoms and actions can ever become true/applicable. */
export function relaxedReachability(model: RelaxedModel, row: Float64Array): { atomReachable: boolean[]; actionReachable: boolean[] } {
  model.relax(row, 0, 0, false);
  const atomReachable = Array.from(model.cost, (c) => c < Number.POSITIVE_INFINITY);
  const actionReachable = Array.from(model.remaining, (r) => r === 0);
  return { atomReachable, actionReachable };
}
