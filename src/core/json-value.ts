import { describeValue, LangGoapError, type LangGoapErrorCode } from "./errors.js";
import { nextTurn, turnSliceMs, turnStartedAt } from "./turn-clock.js";

/**
 * How deeply a world state's values may nest objects and arrays. Far
 * beyond real data, and well within the stack of every recursive walker a
 * value meets on its way (state copies, `JSON.stringify`, checkpoint
 * serializers), which deeper values would overflow.
 */
export const MAX_VALUE_DEPTH = 1_000;

/** A value that is not JSON, where it is, and why. */
export interface NonJsonValue {
  /** Where, from the top: `inv.items[3].x` (keys that are not identifiers are quoted: `inv["a b"]`). */
  readonly path: string;
  /** What is wrong, e.g. `10n (a BigInt) is not JSON`. */
  readonly reason: string;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function childPath(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return path === "" ? key : `${path}.${key}`;
  return `${path}[${JSON.stringify(key)}]`;
}

function kindOf(value: object): string {
  try {
    const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === "string" && name !== "" ? `a ${name}` : "an object with a prototype";
  } catch {
    return "an object with a prototype";
  }
}

/**
 * Values looked at between two yields of {@link nonJsonValueSteps}: a
 * caller that paces itself reads its clock every few hundred values (a
 * world state of 10,000 facts took 2–12 ms to check in one go).
 */
export const VALUES_PER_STEP = 512;

/** An object or array being walked: its entries, the next one to look at, and where it is. */
interface Frame {
  readonly object: object;
  /** Its keys; null for an array (its indices). */
  readonly keys: readonly string[] | null;
  readonly length: number;
  next: number;
  readonly path: string;
  readonly depth: number;
}

/** What is wrong with a primitive value, or null when it is JSON (or undefined, which JSON drops). */
function primitiveProblem(value: unknown): string | null {
  switch (typeof value) {
    case "number":
      return Number.isFinite(value) ? null : `${String(value)} is not a JSON number`;
    case "bigint":
      return `${String(value)}n (a BigInt) is not JSON`;
    case "symbol":
      return `${String(value)} is not JSON`;
    case "function":
      return "a function is not JSON";
    default:
      return null;
  }
}

/** The entry `frame` is at, as a path. Paths are built only where they are needed: a problem, or an object entered. */
function entryPath(frame: Frame): string {
  const i = frame.next;
  return frame.keys === null ? `${frame.path}[${i}]` : childPath(frame.path, frame.keys[i] as string);
}

/**
 * @internal {@link findNonJsonValue} in steps: yields after every
 * {@link VALUES_PER_STEP} values looked at, so a caller can give the
 * event loop a turn between two steps; returns the first problem, or null.
 * The walk is depth-first in key order, the one {@link findNonJsonValue} makes.
 */
export function* nonJsonValueSteps(value: unknown, path = ""): Generator<void, NonJsonValue | null, void> {
  try {
    if (typeof value !== "object" || value === null) {
      const reason = primitiveProblem(value);
      return reason === null ? null : { path, reason };
    }
    const ancestors = new Set<object>();
    const stack: Frame[] = [];
    // Enters `object` at `at` (depth `depth`): its problem as an object, or null once its frame is on the stack.
    const enter = (object: object, at: string, depth: number): NonJsonValue | null => {
      if (ancestors.has(object)) return { path: at, reason: "a cycle (the value contains itself) is not JSON" };
      if (depth >= MAX_VALUE_DEPTH) return { path: at, reason: `nested more than ${MAX_VALUE_DEPTH} levels deep (MAX_VALUE_DEPTH)` };
      let keys: readonly string[] | null = null;
      let length: number;
      if (Array.isArray(object)) length = object.length;
      else {
        const proto = Object.getPrototypeOf(object);
        if (proto !== Object.prototype && proto !== null && !(object instanceof Date)) {
          return { path: at, reason: `${kindOf(object)} is not JSON (only plain objects, arrays and dates are)` };
        }
        keys = object instanceof Date ? [] : Object.keys(object);
        length = keys.length;
      }
      ancestors.add(object);
      stack.push({ object, keys, length, next: 0, path: at, depth });
      return null;
    };
    const first = enter(value, path, 0);
    if (first !== null) return first;
    let budget = VALUES_PER_STEP;
    while (stack.length > 0) {
      const frame = stack[stack.length - 1] as Frame;
      if (frame.next === frame.length) {
        ancestors.delete(frame.object);
        stack.pop();
        continue;
      }
      if (--budget === 0) {
        yield;
        budget = VALUES_PER_STEP;
      }
      const child =
        frame.keys === null
          ? (frame.object as unknown[])[frame.next]
          : (frame.object as Record<string, unknown>)[frame.keys[frame.next] as string];
      if (typeof child === "object" && child !== null) {
        const at = entryPath(frame);
        frame.next++;
        const problem = enter(child, at, frame.depth + 1);
        if (problem !== null) return problem;
        continue;
      }
      const reason = primitiveProblem(child);
      if (reason !== null) return { path: entryPath(frame), reason };
      frame.next++;
    }
    return null;
  } catch (error) {
    // A throwing getter or Proxy trap: the value cannot even be read.
    return { path: path || "(the value)", reason: `could not be read: ${(error as Error)?.message ?? describeValue(error)}` };
  }
}

/** Runs steps that yield only to give the event loop a turn to their value, in one go. */
function inOneGo<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The first part of `value` that is not JSON data, or null: a BigInt, a
 * Symbol, a function, `NaN` or `±Infinity` at any depth, a cycle, an
 * object other than a plain object, an array or a `Date` (a `Map`, a class
 * instance), or nesting deeper than {@link MAX_VALUE_DEPTH}. A property
 * whose getter throws, or a Proxy that refuses to be read, is reported
 * too. `undefined` is allowed (JSON drops it). One walk over the value;
 * `path` is the prefix of the paths reported.
 *
 * @example
 * ```ts
 * findNonJsonValue({ inv: { items: [1, 2, 3, { x: 10n }] } }); // { path: "inv.items[3].x", reason: "10n (a BigInt) is not JSON" }
 * ```
 */
export function findNonJsonValue(value: unknown, path = ""): NonJsonValue | null {
  return inOneGo(nonJsonValueSteps(value, path));
}

/**
 * Checks that a world state is an object of JSON values
 * ({@link findNonJsonValue}); throws `code` (`INVALID_STATE` by default)
 * naming `owner`, the fact's path and what is wrong. A state that cannot be
 * read (a throwing getter, a hostile Proxy) is refused the same way.
 *
 * @example
 * ```ts
 * checkStateValues({ wood: Number.NaN }, "plan"); // throws INVALID_STATE: plan: start state fact "wood": NaN is not a JSON number
 * ```
 */
export function checkStateValues(state: unknown, owner: string, code: LangGoapErrorCode = "INVALID_STATE"): void {
  inOneGo(stateValuesSteps(state, owner, code));
}

/**
 * @internal {@link checkStateValues} in steps (see {@link nonJsonValueSteps}):
 * a caller that must not block the event loop yields between two steps.
 */
export function* stateValuesSteps(state: unknown, owner: string, code: LangGoapErrorCode = "INVALID_STATE"): Generator<void, void, void> {
  let bad: NonJsonValue | null;
  try {
    if (typeof state !== "object" || state === null || Array.isArray(state)) {
      throw new LangGoapError(code, `${owner}: start state must be an object of facts, got ${describeValue(state)}`);
    }
  } catch (error) {
    if (error instanceof LangGoapError) throw error;
    bad = { path: "(the state)", reason: `could not be read: ${(error as Error)?.message ?? describeValue(error)}` };
    throw stateValueError(owner, code, bad);
  }
  bad = yield* nonJsonValueSteps(state);
  if (bad) throw stateValueError(owner, code, bad);
}

/**
 * @internal {@link checkStateValues} without blocking the event loop: the
 * steps of {@link stateValuesSteps}, with a turn for the event loop whenever
 * the current turn has run {@link turnSliceMs} (counted from the turn's
 * start, so work before the call counts). For async callers (the graph's
 * planner node) checking world states of thousands of facts.
 */
export async function checkStateValuesAsync(state: unknown, owner: string, code: LangGoapErrorCode = "INVALID_STATE"): Promise<void> {
  const steps = stateValuesSteps(state, owner, code);
  let sliceEnd = turnStartedAt() + turnSliceMs();
  while (!steps.next().done) {
    if (performance.now() < sliceEnd) continue;
    await nextTurn();
    sliceEnd = turnStartedAt() + turnSliceMs();
  }
}

function stateValueError(owner: string, code: LangGoapErrorCode, bad: NonJsonValue): LangGoapError {
  return new LangGoapError(code, `${owner}: start state fact "${bad.path}": ${bad.reason}`, { path: bad.path, reason: "invalid_value" });
}
