/**
 * @internal A deep copy of `value` whose plain objects and arrays are
 * frozen: made once and shared by every call of user code that reads it
 * (the planner's cost and effect functions run once per generated state),
 * so whatever that code tries to change, the caller's object stays as it
 * was. Shared and cyclic references stay shared; other objects (dates,
 * maps, class instances) are shared as they are.
 */
export function frozenCopy<T>(value: T, seen: Map<object, unknown> = new Map()): T {
  if (typeof value !== "object" || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done as T;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    seen.set(value, out);
    for (let i = 0; i < value.length; i++) out[i] = frozenCopy(value[i], seen);
    return Object.freeze(out) as T;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  const out = (proto === null ? Object.create(null) : {}) as Record<string, unknown>;
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    const copy = frozenCopy((value as Record<string, unknown>)[key], seen);
    // A key named __proto__ stays an own property (an assignment would set the prototype).
    if (key === "__proto__") Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return Object.freeze(out) as T;
}
