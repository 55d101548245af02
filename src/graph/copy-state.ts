import type { WorldState } from "../core/index.js";
import { nextTurn, turnSliceMs, turnStartedAt } from "../core/turn-clock.js";

/**
 * A plain object's copy. Keys are written into a prototype-less object and
 * the prototype is set afterwards: V8 then skips the prototype-chain lookup
 * of every store, several times faster than a spread on large states, and
 * a key named `__proto__` stays an own property.
 */
function copyObject(value: Readonly<Record<string, unknown>>, proto: object | null, seen: Map<object, unknown>): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  seen.set(value, out);
  for (const key of Object.keys(value)) out[key] = copyValue(value[key], seen);
  if (proto !== null) Object.setPrototypeOf(out, proto);
  return out;
}

function copyValue(value: unknown, seen: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    seen.set(value, out);
    for (let i = 0; i < value.length; i++) out[i] = copyValue(value[i], seen);
    return out;
  }
  if (value instanceof Date) return new Date(value.getTime());
  const proto = Object.getPrototypeOf(value);
  // Maps, class instances and the like are not JSON: no checkpoint could keep them either, so they are shared.
  if (proto !== Object.prototype && proto !== null) return value;
  return copyObject(value as Record<string, unknown>, proto, seen);
}

/**
 * @internal A deep copy of a world state for user code to read (and
 * scribble on) without touching the run's state: plain objects, arrays and
 * dates are copied at every depth (shared and cyclic references kept as
 * such), primitives are shared (they cannot change), other objects (maps,
 * class instances) are shared as they are. The bench suite
 * `70-state-isolation` compares it with a spread, `structuredClone` and
 * deep freezing.
 */
export function copyState(state: Readonly<WorldState>): WorldState {
  return copyObject(state, Object.prototype, new Map());
}

/** @internal A deep copy of any value handed to user code, by the rules of {@link copyState} (a `GoapState`, a hook's arguments). */
export function copyData<T>(value: T): T {
  return copyValue(value, new Map()) as T;
}

/** Keys copied between two reads of the clock. */
const KEYS_PER_CLOCK_READ = 256;

/**
 * @internal A shallow copy of a world state (a plain object's own keys, as a
 * spread makes) without blocking the event loop: a turn for it whenever the
 * current turn has run {@link turnSliceMs}. Copying 10,000 facts in one go
 * took 10-30 ms. Keys go into a prototype-less object first, as in
 * {@link copyState}.
 */
export async function copyFactsInSlices(state: Readonly<WorldState>): Promise<WorldState> {
  const keys = Object.keys(state);
  const out = Object.create(null) as WorldState;
  let sliceEnd = turnStartedAt() + turnSliceMs();
  for (let i = 0; i < keys.length; i++) {
    if (i % KEYS_PER_CLOCK_READ === KEYS_PER_CLOCK_READ - 1 && performance.now() >= sliceEnd) {
      await nextTurn();
      sliceEnd = turnStartedAt() + turnSliceMs();
    }
    const key = keys[i] as string;
    out[key] = state[key] as WorldState[string];
  }
  Object.setPrototypeOf(out, Object.prototype);
  return out;
}
