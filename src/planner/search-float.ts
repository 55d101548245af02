/**
 * The general state representation of the search loop (search-loop.ts):
 * a row is `width` Float64 numbers (numbers stored as is, other facts as
 * interned codes, NaN for missing). Successors come from the candidates
 * of a precondition index (float-index.ts); a row's hash is a Zobrist XOR
 * of per-slot mixes, so a child's hash is its parent's updated for the
 * slots an action changes.
 */
import { describeValue, LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import { type CompiledProblem, EFFECT_ADD, EFFECT_ASSIGN, passTests } from "./compiled-problem.js";
import { type FloatDerived, floatDerivedOf, gatherCandidates, type PreconditionIndex, relevantIndexOf } from "./float-index.js";
import { NO_MORE, NOT_YET, type StateRepresentation, startSearch } from "./search-loop.js";
import type { SearchRun, SearchSetup } from "./search-setup.js";
import type { NodeStore } from "./search-store.js";

/** Candidates rejected per call of `next` before the loop reads its clock again. */
const SCAN_BATCH = 64;
/** Rows up to this many slots are copied to another block by a loop, longer ones by `set` (which allocates a view). */
const SHORT_ROW = 64;

/** Runs A* on Float64 rows to the end. */
export function searchFloat(setup: SearchSetup): ReturnType<SearchRun["step"]> {
  return startFloatSearch(setup).step(Number.POSITIVE_INFINITY);
}

/** Starts A* on Float64 rows; the returned run searches in slices (see {@link SearchRun}). */
export function startFloatSearch(setup: SearchSetup): SearchRun {
  return startSearch(setup, new FloatRepresentation(setup));
}

function overflow(action: string, key: string, before: unknown, delta: number, result: number): LangGoapError {
  return new LangGoapError(
    "INVALID_EFFECT",
    `action "${action}": "${key}" ${delta >= 0 ? `+= ${delta}` : `-= ${-delta}`} on ${describeValue(before)} gives ${result}; numeric facts must stay finite`,
    { action, key, value: before, delta },
  );
}

const differ = (before: number, after: number): boolean => before !== after && !(Number.isNaN(before) && Number.isNaN(after));

class FloatRepresentation implements StateRepresentation<Float64Array> {
  readonly nodes: NodeStore<Float64Array>;
  readonly rowBytes: number;
  row: Float64Array;
  childHash = 0;
  readonly #p: CompiledProblem;
  readonly #d: FloatDerived;
  readonly #width: number;
  /** The precondition index the expansions gather from: without irrelevant actions when relevance analysis ran. */
  readonly #index: PreconditionIndex;
  /** Per slot: 0 when relevance analysis froze it (writes to it are dropped); undefined when none is. */
  readonly #keepSlot: Uint8Array | undefined;
  #node = -1;
  #rowBase = 0;
  #count = 0;
  #nextCandidate = 0;
  #state: WorldState | null = null;
  /** Each row block's words, for comparing rows bit for bit; `#wordsOf` holds the blocks they view. */
  readonly #words: Int32Array[] = [];
  readonly #wordsOf: Float64Array[] = [];

  constructor(setup: SearchSetup) {
    const { p } = setup;
    this.#p = p;
    this.#d = floatDerivedOf(setup);
    this.#width = p.width;
    const relevant = setup.relevantFloat;
    this.#keepSlot = relevant?.slot;
    if (relevant) {
      setup.workspace.floatRelevantIndex ??= relevantIndexOf(this.#d.index, relevant.action);
      this.#index = setup.workspace.floatRelevantIndex as PreconditionIndex;
    } else this.#index = this.#d.index;
    this.nodes = setup.workspace.takeFloatNodes(p.width);
    this.rowBytes = p.width * 8;
    this.row = this.nodes.rows(0);
  }

  seedRoot(): number {
    const rows = this.nodes.rows(0);
    rows.set(this.#p.start, 0);
    let hsh = 0;
    for (let i = 0; i < this.#width; i++) hsh ^= this.#mix(i, rows[i] as number);
    return hsh;
  }

  isGoal(node: number): boolean {
    const p = this.#p;
    return passTests(p, this.nodes.rows(node), this.nodes.at(node), p.goalTestStart, p.goalTestEnd);
  }

  sameRow(a: number, b: number): boolean {
    // Bit for bit, as the hash reads them (a missing fact, NaN, equals itself).
    const bitsA = this.#wordsAt(a);
    const bitsB = this.#wordsAt(b);
    const n = this.#width * 2;
    const ba = this.nodes.at(a) * 2;
    const bb = this.nodes.at(b) * 2;
    for (let i = 0; i < n; i++) if (bitsA[ba + i] !== bitsB[bb + i]) return false;
    return true;
  }

  /** The 32-bit words of the block holding node `node`'s row. */
  #wordsAt(node: number): Int32Array {
    const rows = this.nodes.rows(node);
    const b = this.nodes.blockOf(node);
    if (this.#wordsOf[b] !== rows) {
      this.#words[b] = new Int32Array(rows.buffer, rows.byteOffset, rows.length * 2);
      this.#wordsOf[b] = rows;
    }
    return this.#words[b] as Int32Array;
  }

  rowOf(node: number): number {
    this.row = this.nodes.rows(node);
    return this.nodes.at(node);
  }

  decode(node: number): WorldState {
    return this.#p.decodeState(this.nodes.rows(node), this.nodes.at(node));
  }

  expand(node: number): void {
    this.#node = node;
    this.#rowBase = this.nodes.at(node);
    this.#count = gatherCandidates(this.#index, this.nodes.rows(node), this.#rowBase, this.#d.candidates);
    this.#nextCandidate = 0;
    this.#state = null;
  }

  // Frozen: every child's cost and effect functions read this one object, so none may change it for its siblings.
  expandingState(): WorldState {
    this.#state ??= Object.freeze(this.decode(this.#node));
    return this.#state;
  }

  next(child: number): number {
    const p = this.#p;
    const rows = this.nodes.rows(this.#node);
    const childRows = this.nodes.rows(child);
    const { effectKey, effectOp, effectArg, actions } = p;
    const F = p.factCount;
    const W = this.#width;
    const rowBase = this.#rowBase;
    const candidates = this.#d.candidates;
    const keepSlot = this.#keepSlot;
    const stop = Math.min(this.#count, this.#nextCandidate + SCAN_BATCH);
    while (this.#nextCandidate < stop) {
      const a = actions[candidates[this.#nextCandidate++] as number]!;
      if (!passTests(p, rows, rowBase, a.testStart, a.testEnd)) continue;
      // An action whose static effects would change no fact makes no child: drop it before copying the row (a row
      // is the whole state, and on a long chain most applicable actions are such no-ops).
      if (!a.dynamicEffects && !this.#changesAFact(rows, a.effectStart, a.effectEnd, rowBase)) continue;
      const childBase = this.nodes.at(child);
      if (childRows === rows) childRows.copyWithin(childBase, rowBase, rowBase + W);
      else if (W <= SHORT_ROW) for (let i = 0; i < W; i++) childRows[childBase + i] = rows[rowBase + i] as number;
      else childRows.set(rows.subarray(rowBase, rowBase + W), childBase);
      for (let e = a.effectStart; e < a.effectEnd; e++) {
        const slot = effectKey[e] as number;
        // A frozen (irrelevant) fact keeps its start value: nothing the search tests reads it.
        if (keepSlot !== undefined && keepSlot[slot] === 0) continue;
        const op = effectOp[e];
        if (op === EFFECT_ASSIGN) childRows[childBase + slot] = effectArg[e] as number;
        else if (op === EFFECT_ADD) {
          const v = childRows[childBase + slot] as number;
          const sum = (Number.isNaN(v) ? 0 : v) + (effectArg[e] as number);
          if (!Number.isFinite(sum)) throw overflow(a.spec.name, p.keys[slot] as string, v, effectArg[e] as number, sum);
          childRows[childBase + slot] = sum === 0 ? 0 : sum;
        } else {
          const current = p.decode(slot, childRows[childBase + slot] as number);
          if (current !== undefined && typeof current !== "number") {
            throw new LangGoapError(
              "INVALID_EFFECT",
              `action "${a.spec.name}": cannot add to "${p.keys[slot]}" holding ${describeValue(current)}; expected a number`,
              { action: a.spec.name, key: p.keys[slot] },
            );
          }
          const sum = ((current as number | undefined) ?? 0) + (effectArg[e] as number);
          if (!Number.isFinite(sum)) throw overflow(a.spec.name, p.keys[slot] as string, current, effectArg[e] as number, sum);
          childRows[childBase + slot] = p.encode(slot, sum);
        }
      }
      if (a.dynamicEffects) {
        const produced = a.spec.getEffects(this.expandingState());
        for (const key in produced) {
          const slot = p.keyIndex.get(key) as number;
          childRows[childBase + slot] = p.encode(slot, produced[key]);
        }
      }
      // Incremental hash over the written slots; a transition that changes no fact makes no child.
      let hsh = this.nodes.hashOf[this.#node] as number;
      let changed = false;
      for (let e = a.effectStart; e < a.effectEnd; e++) {
        const slot = effectKey[e] as number;
        const before = rows[rowBase + slot] as number;
        const after = childRows[childBase + slot] as number;
        if (differ(before, after)) {
          hsh ^= this.#mix(slot, before) ^ this.#mix(slot, after);
          if (slot < F) changed = true;
        }
      }
      if (a.dynamicEffects) {
        const keys = a.dynamicKeys;
        for (let k = 0; k < keys.length; k++) {
          const slot = keys[k] as number;
          const before = rows[rowBase + slot] as number;
          const after = childRows[childBase + slot] as number;
          if (differ(before, after)) {
            hsh ^= this.#mix(slot, before) ^ this.#mix(slot, after);
            changed = true;
          }
        }
      }
      // A row copied for nothing: give the loop its clock before the next one.
      if (!changed) return NOT_YET;
      this.childHash = hsh;
      return a.index;
    }
    return this.#nextCandidate === this.#count ? NO_MORE : NOT_YET;
  }

  /**
   * False when effects [start, end) certainly leave every fact of the row at
   * `rowBase` as it is (`inc` on a value from a category table may change
   * it, so it counts as a change; the exact test runs after the child is written).
   */
  #changesAFact(arena: Float64Array, start: number, end: number, rowBase: number): boolean {
    const { effectKey, effectOp, effectArg } = this.#p;
    for (let e = start; e < end; e++) {
      const slot = effectKey[e] as number;
      if (slot >= this.#p.factCount) continue;
      if (this.#keepSlot !== undefined && this.#keepSlot[slot] === 0) continue;
      const op = effectOp[e];
      const before = arena[rowBase + slot] as number;
      if (op === EFFECT_ASSIGN) {
        if (differ(before, effectArg[e] as number)) return true;
      } else if (op === EFFECT_ADD) {
        if (Number.isNaN(before) || before + (effectArg[e] as number) !== before) return true;
      } else return true;
    }
    return false;
  }

  /** One slot's share of the Zobrist hash. */
  #mix(slot: number, v: number): number {
    const { conv, convBits, zLo, zHi } = this.#d;
    conv[0] = v;
    let x = (convBits[0] as number) ^ (zLo[slot] as number);
    x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) ^ (convBits[1] as number);
    x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) ^ (zHi[slot] as number);
    x = Math.imul(x ^ (x >>> 16), 0x27d4eb2d);
    return x ^ (x >>> 15);
  }
}
