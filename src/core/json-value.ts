import { describeValue, LangGoapError, type LangGoapErrorCode } from "./errors.js";

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

/** Thrown inside the walk to stop at the first problem (one walk, no result objects on the way). */
class Found {
  constructor(readonly problem: NonJsonValue) {}
}

function walk(value: unknown, path: string, depth: number, ancestors: Set<object>): void {
  switch (typeof value) {
    case "string":
    case "boolean":
    case "undefined":
      return;
    case "number":
      if (!Number.isFinite(value)) throw new Found({ path, reason: `${String(value)} is not a JSON number` });
      return;
    case "bigint":
      throw new Found({ path, reason: `${String(value)}n (a BigInt) is not JSON` });
    case "symbol":
      throw new Found({ path, reason: `${String(value)} is not JSON` });
    case "function":
      throw new Found({ path, reason: "a function is not JSON" });
  }
  if (value === null) return;
  const object = value as object;
  if (ancestors.has(object)) throw new Found({ path, reason: "a cycle (the value contains itself) is not JSON" });
  if (depth >= MAX_VALUE_DEPTH) {
    throw new Found({ path, reason: `nested more than ${MAX_VALUE_DEPTH} levels deep (MAX_VALUE_DEPTH)` });
  }
  ancestors.add(object);
  if (Array.isArray(object)) {
    for (let i = 0; i < object.length; i++) walk(object[i], `${path}[${i}]`, depth + 1, ancestors);
  } else {
    const proto = Object.getPrototypeOf(object);
    if (proto !== Object.prototype && proto !== null && !(object instanceof Date)) {
      throw new Found({ path, reason: `${kindOf(object)} is not JSON (only plain objects, arrays and dates are)` });
    }
    if (!(object instanceof Date)) {
      const record = object as Record<string, unknown>;
      for (const key of Object.keys(record)) walk(record[key], childPath(path, key), depth + 1, ancestors);
    }
  }
  ancestors.delete(object);
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
  try {
    walk(value, path, 0, new Set());
    return null;
  } catch (error) {
    if (error instanceof Found) return error.problem;
    // A throwing getter or Proxy trap: the value cannot even be read.
    return { path: path || "(the value)", reason: `could not be read: ${(error as Error)?.message ?? describeValue(error)}` };
  }
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
  let bad: NonJsonValue | null;
  try {
    if (typeof state !== "object" || state === null || Array.isArray(state)) {
      throw new LangGoapError(code, `${owner}: start state must be an object of facts, got ${describeValue(state)}`);
    }
    bad = findNonJsonValue(state);
  } catch (error) {
    if (error instanceof LangGoapError) throw error;
    bad = { path: "(the state)", reason: `could not be read: ${(error as Error)?.message ?? describeValue(error)}` };
  }
  if (!bad) return;
  throw new LangGoapError(code, `${owner}: start state fact "${bad.path}": ${bad.reason}`, { path: bad.path, reason: "invalid_value" });
}
