/**
 * The cut of one LM-cut round (Helmert & Domshlak, 2009): the goal zone
 * (atoms that reach the goal through actions that cost nothing any more),
 * then the actions that cross into it from what the state reaches through
 * precondition choices. It reads the precondition choices and costs that
 * the justification graph (`justification-graph.ts`) keeps up to date, and
 * writes the cut into the graph's `cut` buffer. Buffers are allocated
 * once; nothing is allocated per evaluation.
 * @internal
 */
import { EPSILON } from "./justification-graph.js";
import type { JustificationLists } from "./justification-lists.js";

/** The arrays of a `JustificationGraph` the cut is found over: shared, never copied. */
export interface JustificationState {
  /** The action costs of the current evaluation. */
  readonly cost: Float64Array;
  /** Per atom: 1 when it holds in the evaluated state. */
  readonly holds: Uint8Array;
  /** Per action: its precondition choice (-1 before it is reached). */
  readonly pcf: Int32Array;
  /** Per atom, a linked list of the actions whose precondition choice it is: its head, and each action's next. */
  readonly supHead: Int32Array;
  readonly supNext: Int32Array;
  /** Where the cut's actions are written. */
  readonly cut: Int32Array;
}

export class CutFinder {
  readonly #nAtoms: number;
  readonly #init: number;
  readonly #goal: number;
  readonly #effStart: Int32Array;
  readonly #effAtom: Int32Array;
  readonly #achStart: Int32Array;
  readonly #achAction: Int32Array;
  readonly #pcf: Int32Array;
  readonly #supHead: Int32Array;
  readonly #supNext: Int32Array;
  readonly cost: Float64Array;
  readonly holds: Uint8Array;
  readonly cut: Int32Array;
  readonly #goalZone: Uint8Array;
  readonly #reached: Uint8Array;
  readonly #inCut: Uint8Array;
  readonly #stack: Int32Array;

  constructor(lists: JustificationLists, state: JustificationState) {
    const width = lists.goal + 1;
    this.#nAtoms = lists.init; // the init atom is one past the last atom
    this.#init = lists.init;
    this.#goal = lists.goal;
    this.#effStart = lists.eff.start;
    this.#effAtom = lists.eff.items;
    this.#achStart = lists.ach.start;
    this.#achAction = lists.ach.items;
    this.#pcf = state.pcf;
    this.#supHead = state.supHead;
    this.#supNext = state.supNext;
    this.cost = state.cost;
    this.holds = state.holds;
    this.cut = state.cut;
    this.#goalZone = new Uint8Array(width);
    this.#reached = new Uint8Array(width);
    this.#inCut = new Uint8Array(lists.goalAction + 1);
    this.#stack = new Int32Array(width);
  }

  /** The landmark of this round: actions from the zone reachable before the goal zone into it. Returns its size. */
  find(): number {
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
