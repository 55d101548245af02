/**
 * Compiles a planning problem into flat typed arrays so the search never
 * touches JS objects on its hot path. Every planning key gets a slot in a
 * Float64 row; numeric keys store their number, other keys an interned code;
 * a missing key is NaN. Actions with `canRerun: false` get an extra 0/1 slot
 * so "used on this path" is part of the searched state.
 */
import {
  type ActionSpec,
  type Condition,
  type Conditions,
  describeValue,
  type Effect,
  type Fact,
  factOf,
  frozenCopy,
  type GoalSpec,
  isFact,
  isOperatorCondition,
  isOperatorEffect,
  LangGoapError,
  type WorldState,
} from "../core/index.js";
import {
  type Atom,
  atomHolds,
  type CompiledAction,
  type CompiledProblem,
  EFFECT_ADD,
  EFFECT_ASSIGN,
  EFFECT_DECODED_ADD,
  MISSING,
  OP_DECODED_COMPARE,
  OP_EQ,
  OP_GT,
  OP_GTE,
  OP_IN,
  OP_LT,
  OP_LTE,
  OP_NE,
  OP_NEVER,
  passTests,
} from "./compiled-problem.js";
import { PACE_EVERY, type Pace, runUnpaced, unpaced } from "./pace.js";

// Re-exported: the search, heuristics and tests import these from here.
export type { Atom, CompiledAction, CompiledProblem };
export {
  atomHolds,
  EFFECT_ADD,
  EFFECT_ASSIGN,
  EFFECT_DECODED_ADD,
  MISSING,
  OP_DECODED_COMPARE,
  OP_EQ,
  OP_GT,
  OP_GTE,
  OP_IN,
  OP_LT,
  OP_LTE,
  OP_NE,
  OP_NEVER,
  passTests,
};

/** The keys a plan can read or write: goal, preconditions and effects. */
export function planningKeys(goal: GoalSpec, actions: readonly ActionSpec[]): string[] {
  const keys = new Set<string>(Object.keys(goal.conditions));
  for (const a of actions) {
    for (const k of Object.keys(a.preconditions)) keys.add(k);
    for (const k of a.effectKeys) keys.add(k);
  }
  return [...keys];
}

function conditionValues(condition: Condition): unknown[] {
  if (!isOperatorCondition(condition)) return [condition];
  const out: unknown[] = [];
  if (condition.eq !== undefined) out.push(condition.eq);
  if (condition.ne !== undefined) out.push(condition.ne);
  if (condition.in !== undefined) out.push(...condition.in);
  return out;
}

function effectValue(effect: Effect): unknown[] {
  if (!isOperatorEffect(effect)) return [effect];
  return effect.set !== undefined ? [effect.set] : [];
}

/**
 * @internal Compiles start, goal and actions. Actions keep the order given
 * (callers sort them for tie-breaking first).
 */
export function compileProblem(start: Readonly<WorldState>, goal: GoalSpec, actions: readonly ActionSpec[]): CompiledProblem {
  return runUnpaced(compileSteps(start, goal, actions, unpaced()));
}

/**
 * {@link compileProblem} in slices: yields when `pace` says the slice is
 * over, every {@link PACE_EVERY} actions or facts (a domain of 100,000
 * actions takes seconds to compile).
 * @internal
 */
export function* compileSteps(
  start: Readonly<WorldState>,
  goal: GoalSpec,
  actions: readonly ActionSpec[],
  pace: Pace,
): Generator<void, CompiledProblem, void> {
  const keySet = new Set<string>(Object.keys(goal.conditions));
  for (let i = 0; i < actions.length; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const a = actions[i] as ActionSpec;
    for (const k of Object.keys(a.preconditions)) keySet.add(k);
    for (const k of a.effectKeys) keySet.add(k);
  }
  const keys = [...keySet];
  const keyIndex = new Map(keys.map((k, i) => [k, i]));
  const factCount = keys.length;

  // A slot is numeric when every value we can see for it is a number.
  const sawNonNumber = new Uint8Array(factCount);
  const note = (key: string, value: unknown) => {
    const slot = keyIndex.get(key);
    if (slot !== undefined && value !== undefined && typeof value !== "number") sawNonNumber[slot] = 1;
  };
  for (const k of keys) note(k, factOf(start, k));
  for (const [k, c] of Object.entries(goal.conditions)) for (const v of conditionValues(c)) note(k, v);
  for (let i = 0; i < actions.length; i++) {
    if (i % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const a = actions[i] as ActionSpec;
    for (const [k, c] of Object.entries(a.preconditions)) for (const v of conditionValues(c)) note(k, v);
    const effects = a.staticEffects;
    if (effects) for (const [k, e] of Object.entries(effects)) for (const v of effectValue(e)) note(k, v);
  }
  const numeric = new Uint8Array(factCount);
  for (let i = 0; i < factCount; i++) numeric[i] = sawNonNumber[i] ? 0 : 1;

  // Categorical value tables. Booleans get codes 0/1 everywhere so boolean
  // domains index buckets densely. A slot gets its table at its first other
  // value: most slots of large domains hold booleans or numbers only, and two
  // objects per fact would be a million allocations on a wide domain.
  const tables: (Map<unknown, number> | undefined)[] = new Array(factCount);
  const values: (unknown[] | undefined)[] = new Array(factCount);
  const codeOf = (slot: number, value: unknown): number => {
    if (value === false) return 0;
    if (value === true) return 1;
    let table = tables[slot];
    if (table === undefined) {
      table = new Map<unknown, number>();
      tables[slot] = table;
      values[slot] = [false, true];
    }
    let code = table.get(value);
    if (code === undefined) {
      code = table.size + 2;
      table.set(value, code);
      (values[slot] as unknown[]).push(value);
    }
    return code;
  };
  const encode = (slot: number, value: unknown): number => {
    if (value === undefined) return MISSING;
    if (numeric[slot]) {
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw new LangGoapError("INVALID_EFFECT", `fact "${keys[slot]}" holds numbers in this domain, got ${describeValue(value)}`, {
          key: keys[slot],
        });
      }
      return value === 0 ? 0 : value;
    }
    return codeOf(slot, value);
  };
  const decode = (slot: number, code: number): unknown => {
    if (Number.isNaN(code)) return undefined;
    if (numeric[slot]) return code;
    return code === 0 ? false : code === 1 ? true : (values[slot] as unknown[])[code];
  };

  // canRerun: false actions get a used-bit slot.
  let width = factCount;
  const onceSlots = actions.map((a) => (a.canRerun ? -1 : width++));

  // Tests.
  const testKey: number[] = [];
  const testOp: number[] = [];
  const testArg: number[] = [];
  const testSets: Float64Array[] = [];
  const pushTest = (slot: number, op: number, arg: number) => {
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
      pushTest(slot, op, arg);
      return;
    }
    for (const [op, operand] of Object.entries(condition)) {
      switch (op) {
        case "eq": {
          const [o, arg] = eqArg(operand);
          pushTest(slot, o, arg);
          break;
        }
        case "ne":
          if (isNum) {
            if (typeof operand === "number") pushTest(slot, OP_NE, operand);
            else pushTest(slot, OP_NE, Number.POSITIVE_INFINITY); // any present number differs
          } else pushTest(slot, OP_NE, codeOf(slot, operand));
          break;
        case "in": {
          const list = operand as Fact[];
          const codes = isNum ? list.filter((v): v is number => typeof v === "number") : list.map((v) => codeOf(slot, v));
          testSets.push(Float64Array.from(codes));
          pushTest(slot, OP_IN, testSets.length - 1);
          break;
        }
        default: {
          const opCode = { gt: OP_GT, gte: OP_GTE, lt: OP_LT, lte: OP_LTE }[op as "gt"];
          if (isNum) pushTest(slot, opCode, operand as number);
          else {
            // Encode the comparison op in the set table: [op, operand].
            testSets.push(Float64Array.from([opCode, operand as number]));
            pushTest(slot, OP_DECODED_COMPARE, testSets.length - 1);
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
  const compileConditions = (conditions: Conditions): { start: number; end: number; atoms: number[] } => {
    const atomList = Object.entries(conditions).map(([k, c]) => atomFor(k, c));
    const start = testKey.length;
    for (const [k, c] of Object.entries(conditions)) compileCondition(k, c);
    return { start, end: testKey.length, atoms: atomList };
  };

  const goalCompiled = compileConditions(goal.conditions);

  const effectKey: number[] = [];
  const effectOp: number[] = [];
  const effectArg: number[] = [];
  const compiledActions: CompiledAction[] = [];
  for (let index = 0; index < actions.length; index++) {
    if (index % PACE_EVERY === 0 && pace.due()) yield* pace.pause();
    const spec = actions[index] as ActionSpec;
    const pre = compileConditions(spec.preconditions);
    const onceSlot = onceSlots[index] as number;
    const testStart = pre.start;
    if (onceSlot >= 0) pushTest(onceSlot, OP_EQ, 0);
    const testEnd = testKey.length;
    const effectStart = effectKey.length;
    const effects = spec.staticEffects;
    if (effects) {
      for (const [k, effect] of Object.entries(effects)) {
        const slot = keyIndex.get(k) as number;
        if (isOperatorEffect(effect) && effect.set === undefined) {
          const delta = effect.inc !== undefined ? effect.inc : -(effect.dec as number);
          effectKey.push(slot);
          effectOp.push(numeric[slot] ? EFFECT_ADD : EFFECT_DECODED_ADD);
          effectArg.push(delta);
        } else {
          const value = isOperatorEffect(effect) ? effect.set : effect;
          effectKey.push(slot);
          effectOp.push(EFFECT_ASSIGN);
          effectArg.push(encode(slot, value));
        }
      }
    }
    if (onceSlot >= 0) {
      effectKey.push(onceSlot);
      effectOp.push(EFFECT_ASSIGN);
      effectArg.push(1);
    }
    compiledActions.push({
      index,
      spec,
      testStart,
      testEnd,
      preAtoms: Int32Array.from(pre.atoms),
      effectStart,
      effectEnd: effectKey.length,
      dynamicEffects: spec.hasDynamicEffects,
      dynamicKeys: Int32Array.from([...spec.effectKeys].map((k) => keyIndex.get(k) as number)),
      staticCost: typeof spec.cost === "number" ? spec.cost : -1,
      onceSlot,
    });
  }

  // Only cost and effect functions get decoded states with the start's other values; without them nothing needs protecting.
  const userReads = compiledActions.some((a) => a.dynamicEffects || a.staticCost < 0);
  const decodeState = (row: Float64Array, offset: number): WorldState => {
    const out: WorldState = { ...problem.context };
    for (let i = 0; i < factCount; i++) {
      const v = decode(i, row[offset + i] as number);
      if (v !== undefined) out[keys[i] as string] = v;
    }
    return out;
  };

  const problem: CompiledProblem = {
    keys,
    keyIndex,
    factCount,
    width,
    numeric,
    start: new Float64Array(width),
    actions: compiledActions,
    atoms,
    goalAtoms: Int32Array.from(goalCompiled.atoms),
    goalTestStart: goalCompiled.start,
    goalTestEnd: goalCompiled.end,
    testKey: Int32Array.from(testKey),
    testOp: Uint8Array.from(testOp),
    testArg: Float64Array.from(testArg),
    testSets,
    effectKey: Int32Array.from(effectKey),
    effectOp: Uint8Array.from(effectOp),
    effectArg: Float64Array.from(effectArg),
    context: {},
    encode,
    decode,
    decodeState,
    codeOf,
    valueCount() {
      // Every slot has its two boolean codes, whether or not its table exists yet.
      let n = 2 * factCount;
      for (const list of values) if (list) n += list.length - 2;
      return n;
    },
    rebindStart(next) {
      for (let i = 0; i < factCount; i++) {
        const v = factOf(next, keys[i] as string);
        if (numeric[i] && v !== undefined && (typeof v !== "number" || !Number.isFinite(v))) return false;
      }
      const row = new Float64Array(width);
      for (let i = 0; i < factCount; i++) row[i] = encode(i, factOf(next, keys[i] as string));
      const ctx: WorldState = {};
      // Cost and effect functions read these once per generated state: one frozen copy keeps the caller's objects out of their reach.
      for (const [k, v] of Object.entries(next)) if (!keyIndex.has(k)) ctx[k] = userReads ? frozenCopy(v) : v;
      problem.start = row;
      problem.context = ctx;
      return true;
    },
  };
  problem.rebindStart(start);
  return problem;
}

/** True for a fact value that can be stored in a numeric slot. */
export function isNumericFact(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && isFact(value);
}
