/**
 * What compiling a problem produces (src/planner/compile.ts builds it): the
 * slot and opcode constants, the compiled atom, action and problem shapes,
 * and the test evaluator the search and the heuristics run on a row.
 */
import type { ActionSpec } from "../core/action.js";
import type { Condition } from "../core/conditions.js";
import type { Fact, WorldState } from "../core/facts.js";
import { numbersEqual } from "../core/numeric-equality.js";
import type { Pace } from "./pace.js";

/** Slot value of a missing key. */
export const MISSING = Number.NaN;

/** Test opcodes (module constants so V8 folds them). */
export const OP_EQ = 0;
export const OP_NE = 1;
export const OP_GT = 2;
export const OP_GTE = 3;
export const OP_LT = 4;
export const OP_LTE = 5;
export const OP_IN = 6;
/** Numeric comparison on a categorical slot: decode first. */
export const OP_DECODED_COMPARE = 7;
/** Can never hold (e.g. a string compared on a numeric key). */
export const OP_NEVER = 8;

/** Effect opcodes. */
export const EFFECT_ASSIGN = 0;
export const EFFECT_ADD = 1;
/** `inc`/`dec` on a categorical slot: decode, add, re-encode. */
export const EFFECT_DECODED_ADD = 2;

/** One condition on one key, kept whole for heuristics and explanations. */
export interface Atom {
  readonly key: number;
  readonly keyName: string;
  readonly condition: Condition;
  /** Test range in the problem's test pool. */
  readonly testStart: number;
  readonly testEnd: number;
}

export interface CompiledAction {
  readonly index: number;
  readonly spec: ActionSpec;
  readonly testStart: number;
  readonly testEnd: number;
  /** Atom ids of the preconditions. */
  readonly preAtoms: Int32Array;
  readonly effectStart: number;
  readonly effectEnd: number;
  /** Function effect: evaluated through a decoded state. */
  readonly dynamicEffects: boolean;
  /** Keys (slots) a function effect may write. */
  readonly dynamicKeys: Int32Array;
  /** Static cost, or -1 when the cost is a function. */
  readonly staticCost: number;
  /** Slot of the "used" bit for `canRerun: false`, or -1. */
  readonly onceSlot: number;
}

/** @internal A problem as the search sees it; not exported from the package (tests import it from this file). */
export interface CompiledProblem {
  readonly keys: readonly string[];
  readonly keyIndex: ReadonlyMap<string, number>;
  /** Number of fact slots. */
  readonly factCount: number;
  /** Row width: fact slots plus once-bits. */
  readonly width: number;
  /** 1 when a slot is numeric (stores the number itself). */
  readonly numeric: Uint8Array;
  /** Encoded start state (rebound by {@link rebindStart} when a compiled problem is reused). */
  start: Float64Array;
  readonly actions: readonly CompiledAction[];
  readonly atoms: readonly Atom[];
  readonly goalAtoms: Int32Array;
  readonly goalTestStart: number;
  readonly goalTestEnd: number;
  // Test pool.
  readonly testKey: Int32Array;
  readonly testOp: Uint8Array;
  readonly testArg: Float64Array;
  readonly testSets: readonly Float64Array[];
  // Effect pool.
  readonly effectKey: Int32Array;
  readonly effectOp: Uint8Array;
  readonly effectArg: Float64Array;
  /** Non-planning keys of the start state, passed to function effects and costs. */
  context: Readonly<WorldState>;
  encode(slot: number, value: unknown): number;
  decode(slot: number, code: number): Fact | undefined | unknown;
  decodeState(row: Float64Array, offset: number): WorldState;
  /**
   * Re-encodes a new start state into this problem. Returns false (and
   * changes nothing) when the state does not fit the compiled slot kinds,
   * e.g. a string where the domain holds numbers.
   */
  rebindStart(start: Readonly<WorldState>): boolean;
  /** {@link rebindStart} in slices (see `Pace`): a wide start state takes tens of milliseconds to encode. */
  rebindStartSteps(start: Readonly<WorldState>, pace: Pace): Generator<void, boolean, void>;
  /** Number of interned categorical values (grows with new strings seen). */
  valueCount(): number;
  /** Category codes of one categorical slot (value -> code). */
  codeOf(slot: number, value: unknown): number;
}

/**
 * Runs tests [start, end) against the row at `offset`. Inlined by hand in
 * the search loop's callers would be faster still, but V8 inlines this well.
 */
export function passTests(p: CompiledProblem, row: Float64Array, offset: number, start: number, end: number): boolean {
  const { testKey, testOp, testArg } = p;
  for (let t = start; t < end; t++) {
    const v = row[offset + (testKey[t] as number)] as number;
    const arg = testArg[t] as number;
    switch (testOp[t]) {
      // Categorical codes are integers, which numbersEqual compares exactly; numbers get its tolerance.
      case OP_EQ:
        if (v !== arg && !numbersEqual(v, arg)) return false;
        break;
      case OP_NE:
        if (Number.isNaN(v) || v === arg || numbersEqual(v, arg)) return false;
        break;
      case OP_GT:
        if (!(v > arg)) return false;
        break;
      case OP_GTE:
        if (!(v >= arg)) return false;
        break;
      case OP_LT:
        if (!(v < arg)) return false;
        break;
      case OP_LTE:
        if (!(v <= arg)) return false;
        break;
      case OP_IN: {
        if (Number.isNaN(v)) return false;
        const set = p.testSets[arg] as Float64Array;
        let found = false;
        for (let i = 0; i < set.length; i++) {
          if (set[i] === v || numbersEqual(set[i] as number, v)) {
            found = true;
            break;
          }
        }
        if (!found) return false;
        break;
      }
      case OP_DECODED_COMPARE: {
        const decoded = p.decode(testKey[t] as number, v);
        if (typeof decoded !== "number") return false;
        const spec = p.testSets[arg] as Float64Array;
        const bound = spec[1] as number;
        const ok =
          spec[0] === OP_GT
            ? decoded > bound
            : spec[0] === OP_GTE
              ? decoded >= bound
              : spec[0] === OP_LT
                ? decoded < bound
                : decoded <= bound;
        if (!ok) return false;
        break;
      }
      default:
        return false;
    }
  }
  return true;
}

/** Tests one atom against a single slot value (used by heuristics). */
export function atomHolds(p: CompiledProblem, atom: Atom, row: Float64Array, offset: number): boolean {
  return passTests(p, row, offset, atom.testStart, atom.testEnd);
}
