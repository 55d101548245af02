/**
 * The delete relaxation of a compiled problem over its atoms (one
 * condition on one key): a generalized Dijkstra computes, per state, the
 * cost of making each atom true when deletes are ignored and numeric
 * effects are counted by how often they must repeat. `mode` 0 takes the
 * max over preconditions and, for one-sided numeric atoms, at least
 * `deficit × cheapest cost per unit` (both lower bounds: hmax, admissible);
 * mode 1 sums them and multiplies by repetitions (hadd, and hff's best
 * supporters). The relaxed heuristics and LM-cut are built on it. Its
 * problem-only structure is built by `relaxed-parts.ts`, its action costs
 * bound to the start by `relaxed-costs.ts`.
 *
 * Soundness: an atom is declared unreachable (Infinity) only when no
 * sequence of actions could make it true, so Infinity prunes safely.
 * @internal
 */
import { type CompiledProblem, passTests } from "../compiled-problem.js";
import { CostQueue } from "../cost-queue.js";
import { type Pace, runUnpaced, unpaced } from "../pace.js";
import { bindRelaxedCosts, boundRelaxedCostsSteps } from "./relaxed-costs.js";
import { KIND_ADD, KIND_ASSIGN, type NumericAtomInfo, type RelaxedParts, relaxedParts } from "./relaxed-parts.js";

/** {@link RelaxedModel.relaxResume}: the relaxation is not done yet. */
export const RELAX_PAUSED = -1;
/** Units of work between two readings of the clock in {@link RelaxedModel.relaxUntil} (tens of microseconds). */
const RELAX_STEP_WORK = 256;
/** Phases of a relaxation: marking the atoms true in the row, enabling actions without preconditions, exploring, done. */
const RX_MARK = 0;
const RX_FREE = 1;
const RX_EXPLORE = 2;
const RX_DONE = 3;

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
  /** Cost used for admissible bounds (0 for cost functions; see `relaxed-costs.ts`). */
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
  private readonly heap: CostQueue;
  /** See {@link hasOnlyPlainAtoms}. */
  private readonly plainAtoms: boolean;
  // The relaxation in progress (see relaxStart): its row, how it aggregates, and where it is.
  #rxRow: Float64Array = new Float64Array(0);
  #rxOffset = 0;
  #rxMode: 0 | 1 = 0;
  #rxStopAtGoals = false;
  #rxPhase = RX_DONE;
  /** The next atom to mark (RX_MARK) or free action to enable (RX_FREE). */
  #rxAt = 0;
  #rxZeroTop = 0;
  #rxGoalsLeft = 0;

  /**
   * @param parts the structure derived from the problem alone; built here
   * unless a caller built it in slices ({@link relaxedModelSteps})
   * @param costs the action costs bound to `startRow`, when a caller bound them in slices
   */
  constructor(
    p: CompiledProblem,
    startRow: Float64Array,
    parts: RelaxedParts = runUnpaced(relaxedParts(p, unpaced())),
    costs?: { readonly low: Float64Array; readonly estimate: Float64Array },
  ) {
    this.p = p;
    const nAtoms = p.atoms.length;
    const nActions = p.actions.length;
    this.nAtoms = nAtoms;
    this.nActions = nActions;
    this.preCount = parts.preCount;
    this.preOfStart = parts.preOfStart;
    this.preOfActions = parts.preOfActions;
    this.freeActions = parts.freeActions;
    this.costLow = costs?.low ?? new Float64Array(nActions);
    this.costEstimate = costs?.estimate ?? new Float64Array(nActions);
    if (!costs) this.rebindStart(startRow);
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
    // Per-atom tables come built (in slices) with the parts: a wide domain's atoms run cold here, at tens of ms.
    this.simpleSlot = parts.simpleSlot;
    this.simpleValue = parts.simpleValue;
    this.atomDirection = parts.atomDirection;
    this.atomBound = parts.atomBound;
    this.atomSlot = parts.atomSlot;
    let goalAtomCount = 0;
    for (let i = 0; i < nAtoms; i++) goalAtomCount += this.isGoalAtom[i] as number;
    this.goalAtomCount = goalAtomCount;
    this.zeroStack = new Int32Array(nAtoms);
    this.heap = new CostQueue(nAtoms * 4);
    this.plainAtoms = this.hasOnlyPlainAtoms();
    this.heap.integerCosts = this.#integerCosts();
  }

  /** True when every relaxed cost is a sum of integer action costs: no numeric bound (a ratio) enters any. */
  #integerCosts(): boolean {
    if (!this.plainAtoms) return false;
    for (let a = 0; a < this.nActions; a++) {
      if (!Number.isInteger(this.costLow[a]) || !Number.isInteger(this.costEstimate[a])) return false;
    }
    return true;
  }

  /** True when no atom tests a numeric fact and every effect assigns a value: relaxation is plain reachability of atoms. */
  hasOnlyPlainAtoms(): boolean {
    return this.numericInfo.every((info) => info === null) && this.achKind.every((kind) => kind === KIND_ASSIGN);
  }

  /** Sets `out[i]` to 1 when atom `i` holds in the row, else 0. */
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
    bindRelaxedCosts(this.p, startRow, this.costLow, this.costEstimate);
    // Not yet built while the constructor binds the first start.
    if (this.heap) this.heap.integerCosts = this.#integerCosts();
  }

  /**
   * Fills `cost` with relaxed atom costs for the row. `mode`: 0 = max
   * (admissible), 1 = sum. Returns the number of goal atoms left unreached.
   */
  relax(row: Float64Array, offset: number, mode: 0 | 1, stopAtGoals: boolean): number {
    this.relaxStart(row, offset, mode, stopAtGoals);
    return this.relaxResume(Number.POSITIVE_INFINITY);
  }

  /**
   * Starts {@link relax} without running it: {@link relaxResume} runs it,
   * all at once or in parts (a wide domain's relaxation takes tens of ms,
   * and an asynchronous search evaluates its root in slices). Until it is
   * done, the row must not change and the model must run no other relaxation.
   */
  relaxStart(row: Float64Array, offset: number, mode: 0 | 1, stopAtGoals: boolean): void {
    this.#rxRow = row;
    this.#rxOffset = offset;
    this.#rxMode = mode;
    this.#rxStopAtGoals = stopAtGoals;
    this.#rxPhase = RX_MARK;
    this.#rxAt = 0;
    this.#rxZeroTop = 0;
    this.#rxGoalsLeft = this.goalAtomCount;
    this.heap.clear();
  }

  /**
   * Runs the relaxation {@link relaxStart} started for about `work` units
   * (an atom looked at, an action enabled, an atom settled with each action
   * it is a precondition of): returns {@link relax}'s value when it is done,
   * or {@link RELAX_PAUSED}. The values are the same however it is divided.
   */
  relaxResume(work: number): number {
    if (this.#rxPhase === RX_DONE) return this.#rxGoalsLeft;
    const p = this.p;
    const { cost, done, remaining, agg, supporter, simpleSlot, simpleValue, isGoalAtom, preOfStart, preOfActions, preCount } = this;
    const row = this.#rxRow;
    const offset = this.#rxOffset;
    const mode = this.#rxMode;
    const nAtoms = this.nAtoms;
    const heap = this.heap;
    // Atoms true in the state cost 0: they are processed first from a plain
    // stack, so the heap only ever holds atoms that need achieving.
    const zero = this.zeroStack;
    let zeroTop = this.#rxZeroTop;
    let goalsLeft = this.#rxGoalsLeft;
    let units = 0;
    if (this.#rxPhase === RX_MARK) {
      const from = this.#rxAt;
      const to = Math.min(nAtoms, from + work);
      for (let i = from; i < to; i++) {
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
      units = to - from;
      this.#rxZeroTop = zeroTop;
      if (to < nAtoms) {
        this.#rxAt = to;
        return RELAX_PAUSED;
      }
      remaining.set(preCount);
      agg.fill(0);
      this.#rxPhase = RX_FREE;
      this.#rxAt = 0;
    }
    if (this.#rxPhase === RX_FREE) {
      const free = this.freeActions;
      let i = this.#rxAt;
      for (; i < free.length; i++) {
        if (units >= work) {
          this.#rxAt = i;
          return RELAX_PAUSED;
        }
        this.enable(free[i] as number, row, offset, mode);
        units++;
      }
      this.#rxPhase = RX_EXPLORE;
    }
    for (;;) {
      if (units >= work) {
        this.#rxZeroTop = zeroTop;
        this.#rxGoalsLeft = goalsLeft;
        return RELAX_PAUSED;
      }
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
      if (isGoalAtom[atom] && --goalsLeft === 0 && this.#rxStopAtGoals) break;
      const start = preOfStart[atom] as number;
      const end = preOfStart[atom + 1] as number;
      units += 1 + end - start;
      if (mode === 0) {
        for (let k = start; k < end; k++) {
          const a = preOfActions[k] as number;
          if (c > (agg[a] as number)) agg[a] = c;
          if (--remaining[a] === 0) this.enable(a, row, offset, 0);
        }
      } else {
        for (let k = start; k < end; k++) {
          const a = preOfActions[k] as number;
          agg[a] = (agg[a] as number) + c;
          if (--remaining[a] === 0) this.enable(a, row, offset, 1);
        }
      }
    }
    this.#rxPhase = RX_DONE;
    this.#rxGoalsLeft = goalsLeft;
    return goalsLeft;
  }

  /**
   * {@link relaxResume} until the relaxation is done (its value) or
   * `performance.now()` passes `sliceEnd` ({@link RELAX_PAUSED}).
   */
  relaxUntil(sliceEnd: number): number {
    if (sliceEnd === Number.POSITIVE_INFINITY) return this.relaxResume(sliceEnd);
    for (;;) {
      const left = this.relaxResume(RELAX_STEP_WORK);
      if (left !== RELAX_PAUSED || performance.now() >= sliceEnd) return left;
    }
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

  /**
   * hmax of the goal: the costliest goal atom's relaxed cost (admissible),
   * Infinity when a goal atom is unreachable. Leaves the atoms' costs in
   * `cost` (to the goal atoms).
   */
  goalHmax(row: Float64Array, offset: number): number {
    return this.goalHmaxAfter(this.relax(row, offset, 0, true));
  }

  /** {@link goalHmax} from a finished relaxation of mode 0 that left `goalsLeft` goal atoms unreached. */
  goalHmaxAfter(goalsLeft: number): number {
    if (goalsLeft > 0) return Number.POSITIVE_INFINITY;
    const cost = this.cost;
    let h = 0;
    for (const g of this.p.goalAtoms) h = Math.max(h, cost[g] as number);
    return h;
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

/** Builds a {@link RelaxedModel} in slices (see `Pace`): on a domain of 100,000 actions its structure takes seconds. */
export function* relaxedModelSteps(p: CompiledProblem, startRow: Float64Array, pace: Pace): Generator<void, RelaxedModel, void> {
  const parts = yield* relaxedParts(p, pace);
  const costs = yield* boundRelaxedCostsSteps(p, startRow, pace);
  yield* pace.check();
  return new RelaxedModel(p, startRow, parts, costs);
}

/** Relaxed reachability from a row: which atoms and actions can ever become true/applicable. */
export function relaxedReachability(model: RelaxedModel, row: Float64Array): { atomReachable: boolean[]; actionReachable: boolean[] } {
  model.relax(row, 0, 0, false);
  const atomReachable = Array.from(model.cost, (c) => c < Number.POSITIVE_INFINITY);
  const actionReachable = Array.from(model.remaining, (r) => r === 0);
  return { atomReachable, actionReachable };
}
