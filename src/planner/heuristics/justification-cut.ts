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
  /** Per action, the distinct atoms it achieves. */
  readonly effStart: Int32Array;
  readonly effAtom: Int32Array;
  /** The atoms that hold in the evaluated state, in increasing order: the first `stateCount`. */
  readonly stateAtoms: Int32Array;
  readonly stateCount: number;
  /** Per action: its precondition choice (-1 before it is reached). */
  readonly pcf: Int32Array;
  /** Per atom, a linked list of the actions whose precondition choice it is: its head, and each action's next. */
  readonly supHead: Int32Array;
  readonly supNext: Int32Array;
  /** Where the cut's actions are written. */
  readonly cut: Int32Array;
}

export class CutFinder {
  readonly #init: number;
  readonly #goal: number;
  readonly #state: JustificationState;
  readonly #achStart: Int32Array;
  readonly #achAction: Int32Array;
  readonly #pcf: Int32Array;
  readonly #supHead: Int32Array;
  readonly #supNext: Int32Array;
  readonly cost: Float64Array;
  readonly cut: Int32Array;
  readonly #goalZone: Int32Array;
  readonly #reached: Int32Array;
  readonly #intoZone: Int32Array;
  /** This round's candidates: the achievers of goal-zone atoms that cost more than nothing and have a precondition choice. */
  readonly #crossing: Int32Array;
  /** The current round's mark (see `find`). */
  #mark = 0;
  readonly #stack: Int32Array;

  constructor(lists: JustificationLists, state: JustificationState) {
    const width = lists.goal + 1;
    this.#init = lists.init;
    this.#goal = lists.goal;
    this.#state = state;
    this.#achStart = lists.ach.start;
    this.#achAction = lists.ach.items;
    this.#pcf = state.pcf;
    this.#supHead = state.supHead;
    this.#supNext = state.supNext;
    this.cost = state.cost;
    this.cut = state.cut;
    this.#goalZone = new Int32Array(width);
    this.#reached = new Int32Array(width);
    this.#intoZone = new Int32Array(lists.goalAction + 1);
    this.#crossing = new Int32Array(lists.goalAction + 1);
    this.#stack = new Int32Array(width);
  }

  /**
   * The landmark of this round: actions from the zone reachable before the
   * goal zone into it. Returns its size.
   *
   * The forward pass stops once it has cut every candidate (an action into
   * the goal zone from outside it): what it would explore after that adds
   * nothing to the cut, nor changes its order. It stops early on most
   * rounds, when every candidate's precondition choice is reachable.
   */
  find(): number {
    // Marks are stamps of the round (no clearing of whole arrays per round): an atom is in the goal zone when
    // `zone[atom] === mark`, reached when `reached[atom] === mark`, and an action achieves a goal-zone atom when
    // `intoZone[action] === mark`.
    if (this.#mark >= 0x7ffffff0) {
      this.#goalZone.fill(0);
      this.#reached.fill(0);
      this.#intoZone.fill(0);
      this.#mark = 0;
    }
    const mark = ++this.#mark;
    const gz = this.#goalZone;
    const reached = this.#reached;
    const intoZone = this.#intoZone;
    const stack = this.#stack;
    const pcf = this.#pcf;
    const cost = this.cost;
    const achStart = this.#achStart;
    const achAction = this.#achAction;
    const supHead = this.#supHead;
    const supNext = this.#supNext;
    const state = this.#state;
    const effStart = state.effStart;
    const effAtom = state.effAtom;
    const cut = this.cut;
    const crossing = this.#crossing;
    let crossings = 0;
    // The goal zone: atoms that reach the goal through actions that cost nothing any more. Every achiever of a
    // goal-zone atom is seen here once, so the forward pass below tells a cut action by its mark alone.
    let top = 0;
    gz[this.#goal] = mark;
    stack[top++] = this.#goal;
    while (top > 0) {
      const q = stack[--top] as number;
      const end = achStart[q + 1] as number;
      for (let k = achStart[q] as number; k < end; k++) {
        const a = achAction[k] as number;
        const from = pcf[a] as number;
        if ((cost[a] as number) > EPSILON) {
          // A candidate when its choice stays outside the zone (counted once the zone is whole).
          if (intoZone[a] !== mark && from >= 0) crossing[crossings++] = a;
          intoZone[a] = mark;
          continue;
        }
        // A free action's choice joins the zone: it is no candidate.
        intoZone[a] = mark;
        if (from < 0 || gz[from] === mark) continue;
        gz[from] = mark;
        stack[top++] = from;
      }
    }
    let candidates = 0;
    for (let i = 0; i < crossings; i++) if (gz[pcf[crossing[i] as number] as number] !== mark) candidates++;
    if (candidates === 0) return 0;
    // Forward from the state through precondition choices, stopping at the goal zone (as Fast Downward does, an
    // action into the goal zone is cut and its other effects are not explored). An effect that holds in the state
    // is reached from the start (no state atom is in the goal zone), so it is passed over.
    const stateAtoms = state.stateAtoms;
    const stateCount = state.stateCount;
    for (let i = 0; i < stateCount; i++) {
      const x = stateAtoms[i] as number;
      if (gz[x] !== mark) {
        reached[x] = mark;
        stack[top++] = x;
      }
    }
    reached[this.#init] = mark;
    stack[top++] = this.#init;
    let size = 0;
    while (top > 0) {
      const x = stack[--top] as number;
      // Each action is on one list (its precondition choice's) and each atom is popped once: an action is seen once.
      for (let a = supHead[x] as number; a >= 0; a = supNext[a] as number) {
        if (intoZone[a] === mark) {
          cut[size++] = a;
          if (size === candidates) return size;
          continue;
        }
        const effEnd = effStart[a + 1] as number;
        for (let e = effStart[a] as number; e < effEnd; e++) {
          const q = effAtom[e] as number;
          if (reached[q] !== mark) {
            reached[q] = mark;
            stack[top++] = q;
          }
        }
      }
    }
    return size;
  }
}
