/**
 * The LM-cut heuristic (Helmert & Domshlak, 2009): repeatedly finds a
 * disjunctive action landmark (a cut in the justification graph of hmax),
 * adds its cheapest cost and removes that cost from the cut's actions, until
 * the relaxed goal costs nothing. Admissible, and on growing problems far
 * more informed than hmax (which counts only the costliest chain).
 *
 * It works on the relaxed model's atoms (conditions), so numeric conditions
 * are relaxed as "one application of an achiever makes it true": never more
 * than the true cost. The value is the larger of LM-cut and hmax with the
 * model's numeric bounds, both admissible.
 *
 * Buffers are allocated once per compiled problem; an evaluation allocates
 * nothing.
 */
import type { CompiledProblem } from "../compile.js";
import { CostHeap } from "../cost-heap.js";
import { type Csr, csrOf, invertCsr } from "../csr.js";
import { LandmarkStore } from "../landmark-store.js";
import type { RelaxedModel } from "./relaxed-model.js";

/** Costs below this count as spent (costs are sums and differences of floats). */
const EPSILON = 1e-9;

/**
 * Work one evaluation may spend finding cuts before it settles for the
 * landmarks found so far, in units of atoms and actions scanned: a round
 * (one cut and the hmax update after it) is counted as the atoms plus the
 * actions of the problem, what its scans cost at most. A count, not a
 * time: the value (and so the order of expansions and the plan) is the
 * same on any machine under any load. 2^19 units are 87 cuts on the
 * 3,000-step chain of the bounded bench and never bind on the scale
 * series (about 100 cuts at most there, 3,000 allowed). Measured at 55 ns
 * a unit on a 2-core machine at load 20 (29 ms for a capped evaluation),
 * a few ms when the machine is not shared. An evaluation
 * stopped by the cap still gives a lower bound (every cut found is a
 * disjoint landmark).
 */
export const EVALUATION_WORK = 1 << 19;

/** Rounds between readings of the clock against the search's deadline. */
const DEADLINE_EVERY = 4;

export class LmCut {
  readonly #model: RelaxedModel;
  readonly #goalAtoms: Int32Array;
  readonly #nAtoms: number;
  readonly #init: number;
  readonly #goal: number;
  readonly #goalAction: number;
  // Forward lists, with the artificial init atom (precondition of actions without one) and goal action.
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
  readonly #baseCost: Float64Array;
  // Scratch.
  readonly #cost: Float64Array;
  readonly #hmax: Float64Array;
  readonly #done: Uint8Array;
  readonly #remaining: Int32Array;
  readonly #pcf: Int32Array;
  // The justification graph's out-edges: per atom, a doubly linked list of the actions whose precondition choice it is.
  readonly #supHead: Int32Array;
  readonly #supNext: Int32Array;
  readonly #supPrev: Int32Array;
  readonly #holds: Uint8Array;
  readonly #goalZone: Uint8Array;
  readonly #reached: Uint8Array;
  readonly #inCut: Uint8Array;
  readonly #stack: Int32Array;
  readonly #cut: Int32Array;
  readonly #heap: CostHeap;
  /** When the current search must end: an evaluation still running past it gives up (NaN) and the search ends. */
  #deadline = Number.POSITIVE_INFINITY;
  /** Work units one round of cuts costs (see EVALUATION_WORK). */
  readonly #roundWork: number;
  /** The landmarks of the nodes evaluated in this search, by node. */
  readonly #store = new LandmarkStore();
  /** LM-cut's sum of landmark costs at the state evaluated last, or -1 when that evaluation found no landmarks. */
  #lastSum = -1;
  /** True when every atom is a plain fact test and every effect assigns: the model's hmax adds nothing. */
  readonly #atomsOnly: boolean;

  constructor(p: CompiledProblem, model: RelaxedModel) {
    this.#model = model;
    this.#atomsOnly = model.hasOnlyPlainAtoms();
    const nAtoms = p.atoms.length;
    const nActions = p.actions.length;
    this.#nAtoms = nAtoms;
    this.#init = nAtoms;
    this.#goal = nAtoms + 1;
    this.#goalAction = nActions;
    this.#goalAtoms = Int32Array.from(new Set(p.goalAtoms));

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
    const goalAtoms = this.#goalAtoms;
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
    this.#baseCost = new Float64Array(nActions + 1);
    this.#baseCost.set(model.costLow);

    this.#cost = new Float64Array(nActions + 1);
    this.#hmax = new Float64Array(width);
    this.#done = new Uint8Array(width);
    this.#remaining = new Int32Array(nActions + 1);
    this.#pcf = new Int32Array(nActions + 1);
    this.#supHead = new Int32Array(width);
    this.#supNext = new Int32Array(nActions + 1);
    this.#supPrev = new Int32Array(nActions + 1);
    this.#holds = new Uint8Array(nAtoms);
    this.#goalZone = new Uint8Array(width);
    this.#reached = new Uint8Array(width);
    this.#inCut = new Uint8Array(nActions + 1);
    this.#stack = new Int32Array(width);
    this.#cut = new Int32Array(nActions + 1);
    this.#heap = new CostHeap(width * 2);
    this.#roundWork = width + nActions + 1;
  }

  /** Takes the model's action costs again: a reused problem's cost functions are re-estimated at each new start. */
  rebindCosts(): void {
    this.#baseCost.set(this.#model.costLow);
  }

  /**
   * Forgets the landmarks remembered by an earlier search (node numbers
   * start again). `deadline` (a `performance.now()` time) is when the
   * search must end: an evaluation that passes it returns NaN instead of a
   * value, and the search stops there (the clock ends searches, it never
   * shortens an evaluation into a different value).
   */
  beginSearch(deadline = Number.POSITIVE_INFINITY): void {
    this.#store.reset();
    this.#deadline = deadline;
  }

  /**
   * The heuristic value of the row at `offset`; Infinity when the relaxed
   * goal is unreachable; NaN when the search's deadline passed during the
   * evaluation (no value: the search must end).
   */
  evaluate(row: Float64Array, offset: number): number {
    return this.#run(row, offset, -1, -1, -1);
  }

  /**
   * The value of search node `node`, reached from node `parent` by action
   * `action`: the parent's landmarks that do not contain the action are
   * still landmarks here, so the evaluation starts from them and only looks
   * for the cuts they leave; the node's landmarks are remembered for its own
   * children. A parent without remembered landmarks (or `parent` -1) means
   * a full evaluation.
   */
  evaluateNode(row: Float64Array, offset: number, node: number, parent: number, action: number): number {
    return this.#run(row, offset, node, parent, action);
  }

  #run(row: Float64Array, offset: number, node: number, parent: number, action: number): number {
    this.#lastSum = -1;
    const model = this.#model;
    let hmaxBound = 0;
    // On a numeric domain the model's hmax knows the numeric bounds, which LM-cut's atoms do not: the larger counts.
    // Without numeric atoms LM-cut's own first hmax is the same value, so the model's is not computed twice.
    if (!this.#atomsOnly) {
      hmaxBound = model.goalHmax(row, offset);
      if (hmaxBound === Number.POSITIVE_INFINITY || hmaxBound === 0) return hmaxBound;
    }
    if (this.#goalAtoms.length === 0) return hmaxBound;
    // The relaxed model's costs are as admissible as LM-cut's, but the model
    // must be refreshed with the new costs on every round, so LM-cut keeps its own.
    model.fillHolds(row, offset, this.#holds);
    this.#cost.set(this.#baseCost);
    let h = 0;
    const cost = this.#cost;
    const store = this.#store;
    // Past its cap the store stops growing: later nodes are evaluated in full (the same bound, more work).
    const remember = node >= 0 && store.hasRoom;
    if (remember) store.begin();
    const first = remember ? store.firstOf(parent) : -1;
    if (first >= 0) {
      // The parent's landmarks without the action: still landmarks, and their costs still a partition of the costs.
      const end = first + store.countOf(parent);
      for (let i = first; i < end; i++) {
        const from = store.actStart[i] as number;
        const to = store.actEnd[i] as number;
        let contains = false;
        for (let k = from; k < to; k++) {
          if (store.acts[k] === action) {
            contains = true;
            break;
          }
        }
        if (contains) continue;
        const m = store.cost[i] as number;
        h += m;
        for (let k = from; k < to; k++) {
          const a = store.acts[k] as number;
          const left = (cost[a] as number) - m;
          cost[a] = left <= EPSILON ? 0 : left;
        }
        store.add(m, store.acts, from, to);
      }
    }
    let goalCost = this.#computeHmax();
    if (goalCost === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
    // hmax under the whole costs bounds a full evaluation (a seeded one starts from reduced costs).
    if (this.#atomsOnly && first < 0) hmaxBound = goalCost;
    // Every round adds a disjoint landmark, so stopping early still gives a lower bound: a long evaluation
    // (thousands of landmarks on a long plan) stops after a fixed amount of work, the same on every machine.
    const rounds = Math.max(1, Math.floor(EVALUATION_WORK / this.#roundWork));
    const timed = this.#deadline !== Number.POSITIVE_INFINITY;
    for (let round = 0; round < rounds && round <= this.#goalAction && goalCost > EPSILON; round++) {
      // The next evaluation's `begin` drops the record left uncommitted here.
      if (timed && round % DEADLINE_EVERY === DEADLINE_EVERY - 1 && performance.now() > this.#deadline) return Number.NaN;
      const size = this.#findCut();
      if (size === 0) break;
      let m = Number.POSITIVE_INFINITY;
      for (let i = 0; i < size; i++) m = Math.min(m, cost[this.#cut[i] as number] as number);
      h += m;
      for (let i = 0; i < size; i++) {
        const a = this.#cut[i] as number;
        const left = (cost[a] as number) - m;
        cost[a] = left <= EPSILON ? 0 : left;
      }
      if (remember) store.add(m, this.#cut, 0, size);
      goalCost = this.#updateHmax(size);
    }
    if (remember) store.commit(node);
    this.#lastSum = h;
    return Math.max(h, hmaxBound);
  }

  /**
   * A lower bound for the state reached by `action` from the state evaluated
   * last: the landmarks found there that do not contain `action` are still
   * landmarks after it (a plan from the child, prefixed by the action, is a
   * plan from the parent), and their costs still partition the action costs.
   * Their sum is the parent's value less what the action's cost paid into
   * landmarks. Zero after an evaluation that found none.
   */
  childEstimate(action: number): number {
    if (this.#lastSum < 0) return 0;
    return this.#lastSum - ((this.#baseCost[action] as number) - (this.#cost[action] as number));
  }

  /**
   * hmax under the current costs, explored to the end (actions past the goal
   * may still cross into the goal zone); records each action's precondition
   * choice, its costliest precondition.
   */
  #computeHmax(): number {
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
      if (this.#holds[i] === 1) {
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
    const cost = this.#cost;
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
  #updateHmax(cutSize: number): number {
    const hm = this.#hmax;
    const pcf = this.#pcf;
    const cost = this.#cost;
    const heap = this.#heap;
    const supHead = this.#supHead;
    const supNext = this.#supNext;
    const preStart = this.#preStart;
    const preAtom = this.#preAtom;
    const effStart = this.#effStart;
    const effAtom = this.#effAtom;
    const cut = this.#cut;
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
    const reach = (hm[this.#pcf[a] as number] as number) + (this.#cost[a] as number);
    for (let e = effStart[a] as number; e < (effStart[a + 1] as number); e++) {
      const q = effAtom[e] as number;
      if (reach < (hm[q] as number) - EPSILON) {
        hm[q] = reach;
        this.#heap.push(q, reach);
      }
    }
  }

  /** The landmark of this round: actions from the zone reachable before the goal zone into it. Returns its size. */
  #findCut(): number {
    const gz = this.#goalZone;
    const reached = this.#reached;
    const stack = this.#stack;
    const pcf = this.#pcf;
    const cost = this.#cost;
    const achStart = this.#achStart;
    const achAction = this.#achAction;
    const supHead = this.#supHead;
    const supNext = this.#supNext;
    const effStart = this.#effStart;
    const effAtom = this.#effAtom;
    const holds = this.#holds;
    const inCut = this.#inCut;
    const cut = this.#cut;
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
