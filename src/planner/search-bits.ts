/**
 * The A* engine for all-boolean domains: a state is a few 32-bit words, a
 * precondition check is `(state & mask) === value`, an effect is
 * `(state & ~clear) | set`, and the hash table compares single words. Used
 * automatically when every planning fact is a boolean that is present at the
 * start, every condition is an equality on booleans and every effect assigns
 * a boolean (STRIPS-like domains, the common case of game GOAP).
 */
import { callTracer } from "../core/index.js";
import { type BudgetLimit, nodeLimit } from "./budget.js";
import { type CompiledProblem, EFFECT_ASSIGN, OP_EQ, OP_NE } from "./compile.js";
import { fmix32 } from "./open-list.js";
import {
  bytesPerNode,
  CLOCK_ABORTED,
  CLOCK_GO,
  CLOCK_PAUSE,
  finishedRun,
  finishSearch,
  growNodes,
  MOVE_PER_INSERT,
  pathOf,
  SearchClock,
  type SearchRun,
  type SearchSetup,
  timeUp,
} from "./search-setup.js";
import type { SearchRecord, SearchStatus } from "./types.js";

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

/** Runs A* on packed boolean states to the end. */
export function searchBits(setup: SearchSetup, layout: BitLayout, start: Int32Array): ReturnType<SearchRun["step"]> {
  return startBitsSearch(setup, layout, start).step(Number.POSITIVE_INFINITY);
}

/** Starts A* on packed boolean states; the returned run searches in slices (see {@link SearchRun}). */
export function startBitsSearch(setup: SearchSetup, layout: BitLayout, start: Int32Array): SearchRun {
  const { p, h, weight, tracer, goal, workspace } = setup;
  const { words: NW, goalMask, goalValue, factMask } = layout;
  const { preStart, preWord, preWordMask, preWordValue, effStart, effWord } = layout;
  // With relevance analysis, irrelevant actions are skipped and writes to irrelevant facts dropped.
  const relevant = setup.relevantBits?.action;
  const effWordClear = setup.relevantBits?.effClear ?? layout.effWordClear;
  const effWordSet = setup.relevantBits?.effSet ?? layout.effWordSet;
  const actions = p.actions;
  const nActions = actions.length;
  const lazy = h.name !== "zero";
  const UNEVALUATED = -1;
  const expansions: SearchRecord[] | undefined = setup.record ? [] : undefined;
  const maxNodes = nodeLimit(setup.maxNodes, setup.defaultNodes, bytesPerNode(NW * 4));
  const capLimit = Number.isFinite(maxNodes) ? maxNodes + nActions + 2 : Number.POSITIVE_INFINITY;
  const clock = new SearchClock(setup.deadline, setup.signal);

  // Heuristics and cost functions read a decoded Float64 row.
  if (workspace.bitsRow?.length !== p.width) workspace.bitsRow = new Float64Array(p.width);
  const row = workspace.bitsRow;
  const unpack = (node: number): void => {
    const base = node * NW;
    for (let slot = 0; slot < p.width; slot++) row[slot] = ((arena[base + (slot >> 5)] as number) >>> (slot & 31)) & 1;
  };
  // A heuristic that can bound a child from its parent's evaluation (LM-cut's landmarks) keys children by it, while
  // the parent it evaluated last is the one being expanded; 0 otherwise.
  const childBound = (expanding: number, action: number): number =>
    h.childEstimate !== undefined && lastEvaluated === expanding ? h.childEstimate(action) : 0;
  let lastEvaluated = -1;
  h.beginSearch?.(setup.deadline);
  const evaluate = (node: number): number => {
    unpack(node);
    lastEvaluated = node;
    return h.evaluateNode ? h.evaluateNode(row, 0, node, parent[node] as number, via[node] as number) : h.evaluate(row, 0);
  };

  const nodes = workspace.takeIntNodes(NW);
  let arena = nodes.arena;
  let parent = nodes.parent;
  let via = nodes.via;
  let gOf = nodes.gOf;
  let hOf = nodes.hOf;
  let hashOf = nodes.hashOf;
  let count = 0;
  const grow = (): void => {
    growNodes(nodes, NW, count + 2, capLimit);
    arena = nodes.arena;
    parent = nodes.parent;
    via = nodes.via;
    gOf = nodes.gOf;
    hOf = nodes.hOf;
    hashOf = nodes.hashOf;
  };

  let table = workspace.takeTable();
  let tableSize = table.length;
  let mask = tableSize - 1;
  const hashState = (node: number): number => {
    const base = node * NW;
    let x = arena[base] as number;
    for (let w = 1; w < NW; w++) x = Math.imul(x ^ (x >>> 15), 0x2c1b3c6d) ^ (arena[base + w] as number);
    return fmix32(x);
  };
  // The table grows incrementally (as in the float engine): the old table's nodes move MOVE_PER_INSERT per
  // insertion, and until all have moved a lookup probes both.
  let oldTable: Int32Array | null = null;
  let oldMask = 0;
  let oldCount = 0;
  let moved = 0;
  const moveSome = (): void => {
    const end = Math.min(oldCount, moved + MOVE_PER_INSERT);
    for (; moved < end; moved++) {
      let slot = (hashOf[moved] as number) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = moved + 1;
    }
    if (moved === oldCount) oldTable = null;
  };
  const rehash = (): void => {
    while (oldTable !== null) moveSome();
    oldTable = table;
    oldMask = mask;
    oldCount = count;
    moved = 0;
    tableSize *= 2;
    mask = tableSize - 1;
    table = new Int32Array(tableSize);
  };
  const sameRow = (a: number, b: number): boolean => {
    const ab = a * NW;
    const bb = b * NW;
    for (let w = 0; w < NW; w++) if (arena[ab + w] !== arena[bb + w]) return false;
    return true;
  };
  /** A node of the old table, not moved yet, whose row is `node`'s; -1 when none. */
  const lookupOld = (node: number, hsh: number): number => {
    const old = oldTable as Int32Array;
    for (let s = hsh & oldMask; ; s = (s + 1) & oldMask) {
      const entry = old[s] as number;
      if (entry === 0) return -1;
      const other = entry - 1;
      if (other >= moved && hashOf[other] === hsh && sameRow(other, node)) return other;
    }
  };

  const open = workspace.takeOpen();
  open.reserveHint = Number.isFinite(capLimit) ? 2 * capLimit : 0;
  const release = (): void => {
    workspace.keepIntNodes(nodes);
    workspace.keepTable(table);
    workspace.keepOpen(open);
  };

  arena.set(start, 0);
  parent[0] = -1;
  via[0] = -1;
  gOf[0] = 0;
  hOf[0] = evaluate(0);
  hashOf[0] = hashState(0);
  table[(hashOf[0] as number) & mask] = 1;
  count = 1;
  if (Number.isNaN(hOf[0])) {
    release();
    return finishedRun(timeUp(setup, count, maxNodes));
  }
  if (hOf[0] === Number.POSITIVE_INFINITY) {
    release();
    callTracer(tracer, "onSearchDeadEnd", "not_reachable", { goal: goal.conditions });
    return finishedRun({ status: "no_plan", actions: null, nodesExpanded: 0, nodesGenerated: 1, nodesStored: 1, maxNodes });
  }
  open.push(0, weight * (hOf[0] as number), hOf[0] as number, 0);

  let expanded = 0;
  let generated = 1;
  let ticks = 0;
  const step = (sliceEnd: number): ReturnType<SearchRun["step"]> => {
    clock.resume(sliceEnd, ticks);
    let goalNode = -1;
    let status: SearchStatus = "no_plan";
    let limit: BudgetLimit | undefined;
    try {
      while (open.size > 0) {
        if (++ticks >= clock.next) {
          const verdict = clock.poll(ticks);
          if (verdict !== CLOCK_GO) {
            if (verdict === CLOCK_PAUSE) return null;
            status = verdict === CLOCK_ABORTED ? "aborted" : "budget_exhausted";
            if (verdict !== CLOCK_ABORTED) limit = "time";
            break;
          }
        }
        if (count >= maxNodes) {
          status = "budget_exhausted";
          limit = "nodes";
          break;
        }
        open.pop();
        const node = open.node;
        const g = open.g;
        if (g > (gOf[node] as number)) continue;
        if (hOf[node] === UNEVALUATED) {
          const hv = evaluate(node);
          if (Number.isNaN(hv)) {
            // The deadline passed during the evaluation: the search ends rather than use a partial value.
            status = "budget_exhausted";
            limit = "time";
            break;
          }
          hOf[node] = hv;
          if (hv === Number.POSITIVE_INFINITY) continue;
          const f = g + weight * hv;
          if (f > open.f) {
            open.push(node, f, hv, g);
            continue;
          }
        }
        const base = node * NW;
        let isGoal = true;
        for (let w = 0; w < NW; w++) {
          if (((arena[base + w] as number) & (goalMask[w] as number)) !== goalValue[w]) {
            isGoal = false;
            break;
          }
        }
        if (isGoal) {
          goalNode = node;
          status = "found";
          break;
        }
        if (expanded >= setup.maxExpansions) {
          status = "budget_exhausted";
          limit = "expansions";
          break;
        }
        expanded++;
        if (expansions) {
          unpack(node);
          const ev = {
            nodeId: node,
            parentId: parent[node] === -1 ? null : (parent[node] as number),
            actionName: via[node] === -1 ? null : actions[via[node] as number]!.spec.name,
            state: p.decodeState(row, 0),
            g,
            h: hOf[node] as number,
          };
          expansions.push(ev);
          callTracer(tracer, "onSearchExpand", { ...ev, f: g + weight * ev.h });
        }

        // Every action's masks are tested: with states of one or two words this
        // scan measured faster than gathering candidates from a per-bit index
        // and sorting them back into specificity order (530k vs 330k expansions
        // per second on chain-XL, and slower still with 600 actions). Only the
        // words an action tests or writes are read, and an action that would
        // change no fact is dropped before its child is written.
        actionLoop: for (let ai = 0; ai < nActions; ai++) {
          if (relevant !== undefined && relevant[ai] === 0) continue;
          const preEnd = preStart[ai + 1] as number;
          for (let k = preStart[ai] as number; k < preEnd; k++) {
            if (((arena[base + (preWord[k] as number)] as number) & (preWordMask[k] as number)) !== preWordValue[k]) continue actionLoop;
          }
          const effEnd = effStart[ai + 1] as number;
          let changed = false;
          for (let k = effStart[ai] as number; k < effEnd; k++) {
            const w = effWord[k] as number;
            const before = arena[base + w] as number;
            const after = (before & ~(effWordClear[k] as number)) | (effWordSet[k] as number);
            if (((before ^ after) & (factMask[w] as number)) !== 0) {
              changed = true;
              break;
            }
          }
          if (!changed) continue;
          if (count + 1 >= nodes.cap) grow();
          const child = count;
          const cb = child * NW;
          if (NW > 8) arena.copyWithin(cb, base, base + NW);
          else for (let w = 0; w < NW; w++) arena[cb + w] = arena[base + w] as number;
          for (let k = effStart[ai] as number; k < effEnd; k++) {
            const w = cb + (effWord[k] as number);
            arena[w] = ((arena[w] as number) & ~(effWordClear[k] as number)) | (effWordSet[k] as number);
          }
          const a = actions[ai]!;
          let stepCost = a.staticCost;
          if (stepCost < 0) {
            unpack(node);
            stepCost = a.spec.getCost(p.decodeState(row, 0));
          }
          const g2 = g + stepCost;
          generated++;
          const hsh = hashState(child);
          let slot = hsh & mask;
          let other = -1;
          for (;;) {
            const entry = table[slot] as number;
            if (entry === 0) break;
            if (hashOf[entry - 1] === hsh && sameRow(entry - 1, child)) {
              other = entry - 1;
              break;
            }
            slot = (slot + 1) & mask;
          }
          if (other < 0 && oldTable !== null) other = lookupOld(child, hsh);
          if (other >= 0) {
            if (g2 < (gOf[other] as number)) {
              gOf[other] = g2;
              parent[other] = node;
              via[other] = ai;
              const hv = hOf[other] as number;
              const estimate = hv === UNEVALUATED ? Math.max(0, (hOf[node] as number) - stepCost, childBound(node, ai)) : hv;
              if (estimate !== Number.POSITIVE_INFINITY) open.push(other, g2 + weight * estimate, estimate, g2);
            }
            continue;
          }
          table[slot] = child + 1;
          hashOf[child] = hsh;
          parent[child] = node;
          via[child] = ai;
          gOf[child] = g2;
          count++;
          if (oldTable !== null) moveSome();
          if (count * 2 > tableSize) rehash();
          if (lazy) {
            hOf[child] = UNEVALUATED;
            const estimate = Math.max(0, (hOf[node] as number) - stepCost, childBound(node, ai));
            open.push(child, g2 + weight * estimate, estimate, g2);
          } else {
            hOf[child] = 0;
            open.push(child, g2, 0, g2);
          }
        }
      }
    } catch (error) {
      release();
      throw error;
    }
    const outcome = finishSearch(setup, status, { expanded, generated, stored: count, maxNodes, limit, expansions }, () =>
      pathOf(p, goalNode, parent, via),
    );
    release();
    return outcome;
  };
  return { step };
}
