/**
 * Compiles a planning problem into flat typed arrays so the search never
 * touches JS objects on its hot path. Every planning key gets a slot in a
 * Float64 row (`compile-slots.ts`); numeric keys store their number, other
 * keys an interned code (`compile-values.ts`); conditions become tests
 * (`compile-tests.ts`), actions test ranges and effect entries
 * (`compile-actions.ts`), the start state a row (`compile-start.ts`). Each
 * job runs in slices measured by time (see `Pace`): a wide world or a
 * domain of 100,000 actions takes seconds to compile.
 */
import type { ActionSpec } from "../core/action.js";
import { isFact, type WorldState } from "../core/facts.js";
import type { GoalSpec } from "../core/goal.js";
import { compileActionsSteps } from "./compile-actions.js";
import { slotsSteps } from "./compile-slots.js";
import { encodeStartSteps } from "./compile-start.js";
import { testPool } from "./compile-tests.js";
import { valueCodes } from "./compile-values.js";
import type { CompiledProblem } from "./compiled-problem.js";
import { type Pace, runUnpaced, unpaced } from "./pace.js";

/** The keys a plan can read or write: goal, preconditions and effects. */
export function planningKeys(goal: GoalSpec, actions: readonly ActionSpec[]): string[] {
  const keys = new Set<string>(Object.keys(goal.conditions));
  for (const a of actions) {
    for (const k of Object.keys(a.preconditions)) keys.add(k);
    for (const k of a.effectKeys) keys.add(k);
  }
  return [...keys];
}

/**
 * @internal Compiles start, goal and actions. Actions keep the order given
 * (callers sort them for tie-breaking first).
 */
export function compileProblem(start: Readonly<WorldState>, goal: GoalSpec, actions: readonly ActionSpec[]): CompiledProblem {
  return runUnpaced(compileSteps(start, goal, actions, unpaced()));
}

/** {@link compileProblem} in slices: yields when `pace` says the slice is over. @internal */
export function* compileSteps(
  start: Readonly<WorldState>,
  goal: GoalSpec,
  actions: readonly ActionSpec[],
  pace: Pace,
): Generator<void, CompiledProblem, void> {
  const slots = yield* slotsSteps(start, goal, actions, pace);
  const { keys, keyIndex, factCount, numeric } = slots;
  const codes = valueCodes(keys, numeric);
  const tests = testPool(slots, codes.codeOf);
  const goalCompiled = tests.conditions(goal.conditions);
  const compiled = yield* compileActionsSteps(actions, slots, codes, tests, pace);
  const { width, userReads } = compiled;
  const { decode } = codes;

  const problem: CompiledProblem = {
    keys,
    keyIndex,
    factCount,
    width,
    numeric,
    start: new Float64Array(width),
    actions: compiled.actions,
    atoms: tests.atoms,
    goalAtoms: Int32Array.from(goalCompiled.atoms),
    goalTestStart: goalCompiled.start,
    goalTestEnd: goalCompiled.end,
    ...tests.finish(),
    effectKey: compiled.effectKey,
    effectOp: compiled.effectOp,
    effectArg: compiled.effectArg,
    context: {},
    encode: codes.encode,
    decode,
    // Only cost and effect functions get decoded states with the start's other values; without them nothing needs protecting.
    decodeState(row, offset) {
      const out: WorldState = { ...problem.context };
      for (let i = 0; i < factCount; i++) {
        const v = decode(i, row[offset + i] as number);
        if (v !== undefined) out[keys[i] as string] = v;
      }
      return out;
    },
    codeOf: codes.codeOf,
    valueCount: codes.valueCount,
    rebindStart(next) {
      return runUnpaced(problem.rebindStartSteps(next, unpaced()));
    },
    *rebindStartSteps(next, stepPace) {
      const encoded = yield* encodeStartSteps(slots, codes, width, userReads, next, stepPace);
      if (encoded === null) return false;
      problem.start = encoded.row;
      problem.context = encoded.context;
      return true;
    },
  };
  // Slot kinds were read from this start, so only a non-finite number can fail to fit: the row then stays all zeros, as it always has.
  yield* problem.rebindStartSteps(start, pace);
  return problem;
}

/** True for a fact value that can be stored in a numeric slot. */
export function isNumericFact(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value) && isFact(value);
}
