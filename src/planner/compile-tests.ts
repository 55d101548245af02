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
  // Plain loops over key arrays and no tuples: compiling runs once per problem, cold, where each iterator step
  // and each small array is garbage the caller's thread pays for in GC pauses on a world of 10,000 actions.
  const pushEquals = (slot: number, isNum: boolean, v: unknown) => {
    if (!isNum) push(slot, OP_EQ, codeOf(slot, v));
    else if (typeof v === "number") push(slot, OP_EQ, v);
    else push(slot, OP_NEVER, 0);
  };
  const compileCondition = (key: string, condition: Condition) => {
    const slot = keyIndex.get(key) as number;
    const isNum = numeric[slot] === 1;
    if (!isOperatorCondition(condition)) {
      pushEquals(slot, isNum, condition);
      return;
    }
    const ops = Object.keys(condition);
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i] as keyof typeof condition;
      const operand = condition[op];
      switch (op) {
        case "eq":
          pushEquals(slot, isNum, operand);
          break;
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
          const opCode = op === "gt" ? OP_GT : op === "gte" ? OP_GTE : op === "lt" ? OP_LT : OP_LTE;
          if (isNum) push(slot, opCode, operand as number);
          else {
            // Encode the comparison op in the set table: [op, operand].
            testSets.push(Float64Array.of(opCode, operand as number));
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
      const keys = Object.keys(conditions);
      const atomList: number[] = new Array(keys.length);
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i] as string;
        atomList[i] = atomFor(k, conditions[k] as Condition);
      }
      // The range is its atoms' tests in order (an atom is its condition's tests, compiled once).
      const start = testKey.length;
      for (let i = 0; i < atomList.length; i++) {
        const atom = atoms[atomList[i] as number] as Atom;
        for (let t = atom.testStart; t < atom.testEnd; t++) push(testKey[t] as number, testOp[t] as number, testArg[t] as number);
      }
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
