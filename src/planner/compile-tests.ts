/**
 * The test pool of a compiled problem: every condition becomes one or more
 * (slot, opcode, argument) tests in flat arrays, and every distinct
 * condition on one key an atom (kept whole for heuristics and
 * explanations) with its own test range.
 * @internal
 */
import { type Condition, type Conditions, isOperatorCondition } from "../core/conditions.js";
import type { Fact } from "../core/facts.js";
import type { Slots } from "./compile-slots.js";
import { type Atom, OP_DECODED_COMPARE, OP_EQ, OP_GT, OP_GTE, OP_IN, OP_LT, OP_LTE, OP_NE, OP_NEVER } from "./compiled-problem.js";

export interface TestPool {
  readonly atoms: Atom[];
  /** Number of tests so far (the next test's index). */
  readonly size: number;
  push(slot: number, op: number, arg: number): void;
  /** Compiles `conditions` to a test range, and their atoms. */
  conditions(conditions: Conditions): { start: number; end: number; atoms: number[] };
  finish(): { testKey: Int32Array; testOp: Uint8Array; testArg: Float64Array; testSets: Float64Array[] };
}

export function testPool({ keyIndex, numeric }: Slots, codeOf: (slot: number, value: unknown) => number): TestPool {
  const testKey: number[] = [];
  const testOp: number[] = [];
  const testArg: number[] = [];
  const testSets: Float64Array[] = [];
  const push = (slot: number, op: number, arg: number) => {
    testKey.push(slot);
    testOp.push(op);
    testArg.push(arg);
  };
  const compileCondition = (key: string, condition: Condition) => {
    const slot = keyIndex.get(key) as number;
    const isNum = numeric[slot] === 1;
    const eqArg = (v: unknown): [number, number] => {
      if (isNum) return typeof v === "number" ? [OP_EQ, v] : [OP_NEVER, 0];
      return [OP_EQ, codeOf(slot, v)];
    };
    if (!isOperatorCondition(condition)) {
      const [op, arg] = eqArg(condition);
      push(slot, op, arg);
      return;
    }
    for (const [op, operand] of Object.entries(condition)) {
      switch (op) {
        case "eq": {
          const [o, arg] = eqArg(operand);
          push(slot, o, arg);
          break;
        }
        case "ne":
          if (isNum) {
            if (typeof operand === "number") push(slot, OP_NE, operand);
            else push(slot, OP_NE, Number.POSITIVE_INFINITY); // any present number differs
          } else push(slot, OP_NE, codeOf(slot, operand));
          break;
        case "in": {
          const list = operand as Fact[];
          const codes = isNum ? list.filter((v): v is number => typeof v === "number") : list.map((v) => codeOf(slot, v));
          testSets.push(Float64Array.from(codes));
          push(slot, OP_IN, testSets.length - 1);
          break;
        }
        default: {
          const opCode = { gt: OP_GT, gte: OP_GTE, lt: OP_LT, lte: OP_LTE }[op as "gt"];
          if (isNum) push(slot, opCode, operand as number);
          else {
            // Encode the comparison op in the set table: [op, operand].
            testSets.push(Float64Array.from([opCode, operand as number]));
            push(slot, OP_DECODED_COMPARE, testSets.length - 1);
          }
        }
      }
    }
  };

  const atoms: Atom[] = [];
  const atomIds = new Map<string, number>();
  const atomFor = (key: string, condition: Condition): number => {
    const id = `${key}\u0000${JSON.stringify(condition)}`;
    let atom = atomIds.get(id);
    if (atom === undefined) {
      const testStart = testKey.length;
      compileCondition(key, condition);
      atom = atoms.length;
      atoms.push({ key: keyIndex.get(key) as number, keyName: key, condition, testStart, testEnd: testKey.length });
      atomIds.set(id, atom);
    }
    return atom;
  };

  return {
    atoms,
    get size() {
      return testKey.length;
    },
    push,
    conditions(conditions) {
      const atomList = Object.entries(conditions).map(([k, c]) => atomFor(k, c));
      const start = testKey.length;
      for (const [k, c] of Object.entries(conditions)) compileCondition(k, c);
      return { start, end: testKey.length, atoms: atomList };
    },
    finish() {
      return {
        testKey: Int32Array.from(testKey),
        testOp: Uint8Array.from(testOp),
        testArg: Float64Array.from(testArg),
        testSets,
      };
    },
  };
}
