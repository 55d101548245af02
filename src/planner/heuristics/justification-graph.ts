/**
 * LM-cut's justification graph (Helmert & Domshlak, 2009) over the relaxed
 * model's atoms, with an artificial init atom (the precondition of actions
 * without one) and goal action: hmax under the current action costs with
 * each action's precondition choice (its costliest precondition), the
 * incremental hmax update after a cut's actions got cheaper, and the cut
 * itself. `landmark-cut.ts` runs the rounds. Buffers are allocated once;
 * nothing is allocated per evaluation.
 * @internal
 */
import type { CompiledProblem } from "../compile.js";
import { CostHeap } from "../cost-heap.js";
import { type Csr, csrOf, invertCsr } from "../csr.js";
import type { RelaxedModel } from "./relaxed-model.js";

/** Costs below this count as spent (costs are sums and differences of floats). */
export const EPSILON = 1e-9;

export class JustificationGraph {
  readonly #nAtoms: number;
  readonly #init: number;
  readonly #goal: number;
  /** The artificial goal action's index (one past the last action). */
  readonly goalAction: number;
  /** Work units one round (a cut and the hmax update after it) costs at most: the atoms plus the actions. */
  readonly roundWork: number;
  // Forward lists, with the init atom and goal action.
  readonly #preStart: Int32Array;
  readonly #preAtom: Int32Array;
  readonly #preCount: Int32Array;
  readonly #effStart: Int32Array;
  readonly #effAtom: Int32Array;
  // Inverse lists: actions needing an atom, and actions achieving it.
  readonly #needStart: Int32Array;
  readonly #needAction: Int32Array;
  readonly #achStart: Int32Array;
  readonly #achAction: Int32Array;
  /** The action costs of the current evaluation (a cut's cost is taken off its actions). */
  readonly cost: Float64Array;
  /** Per atom: 1 when it holds in the evaluated state (the caller fills it). */
  readonly holds: Uint8Array;
  /** The last cut's actions (see {@link findCut}). */
  readonly cut: Int32Array;
  readonly #hmax: Float64Array;
  readonly #done: Uint8Array;
  readonly #remaining: Int32Array;
  readonly #pcf: Int32Array;
  // The graph's out-edges: per atom, a doubly linked list of the actions whose precondition choice it is.
  readonly #supHead: Int32Array;
  readonly #supNext: Int32Array;
  readonly #supPrev: Int32Array;
  readonly #goalZone: Uint8Array;
  readonly #reached: Uint8Array;
  readonly #inCut: Uint8Array;
  readonly #stack: Int32Array;
  readonly #heap: CostHeap;

  constructor(p: CompiledProblem, model: RelaxedModel) {
    const nAtoms = p.atoms.length;
    const nActions = p.actions.length;
    this.#nAtoms = nAtoms;
    this.#init = nAtoms;
    this.#goal = nAtoms + 1;
    this.goalAction = nActions;
    const goalAtoms = Int32Array.from(new Set(p.goalAtoms));

    // Each action's distinct preconditions (the init atom for none) and distinct achieved atoms, in first-seen order
    // (precondition choices break ties by this order); the goal action needs the goal atoms and achieves the goal.
    const stamp = new Int32Array(nAtoms + 2);
    let visit = 0;
    const distinct = (emit: (item: number) => void) => {
      const mark = ++visit;
      return (atom: number) => {
        if (stamp[atom] === mark) return;
        stamp[atom] = mark;
        emit(atom);
      };
    };
    const pre: Csr = csrOf(nActions + 1, (a, emit) => {
      const add = distinct(emit);
      const list = a < nActions ? p.actions[a]!.preAtoms : goalAtoms;
      for (let k = 0; k < list.length; k++) add(list[k] as number);
      if (list.length === 0) add(nAtoms);
    });
    const eff: Csr = csrOf(nActions + 1, (a, emit) => {
      const add = distinct(emit);
      if (a === nActions) add(nAtoms + 1);
      else for (let k = model.achStart[a] as number; k < (model.achStart[a + 1] as number); k++) add(model.achAtom[k] as number);
    });
    this.#preStart = pre.start;
    this.#preAtom = pre.items;
    this.#effStart = eff.start;
    this.#effAtom = eff.items;
    this.#preCount = Int32Array.from({ length: nActions + 1 }, (_, a) => (pre.start[a + 1] as number) - (pre.start[a] as number));
    const width = nAtoms + 2;
    ({ start: this.#needStart, items: this.#needAction } = invertCsr(pre, width));
    ({ start: this.#achStart, items: this.#achAction } = invertCsr(eff, width));
    this.cost = new Float64Array(nActions + 1);
    this.#hmax = new Float64Array(width);
    this.#done = new Uint8Array(width);
    this.#remaining = new Int32Array(nActions + 1);
    this.#pcf = new Int32Array(nActions + 1);
    this.#supHead = new Int32Array(width);
    this.#supNext = new Int32Array(nActions + 1);
    this.#supPrev = new Int32Array(nActions + 1);
    this.holds = new Uint8Array(nAtoms);
    this.#goalZone = new Uint8Array(width);
    this.#reached = new Uint8Array(width);
    this.#inCut = new Uint8Array(nActions + 1);
    this.#stack = new Int32Array(width);
    this.cut = new Int32Array(nActions + 1);
    this.#heap = new CostHeap(width * 2);
    this.roundWork = width + nActions + 1;
  }

  /**
   * hmax under the current costs, explored to the end (actions past the goal
   * may still cross into the goal zone); records each action's precondition
   * choice, its costliest precondition.
   */
  computeHmax(): number {
    const hm = this.#hmax;
    const done = this.#done;
    const nAtoms = this.#nAtoms;
    hm.fill(Number.POSITIVE_INFINITY);
    done.fill(0);
    this.#remaining.set(this.#preCount);
    this.#pcf.fill(-1);
    this.#supHead.fill(-1);
    this.#heap.size = 0;
    for (let i = 0; i < nAtoms; i++) {
      if (this.holds[i] === 1) {
        hm[i] = 0;
        this.#heap.push(i, 0);
      }
    }
    hm[this.#init] = 0;
    this.#heap.push(this.#init, 0);
    const needStart = this.#needStart;
    const needAction = this.#needAction;
    const effStart = this.#effStart;
    const effAtom = this.#effAtom;
    const cost = this.cost;
    const remaining = this.#remaining;
    const heap = this.#heap;
    while (heap.size > 0) {
      heap.pop();
      const atom = heap.poppedItem;
      const c = heap.poppedCost;
      if (done[atom] === 1 || c > (hm[atom] as number)) continue;
      done[atom] = 1;
      for (let k = needStart[atom] as number; k < (needStart[atom + 1] as number); k++) {
        const a = needAction[k] as number;
        remaining[a] = (remaining[a] as number) - 1;
        if (remaining[a] !== 0) continue;
        // Atoms leave the queue in cost order, so the last precondition to arrive is the costliest.
        this.#pcf[a] = atom;
        this.#link(a, atom);
        const reach = c + (cost[a] as number);
        for (let e = effStart[a] as number; e < (effStart[a + 1] as number); e++) {
          const q = effAtom[e] as number;
          if (reach < (hm[q] as number)) {
            hm[q] = reach;
            this.#heap.push(q, reach);
          }
        }
      }
    }
    return hm[this.#goal] as number;
  }

  /**
   * hmax again after the cut's actions got cheaper: only what those actions
   * reach can get cheaper, so the decreases are propagated from them (costs
   * only fall, so every atom stays reachable and a precondition choice only
   * changes when the chosen precondition itself got cheaper).
   */
  updateHmax(cutSize: number): number {
    const hm = this.#hmax;
    const pcf = this.#pcf;
    const cost = this.cost;
    const heap = this.#heap;
    const supHead = this.#supHead;
    const supNext = this.#supNext;
    const preStart = this.#preStart;
    const preAtom = this.#preAtom;
    const effStart = this.#effStart;
    const effAtom = this.#effAtom;
    const cut = this.cut;
    heap.size = 0;
    for (let i = 0; i < cutSize; i++) this.#relaxEffects(cut[i] as number);
    while (heap.size > 0) {
      heap.pop();
      const q = heap.poppedItem;
      if (heap.poppedCost > (hm[q] as number)) continue;
      // The actions whose choice is q: their costliest precondition may now be another.
      for (let a = supHead[q] as number, next = -1; a >= 0; a = next) {
        next = supNext[a] as number;
        let best = q;
        const preEnd = preStart[a + 1] as number;
        for (let j = preStart[a] as number; j < preEnd; j++) {
          const x = preAtom[j] as number;
          if ((hm[x] as number) > (hm[best] as number)) best = x;
        }
        if (best !== q) {
          pcf[a] = best;
          this.#unlink(a, q);
          this.#link(a, best);
        }
        // The effects of `a` fall to its new precondition choice's cost plus its own (inlined #relaxEffects).
        const reach = (hm[best] as number) + (cost[a] as number);
        const effEnd = effStart[a + 1] as number;
        for (let e = effStart[a] as number; e < effEnd; e++) {
          const r = effAtom[e] as number;
          if (reach < (hm[r] as number) - EPSILON) {
            hm[r] = reach;
            heap.push(r, reach);
          }
        }
      }
    }
    return hm[this.#goal] as number;
  }

  /** Adds action `a` to the actions whose precondition choice is `atom`. */
  #link(a: number, atom: number): void {
    const head = this.#supHead[atom] as number;
    this.#supNext[a] = head;
    this.#supPrev[a] = -1;
    if (head >= 0) this.#supPrev[head] = a;
    this.#supHead[atom] = a;
  }

  /** Removes action `a` from the actions whose precondition choice is `atom`. */
  #unlink(a: number, atom: number): void {
    const prev = this.#supPrev[a] as number;
    const next = this.#supNext[a] as number;
    if (prev >= 0) this.#supNext[prev] = next;
    else this.#supHead[atom] = next;
    if (next >= 0) this.#supPrev[next] = prev;
  }

  /** Lowers the hmax of what action `a` achieves to its precondition choice's cost plus its own. */
  #relaxEffects(a: number): void {
    const hm = this.#hmax;
    const effStart = this.#effStart;
    const effAtom = this.#effAtom;
    const reach = (hm[this.#pcf[a] as number] as number) + (this.cost[a] as number);
    for (let e = effStart[a] as number; e < (effStart[a + 1] as number); e++) {
      const q = effAtom[e] as number;
      if (reach < (hm[q] as number) - EPSILON) {
        hm[q] = reach;
        this.#heap.push(q, reach);
      }
    }
  }

  /** The landmark of this round: actions from the zone reachable before the goal zone into it. Returns its size. */
  findCut(): number {
    const gz = this.#goalZone;
    const reached = this.#reached;
    const stack = this.#stack;
    const pcf = this.#pcf;
    const cost = this.cost;
    const achStart = this.#achStart;
    const achAction = this.#achAction;
    const supHead = this.#supHead;
    const supNext = this.#supNext;
    const effStart = this.#effStart;
    const effAtom = this.#effAtom;
    const holds = this.holds;
    const inCut = this.#inCut;
    const cut = this.cut;
    gz.fill(0);
    reached.fill(0);
    // The goal zone: atoms that reach the goal through actions that cost nothing any more.
    let top = 0;
    gz[this.#goal] = 1;
    stack[top++] = this.#goal;
    while (top > 0) {
      const q = stack[--top] as number;
      const end = achStart[q + 1] as number;
      for (let k = achStart[q] as number; k < end; k++) {
        const a = achAction[k] as number;
        if ((cost[a] as number) > EPSILON) continue;
        const from = pcf[a] as number;
        if (from < 0 || gz[from] === 1) continue;
        gz[from] = 1;
        stack[top++] = from;
      }
    }
    // Forward from the state through precondition choices, stopping at the goal zone (as Fast Downward does, an
    // action into the goal zone is cut and its other effects are not explored).
    const nAtoms = this.#nAtoms;
    for (let i = 0; i < nAtoms; i++) {
      if (holds[i] === 1 && gz[i] === 0) {
        reached[i] = 1;
        stack[top++] = i;
      }
    }
    reached[this.#init] = 1;
    stack[top++] = this.#init;
    let size = 0;
    while (top > 0) {
      const x = stack[--top] as number;
      for (let a = supHead[x] as number; a >= 0; a = supNext[a] as number) {
        const effBegin = effStart[a] as number;
        const effEnd = effStart[a + 1] as number;
        let intoZone = false;
        for (let e = effBegin; e < effEnd; e++) {
          if (gz[effAtom[e] as number] === 1) {
            intoZone = true;
            break;
          }
        }
        if (intoZone) {
          if (inCut[a] === 0) {
            inCut[a] = 1;
            cut[size++] = a;
          }
          continue;
        }
        for (let e = effBegin; e < effEnd; e++) {
          const q = effAtom[e] as number;
          if (reached[q] === 0) {
            reached[q] = 1;
            stack[top++] = q;
          }
        }
      }
    }
    for (let i = 0; i < size; i++) inCut[cut[i] as number] = 0;
    return size;
  }
}
