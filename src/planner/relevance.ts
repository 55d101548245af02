/**
 * Backward relevance analysis, as classical planners' translators do before
 * search: a fact is relevant when the goal tests it or a relevant action's
 * precondition does; an action is relevant when one of its effects writes a
 * relevant fact. An irrelevant action can be left out of any plan (no goal
 * or relevant precondition reads what it writes, and costs are not
 * negative), and an irrelevant fact can be frozen at its start value, so
 * states that differ only in facts nothing reads become one state. The
 * optimal cost is unchanged; the number of states the search sees can fall
 * by orders of magnitude on domains with distractor facts.
 */

import type { BitLayout } from "./bit-layout.js";
import type { CompiledProblem } from "./compiled-problem.js";

/** What the analysis kept: one byte per action and per slot (1 = relevant). */
export interface Relevance {
  readonly action: Uint8Array;
  readonly slot: Uint8Array;
  readonly irrelevantActions: number;
  readonly irrelevantFacts: number;
}

/**
 * The relevant actions and slots of `p`, or `null` when nothing can be left
 * out or when the analysis cannot be sure: a function effect may write any
 * fact and a function cost may read any, so either makes every fact relevant.
 * Slots past the facts (the `canRerun: false` used-bits) are always kept.
 *
 * Linear in the size of the problem: each slot enters the work list once.
 */
export function relevanceOf(p: CompiledProblem): Relevance | null {
  const { actions, width, factCount } = p;
  for (const a of actions) if (a.dynamicEffects || a.staticCost < 0) return null;

  // Writers of each slot, as a CSR list.
  const writerCount = new Int32Array(width + 1);
  for (const a of actions) for (let e = a.effectStart; e < a.effectEnd; e++) writerCount[(p.effectKey[e] as number) + 1]++;
  for (let s = 0; s < width; s++) writerCount[s + 1] = (writerCount[s + 1] as number) + (writerCount[s] as number);
  const writers = new Int32Array(writerCount[width] as number);
  const fill = writerCount.slice(0, width);
  for (const a of actions) {
    for (let e = a.effectStart; e < a.effectEnd; e++) {
      const s = p.effectKey[e] as number;
      writers[fill[s] as number] = a.index;
      fill[s] = (fill[s] as number) + 1;
    }
  }

  const slot = new Uint8Array(width);
  const action = new Uint8Array(actions.length);
  const queue = new Int32Array(width);
  let tail = 0;
  const mark = (s: number): void => {
    if (slot[s] === 0) {
      slot[s] = 1;
      queue[tail++] = s;
    }
  };
  for (let t = p.goalTestStart; t < p.goalTestEnd; t++) mark(p.testKey[t] as number);
  for (let s = factCount; s < width; s++) slot[s] = 1;
  for (let head = 0; head < tail; head++) {
    const s = queue[head] as number;
    for (let k = writerCount[s] as number; k < (writerCount[s + 1] as number); k++) {
      const ai = writers[k] as number;
      if (action[ai] === 1) continue;
      action[ai] = 1;
      const a = actions[ai]!;
      for (let t = a.testStart; t < a.testEnd; t++) mark(p.testKey[t] as number);
    }
  }

  let irrelevantActions = 0;
  for (let i = 0; i < actions.length; i++) if (action[i] === 0) irrelevantActions++;
  let irrelevantFacts = 0;
  for (let s = 0; s < factCount; s++) if (slot[s] === 0) irrelevantFacts++;
  if (irrelevantActions === 0 && irrelevantFacts === 0) return null;
  return { action, slot, irrelevantActions, irrelevantFacts };
}

/**
 * `layout`'s effect masks without the bits of irrelevant facts: an action's
 * writes to facts nothing reads are dropped, so those facts keep their start
 * values in every state of the search.
 */
export function relevantEffectMasks(layout: BitLayout, relevance: Relevance): { clear: Int32Array; set: Int32Array } {
  const keep = new Int32Array(layout.words);
  for (let s = 0; s < relevance.slot.length; s++) if (relevance.slot[s] === 1) keep[s >> 5] = (keep[s >> 5] as number) | (1 << (s & 31));
  const clear = new Int32Array(layout.effWordClear.length);
  const set = new Int32Array(layout.effWordSet.length);
  for (let k = 0; k < clear.length; k++) {
    const w = layout.effWord[k] as number;
    clear[k] = (layout.effWordClear[k] as number) & (keep[w] as number);
    set[k] = (layout.effWordSet[k] as number) & (keep[w] as number);
  }
  return { clear, set };
}
