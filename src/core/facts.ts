/** A value the planner can reason about. */
export type Fact = boolean | number | string | null;

/**
 * The world as the agent sees it. Planning reads the keys that actions and
 * goals mention; any other JSON value is carried through execution untouched.
 */
export type WorldState = Record<string, unknown>;

/** True when `value` is a plannable {@link Fact} (finite numbers only). */
export function isFact(value: unknown): value is Fact {
  return value === null || typeof value === "boolean" || typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/**
 * The value of fact `key` in `state`, read as an own property only: a goal on
 * `toString` or `constructor` must not be satisfied by `Object.prototype`.
 * `undefined` when the state does not hold the key.
 *
 * @example
 * ```ts
 * factOf({ wood: 2 }, "wood"); // 2
 * factOf({}, "toString");     // undefined
 * ```
 */
export function factOf(state: Readonly<WorldState>, key: string): unknown {
  return Object.hasOwn(state, key) ? state[key] : undefined;
}

/** Declared type of a fact in a domain. */
export type FactType = "boolean" | "number" | "string";

/**
 * Optional declaration of a fact: its type, allowed values, bounds and the
 * words people use for it. Declared facts let {@link validateDomain} reject
 * typos and type mistakes, and let natural-language interpreters build exact
 * schemas.
 */
export interface FactSpec {
  readonly type: FactType;
  /** For string facts: the allowed values. */
  readonly values?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  readonly description?: string;
  /** Other words for this fact, used by keyword goal interpreters. */
  readonly synonyms?: readonly string[];
}

/** Declared facts by key. */
export type FactCatalog = Readonly<Record<string, FactSpec>>;
