/**
 * The general A* engine: states are Float64 rows (numbers stored as is,
 * other facts as interned codes, NaN for missing). This is the one big,
 * dense loop of the planner; it keeps its arena, hash table and counters in
 * closures so V8 sees monomorphic, allocation-free code per expansion.
 */
import { callTracer, createRng, describeValue, LangGoapError, type WorldState } from "../core/index.js";
import { type BudgetLimit, nodeLimit } from "./budget.js";
import { type CompiledProblem, EFFECT_ADD, EFFECT_ASSIGN, OP_EQ, passTests } from "./compile.js";
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

/** Builds the precondition index: actions bucketed by one equality test on a categorical slot. */
function buildIndex(p: CompiledProblem): { always: Int32Array; slots: Int32Array; buckets: Int32Array[][] } {
  const always: number[] = [];
  const bySlot = new Map<number, number[][]>();
  for (const a of p.actions) {
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

/** Problem-only data of the float engine, kept in the workspace between searches. */
interface FloatDerived {
  readonly index: { always: Int32Array; slots: Int32Array; buckets: Int32Array[][] };
  readonly zLo: Int32Array;
  readonly zHi: Int32Array;
  readonly candidates: Int32Array;
  /** Scratch for reading a float's bits when hashing. */
  readonly conv: Float64Array;
  readonly convBits: Int32Array;
}

function derivedOf(setup: SearchSetup): FloatDerived {
  const cached = setup.workspace.floatDerived as FloatDerived | undefined;
  if (cached) return cached;
  const { p } = setup;
  const zobristRng = createRng(0x5eed);
  const conv = new Float64Array(1);
  const derived: FloatDerived = {
    index: buildIndex(p),
    zLo: Int32Array.from({ length: p.width }, () => (zobristRng.next() * 4294967296) | 0),
    zHi: Int32Array.from({ length: p.width }, () => (zobristRng.next() * 4294967296) | 0),
    candidates: new Int32Array(p.actions.length),
    conv,
    convBits: new Int32Array(conv.buffer),
  };
  setup.workspace.floatDerived = derived;
  return derived;
}

function overflow(action: string, key: string, before: unknown, delta: number, result: number): LangGoapError {
  return new LangGoapError(
    "INVALID_EFFECT",
    `action "${action}": "${key}" ${delta >= 0 ? `+= ${delta}` : `-= ${-delta}`} on ${describeValue(before)} gives ${result}; numeric facts must stay finite`,
    { action, key, value: before, delta },
  );
}

/** Runs A* on Float64 rows to the end. */
export function searchFloat(setup: SearchSetup): ReturnType<SearchRun["step"]> {
  return startFloatSearch(setup).step(Number.POSITIVE_INFINITY);
}

/** Starts A* on Float64 rows; the returned run searches in slices (see {@link SearchRun}). */
export function startFloatSearch(setup: SearchSetup): SearchRun {
  const { p, h, weight, tracer, goal, workspace } = setup;
  const heuristicName = h.name;
  const record = setup.record;
  const expansions: SearchRecord[] | undefined = record ? [] : undefined;

  const W = p.width;
  const F = p.factCount;
  const actions = p.actions;
  const { effectKey, effectOp, effectArg, goalTestStart, goalTestEnd } = p;
  const { index, zLo, zHi, candidates, conv, convBits } = derivedOf(setup);
  const maxNodes = nodeLimit(setup.maxNodes, setup.defaultNodes, bytesPerNode(W * 8));
  // Node arrays never grow past the node budget (plus the scratch row a child is written to before its lookup): the
  // budget is checked at each new child, not only between expansions, since one expansion of a wide domain makes
  // thousands of children of thousands of slots each.
  const capLimit = Number.isFinite(maxNodes) ? maxNodes + 2 : Number.POSITIVE_INFINITY;
  const clock = new SearchClock(setup.deadline, setup.signal);

  // Node store, reused from earlier searches of this problem.
  const nodes = workspace.takeFloatNodes(W);
  let arena = nodes.arena;
  let bits = new Int32Array(arena.buffer);
  let parent = nodes.parent;
  let via = nodes.via;
  let gOf = nodes.gOf;
  let hOf = nodes.hOf;
  let hashOf = nodes.hashOf;
  let count = 0;

  // Open-addressing hash table of node ids + 1.
  let table = workspace.takeTable();
  let tableSize = table.length;
  let mask = tableSize - 1;

  const open = workspace.takeOpen();
  open.reserveHint = Number.isFinite(capLimit) ? 2 * capLimit : 0;

  const grow = () => {
    growNodes(nodes, W, count + 2, capLimit);
    arena = nodes.arena;
    bits = new Int32Array(arena.buffer);
    parent = nodes.parent;
    via = nodes.via;
    gOf = nodes.gOf;
    hOf = nodes.hOf;
    hashOf = nodes.hashOf;
  };

  // Zobrist-style hashing: a state's hash is the XOR of per-slot mixes, so a
  // child's hash is updated from its parent's for the few slots that change.
  const mix = (slot: number, v: number): number => {
    conv[0] = v;
    let x = (convBits[0] as number) ^ (zLo[slot] as number);
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) ^ (convBits[1] as number);
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) ^ (zHi[slot] as number);
    x = Math.imul(x ^ (x >>> 16), 0x27d4eb2d);
    return x ^ (x >>> 15);
  };
  const hashRow = (node: number): number => {
    let hsh = 0;
    const base = node * W;
    for (let i = 0; i < W; i++) hsh ^= mix(i, arena[base + i] as number);
    return hsh;
  };

  const sameRow = (a: number, b: number): boolean => {
    const ba = a * W * 2;
    const bb = b * W * 2;
    for (let i = 0; i < W * 2; i++) if (bits[ba + i] !== bits[bb + i]) return false;
    return true;
  };

  // The XOR hash is linear in the state bits, so structured state sets would
  // cluster in the table: index through a non-linear finalizer.
  const indexOf = (hsh: number): number => fmix32(hsh) & mask;

  // The table grows incrementally: a grown table starts empty, the old one's nodes move over MOVE_PER_INSERT per
  // insertion, and until all have moved a lookup probes both. Re-inserting millions of nodes at once paused the
  // event loop for over 100 ms on large searches.
  let oldTable: Int32Array | null = null;
  let oldMask = 0;
  let oldCount = 0;
  let moved = 0;
  const place = (n: number): void => {
    let slot = indexOf(hashOf[n] as number);
    while (table[slot] !== 0) slot = (slot + 1) & mask;
    table[slot] = n + 1;
  };
  const moveSome = (): void => {
    const end = Math.min(oldCount, moved + MOVE_PER_INSERT);
    for (; moved < end; moved++) place(moved);
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

  /** Finds a node equal to `node`'s row; returns its id or -1, and leaves the free slot (of the current table) in `freeSlot`. */
  let freeSlot = 0;
  const lookup = (node: number, hsh: number): number => {
    let slot = indexOf(hsh);
    for (;;) {
      const entry = table[slot] as number;
      if (entry === 0) {
        freeSlot = slot;
        break;
      }
      const other = entry - 1;
      if (hashOf[other] === hsh && sameRow(other, node)) return other;
      slot = (slot + 1) & mask;
    }
    if (oldTable === null) return -1;
    // Nodes not moved yet are in the old table only (those moved are found above).
    for (let s = fmix32(hsh) & oldMask; ; s = (s + 1) & oldMask) {
      const entry = oldTable[s] as number;
      if (entry === 0) return -1;
      const other = entry - 1;
      if (other >= moved && hashOf[other] === hsh && sameRow(other, node)) return other;
    }
  };

  /**
   * False when effects [start, end) certainly leave every fact of the row at
   * `rowBase` as it is (`inc` on a value from a category table may change
   * it, so it counts as a change; the exact test runs after the child is written).
   */
  const changesAFact = (start: number, end: number, rowBase: number): boolean => {
    for (let e = start; e < end; e++) {
      const slot = effectKey[e] as number;
      if (slot >= F) continue;
      const op = effectOp[e];
      const before = arena[rowBase + slot] as number;
      if (op === EFFECT_ASSIGN) {
        const after = effectArg[e] as number;
        if (before !== after && !(Number.isNaN(before) && Number.isNaN(after))) return true;
      } else if (op === EFFECT_ADD) {
        if (Number.isNaN(before) || before + (effectArg[e] as number) !== before) return true;
      } else return true;
    }
    return false;
  };

  /** Gives the arrays back to the workspace for the next search. */
  const release = () => {
    workspace.keepFloatNodes(nodes);
    workspace.keepTable(table);
    workspace.keepOpen(open);
  };

  // Root. Heuristic values are computed lazily: a child is queued with its
  // parent's estimate minus the step cost (a lower bound for consistent
  // heuristics such as hmax) and evaluated only when it reaches the front.
  const UNEVALUATED = -1;
  const lazy = heuristicName !== "zero";
  arena.set(p.start, 0);
  parent[0] = -1;
  via[0] = -1;
  gOf[0] = 0;
  // A heuristic that can bound a child from its parent's evaluation (LM-cut's landmarks) keys children by it, while
  // the parent it evaluated last is the one being expanded; 0 otherwise.
  const childBound = (expanding: number, action: number): number =>
    h.childEstimate !== undefined && lastEvaluated === expanding ? h.childEstimate(action) : 0;
  let lastEvaluated = -1;
  h.beginSearch?.(setup.deadline);
  const evaluate = (node: number): number => {
    lastEvaluated = node;
    const rowBase = node * W;
    return h.evaluateNode ? h.evaluateNode(arena, rowBase, node, parent[node] as number, via[node] as number) : h.evaluate(arena, rowBase);
  };
  hOf[0] = evaluate(0);
  hashOf[0] = hashRow(0);
  table[indexOf(hashOf[0] as number)] = 1;
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
  // The expansion in progress: a slice may end between two children (an expansion of a wide domain makes thousands
  // of children, each a copy of a row of thousands of slots), and the next slice goes on from the next candidate.
  let exNode = -1;
  let exG = 0;
  let exCount = 0;
  let exNext = 0;
  let decoded: WorldState | null = null;

  const step = (sliceEnd: number): ReturnType<SearchRun["step"]> => {
    clock.resume(sliceEnd, ticks);
    let goalNode = -1;
    let status: SearchStatus = "no_plan";
    let limit: BudgetLimit | undefined;
    try {
      search: for (;;) {
        if (exNode >= 0) {
          // Children of the expansion in progress, one clock tick each.
          const node = exNode;
          const g = exG;
          const rowBase = node * W;
          while (exNext < exCount) {
            if (++ticks >= clock.next) {
              const verdict = clock.poll(ticks);
              if (verdict !== CLOCK_GO) {
                if (verdict === CLOCK_PAUSE) return null;
                status = verdict === CLOCK_ABORTED ? "aborted" : "budget_exhausted";
                if (verdict !== CLOCK_ABORTED) limit = "time";
                break search;
              }
            }
            const a = actions[candidates[exNext++] as number]!;
            if (!passTests(p, arena, rowBase, a.testStart, a.testEnd)) continue;
            // An action whose static effects would change no fact makes no child:
            // drop it before copying the row (a row is the whole state, and on a
            // long chain most applicable actions are such no-ops).
            if (!a.dynamicEffects && !changesAFact(a.effectStart, a.effectEnd, rowBase)) continue;
            if (count + 1 >= nodes.cap) grow();
            const child = count;
            const childBase = child * W;
            arena.copyWithin(childBase, rowBase, rowBase + W);
            for (let e = a.effectStart; e < a.effectEnd; e++) {
              const slot = effectKey[e] as number;
              const op = effectOp[e];
              if (op === EFFECT_ASSIGN) arena[childBase + slot] = effectArg[e] as number;
              else if (op === EFFECT_ADD) {
                const v = arena[childBase + slot] as number;
                const sum = (Number.isNaN(v) ? 0 : v) + (effectArg[e] as number);
                if (!Number.isFinite(sum)) throw overflow(a.spec.name, p.keys[slot] as string, v, effectArg[e] as number, sum);
                arena[childBase + slot] = sum === 0 ? 0 : sum;
              } else {
                const current = p.decode(slot, arena[childBase + slot] as number);
                if (current !== undefined && typeof current !== "number") {
                  throw new LangGoapError(
                    "INVALID_EFFECT",
                    `action "${a.spec.name}": cannot add to "${p.keys[slot]}" holding ${describeValue(current)}; expected a number`,
                    { action: a.spec.name, key: p.keys[slot] },
                  );
                }
                const sum = ((current as number | undefined) ?? 0) + (effectArg[e] as number);
                if (!Number.isFinite(sum)) throw overflow(a.spec.name, p.keys[slot] as string, current, effectArg[e] as number, sum);
                arena[childBase + slot] = p.encode(slot, sum);
              }
            }
            if (a.dynamicEffects) {
              decoded ??= p.decodeState(arena, rowBase);
              const produced = a.spec.getEffects(decoded);
              for (const key in produced) {
                const slot = p.keyIndex.get(key) as number;
                arena[childBase + slot] = p.encode(slot, produced[key]);
              }
            }
            // Incremental hash over the written slots; skip transitions that change no fact.
            let hsh = hashOf[node] as number;
            let changed = false;
            for (let e = a.effectStart; e < a.effectEnd; e++) {
              const slot = effectKey[e] as number;
              const before = arena[rowBase + slot] as number;
              const after = arena[childBase + slot] as number;
              if (before !== after && !(Number.isNaN(before) && Number.isNaN(after))) {
                hsh ^= mix(slot, before) ^ mix(slot, after);
                if (slot < F) changed = true;
              }
            }
            if (a.dynamicEffects) {
              const keys = a.dynamicKeys;
              for (let k = 0; k < keys.length; k++) {
                const slot = keys[k] as number;
                const before = arena[rowBase + slot] as number;
                const after = arena[childBase + slot] as number;
                if (before !== after && !(Number.isNaN(before) && Number.isNaN(after))) {
                  hsh ^= mix(slot, before) ^ mix(slot, after);
                  changed = true;
                }
              }
            }
            if (!changed) continue;
            let stepCost: number;
            if (a.staticCost >= 0) stepCost = a.staticCost;
            else {
              decoded ??= p.decodeState(arena, rowBase);
              stepCost = a.spec.getCost(decoded);
            }
            const g2 = g + stepCost;
            generated++;
            const existing = lookup(child, hsh);
            if (existing >= 0) {
              if (g2 < (gOf[existing] as number)) {
                gOf[existing] = g2;
                parent[existing] = node;
                via[existing] = a.index;
                const hv = hOf[existing] as number;
                if (hv === UNEVALUATED) {
                  const estimate = Math.max(0, (hOf[node] as number) - stepCost, childBound(node, a.index));
                  open.push(existing, g2 + weight * estimate, estimate, g2);
                } else if (hv !== Number.POSITIVE_INFINITY) open.push(existing, g2 + weight * hv, hv, g2);
              }
              continue;
            }
            if (count >= maxNodes) {
              status = "budget_exhausted";
              limit = "nodes";
              break search;
            }
            table[freeSlot] = child + 1;
            hashOf[child] = hsh;
            parent[child] = node;
            via[child] = a.index;
            gOf[child] = g2;
            count++;
            if (oldTable !== null) moveSome();
            if (count * 2 > tableSize) rehash();
            if (lazy) {
              hOf[child] = UNEVALUATED;
              const estimate = Math.max(0, (hOf[node] as number) - stepCost, childBound(node, a.index));
              open.push(child, g2 + weight * estimate, estimate, g2);
            } else {
              hOf[child] = 0;
              open.push(child, g2, 0, g2);
            }
          }
          exNode = -1;
        }
        if (open.size === 0) break;
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
        if (g > (gOf[node] as number)) continue; // stale entry
        const rowBase = node * W;
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
        if (passTests(p, arena, rowBase, goalTestStart, goalTestEnd)) {
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
        if (record) {
          const ev = {
            nodeId: node,
            parentId: parent[node] === -1 ? null : (parent[node] as number),
            actionName: via[node] === -1 ? null : (actions[via[node] as number]!.spec.name as string),
            state: p.decodeState(arena, rowBase),
            g,
            h: hOf[node] as number,
          };
          expansions!.push(ev);
          callTracer(tracer, "onSearchExpand", { ...ev, f: g + weight * ev.h });
        }

        // Candidate actions from the precondition index, in specificity order.
        let nc = 0;
        const always = index.always;
        for (let i = 0; i < always.length; i++) candidates[nc++] = always[i] as number;
        const slots = index.slots;
        for (let s = 0; s < slots.length; s++) {
          const code = arena[rowBase + (slots[s] as number)] as number;
          const lists = index.buckets[s] as Int32Array[];
          if (code >= 0 && code < lists.length) {
            const bucket = lists[code] as Int32Array;
            for (let i = 0; i < bucket.length; i++) candidates[nc++] = bucket[i] as number;
          }
        }
        // Back into specificity order: insertion sort for the usual handful,
        // the native sort when many actions are candidates (unless they are
        // in order already, as on long chains where most actions apply).
        if (slots.length > 0) {
          if (nc > 32) {
            let sorted = true;
            for (let i = 1; i < nc && sorted; i++) sorted = (candidates[i - 1] as number) < (candidates[i] as number);
            if (!sorted) candidates.subarray(0, nc).sort();
          } else {
            for (let i = 1; i < nc; i++) {
              const v = candidates[i] as number;
              let j = i - 1;
              while (j >= 0 && (candidates[j] as number) > v) {
                candidates[j + 1] = candidates[j] as number;
                j--;
              }
              candidates[j + 1] = v;
            }
          }
        }

        exNode = node;
        exG = g;
        exCount = nc;
        exNext = 0;
        decoded = null;
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
