/**
 * The packed-bits layout of an all-boolean domain: a state is a few 32-bit
 * words, a precondition check is `(state & mask) === value`, an effect is
 * `(state & ~clear) | set`. Used automatically when every planning fact is
 * a boolean that is present at the start, every condition is an equality
 * on booleans and every effect assigns a boolean (STRIPS-like domains, the
 * common case of game GOAP).
 * @internal
 */
import { type CompiledProblem, EFFECT_ASSIGN, OP_EQ, OP_NE } from "./compiled-problem.js";

/** Masks of a boolean domain packed into `words` 32-bit words per state. */
export interface BitLayout {
  readonly words: number;
  readonly goalMask: Int32Array;
  readonly goalValue: Int32Array;
  /** Bits that are facts (not `canRerun` markers). */
  readonly factMask: Int32Array;
  /**
   * Per action (CSR lists over the words where a mask is not zero): the
   * bits its preconditions test and their values, and the bits its effects
   * clear and set. Tests and no-op checks cost the words an action touches,
   * not the state's width (16,000 facts are 500 words a state).
   */
  readonly preStart: Int32Array;
  readonly preWord: Int32Array;
  readonly preWordMask: Int32Array;
  readonly preWordValue: Int32Array;
  readonly effStart: Int32Array;
  readonly effWord: Int32Array;
  readonly effWordClear: Int32Array;
  readonly effWordSet: Int32Array;
}

/** Per-action masks gathered word by word, kept as CSR lists of the nonzero words. */
class SparseMasks {
  readonly start: number[] = [0];
  readonly word: number[] = [];
  readonly first: number[] = [];
  readonly second: number[] = [];
  readonly #first: Map<number, number> = new Map();
  readonly #second: Map<number, number> = new Map();

  /** Adds `bit` of word `w` to the first mask and, when `value`, to the second. */
  add(w: number, bit: number, toFirst: boolean, toSecond: boolean): void {
    if (!this.#first.has(w)) {
      this.#first.set(w, 0);
      this.#second.set(w, 0);
    }
    if (toFirst) this.#first.set(w, (this.#first.get(w) as number) | bit);
    if (toSecond) this.#second.set(w, (this.#second.get(w) as number) | bit);
  }

  /** Closes the current action's list. */
  next(): void {
    for (const w of [...this.#first.keys()].sort((x, y) => x - y)) {
      this.word.push(w);
      this.first.push(this.#first.get(w) as number);
      this.second.push(this.#second.get(w) as number);
    }
    this.#first.clear();
    this.#second.clear();
    this.start.push(this.word.length);
  }
}

/**
 * The bit layout of `p`'s actions and goal, or `null` when the domain is not
 * purely boolean. The start state is checked separately by {@link packStart}.
 */
export function bitLayoutOf(p: CompiledProblem): BitLayout | null {
  for (let slot = 0; slot < p.factCount; slot++) if (p.numeric[slot]) return null;
  for (let t = 0; t < p.testKey.length; t++) {
    const op = p.testOp[t];
    const arg = p.testArg[t];
    if ((op !== OP_EQ && op !== OP_NE) || (arg !== 0 && arg !== 1)) return null;
  }
  for (let e = 0; e < p.effectKey.length; e++) {
    const arg = p.effectArg[e];
    if (p.effectOp[e] !== EFFECT_ASSIGN || (arg !== 0 && arg !== 1)) return null;
  }
  if (p.actions.some((a) => a.dynamicEffects)) return null;

  const words = Math.max(1, Math.ceil(p.width / 32));
  // On a present boolean, `ne v` is `eq !v`.
  const wanted = (t: number): boolean => (p.testOp[t] === OP_EQ ? p.testArg[t] === 1 : p.testArg[t] === 0);
  const pre = new SparseMasks();
  const eff = new SparseMasks();
  for (const a of p.actions) {
    for (let t = a.testStart; t < a.testEnd; t++) {
      const slot = p.testKey[t] as number;
      pre.add(slot >> 5, 1 << (slot & 31), true, wanted(t));
    }
    for (let e = a.effectStart; e < a.effectEnd; e++) {
      const slot = p.effectKey[e] as number;
      const sets = p.effectArg[e] === 1;
      eff.add(slot >> 5, 1 << (slot & 31), !sets, sets);
    }
    pre.next();
    eff.next();
  }
  const goalMask = new Int32Array(words);
  const goalValue = new Int32Array(words);
  for (let t = p.goalTestStart; t < p.goalTestEnd; t++) {
    const slot = p.testKey[t] as number;
    const bit = 1 << (slot & 31);
    goalMask[slot >> 5] = (goalMask[slot >> 5] as number) | bit;
    if (wanted(t)) goalValue[slot >> 5] = (goalValue[slot >> 5] as number) | bit;
  }
  const factMask = new Int32Array(words);
  for (let slot = 0; slot < p.factCount; slot++) factMask[slot >> 5] = (factMask[slot >> 5] as number) | (1 << (slot & 31));
  return {
    words,
    goalMask,
    goalValue,
    factMask,
    preStart: Int32Array.from(pre.start),
    preWord: Int32Array.from(pre.word),
    preWordMask: Int32Array.from(pre.first),
    preWordValue: Int32Array.from(pre.second),
    effStart: Int32Array.from(eff.start),
    effWord: Int32Array.from(eff.word),
    effWordClear: Int32Array.from(eff.first),
    effWordSet: Int32Array.from(eff.second),
  };
}

/** `p`'s start state packed into words, or `null` when some fact is missing or not a boolean. */
export function packStart(p: CompiledProblem, layout: BitLayout): Int32Array | null {
  const start = new Int32Array(layout.words);
  for (let slot = 0; slot < p.width; slot++) {
    const v = p.start[slot];
    if (v === 1) start[slot >> 5] = (start[slot >> 5] as number) | (1 << (slot & 31));
    else if (v !== 0) return null;
  }
  return start;
}

/**
 * The actions of a one-word state space in scan order, each as four words: a state `s` passes its preconditions when
 * `(s & preMask) === preValue`, and its child is `(s & keep) | set`. Testing an action is then a few reads of one
 * array, with no CSR list to walk.
 */
export interface OneWordActions {
  /** The action index of each entry (relevant actions only, ascending). */
  readonly action: Int32Array;
  /** Entry `i`'s preMask, preValue, keep and set at `4 * i` to `4 * i + 3` (one array: a scan reads it in order). */
  readonly masks: Int32Array;
}

/**
 * What a search of one-word states keeps in its problem's workspace: the {@link OneWordActions} made for a layout and
 * a relevance view, and the buffers a scan gathers children in (a compiled problem runs one search at a time).
 */
export interface OneWordScan {
  readonly layout: BitLayout;
  readonly relevant: object | undefined;
  readonly actions: OneWordActions;
  readonly kids: Int32Array;
  readonly entries: Int32Array;
}

/** {@link OneWordActions} of a one-word `layout`, without the actions `relevant` marks 0 and with its effect masks. */
export function oneWordActions(
  layout: BitLayout,
  relevant: Uint8Array | undefined,
  effClear: Int32Array,
  effSet: Int32Array,
): OneWordActions {
  const { preStart, preWordMask, preWordValue, effStart } = layout;
  const nActions = preStart.length - 1;
  const kept: number[] = [];
  for (let ai = 0; ai < nActions; ai++) if (relevant === undefined || relevant[ai] !== 0) kept.push(ai);
  const masks = new Int32Array(4 * kept.length);
  for (let i = 0; i < kept.length; i++) {
    const ai = kept[i] as number;
    masks[4 * i + 2] = -1;
    // One word: each CSR list has at most one entry, word 0.
    for (let k = preStart[ai] as number; k < (preStart[ai + 1] as number); k++) {
      masks[4 * i] = preWordMask[k] as number;
      masks[4 * i + 1] = preWordValue[k] as number;
    }
    for (let k = effStart[ai] as number; k < (effStart[ai + 1] as number); k++) {
      masks[4 * i + 2] = ~(effClear[k] as number);
      masks[4 * i + 3] = effSet[k] as number;
    }
  }
  return { action: Int32Array.from(kept), masks };
}
