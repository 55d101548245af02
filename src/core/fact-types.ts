/**
 * The type-level vocabulary of typed domains: conditions and effects checked
 * against a world-state type `S` at compile time. Nothing here exists at run
 * time. Each type falls back to the untyped vocabulary when `S` has string
 * keys (the default `WorldState`), so the untyped API keeps its meaning.
 */
import type { Conditions } from "./conditions.js";
import type { Effects } from "./effects.js";
import type { FactKey, IsUntyped, ValueOf } from "./fact-keys.js";
import type { WorldState } from "./facts.js";

type NumericOperators = { readonly gt?: number; readonly gte?: number; readonly lt?: number; readonly lte?: number };
/** Spelled out as `never` (not left out) so `{ gte: 1 }` on a boolean names the operator in its error. */
type NoNumericOperators = { readonly gt?: never; readonly gte?: never; readonly lt?: never; readonly lte?: never };

/**
 * A condition on a fact whose value type is `V`: the value itself, or an
 * operator object whose operands have `V`'s type; `gt`/`gte`/`lt`/`lte` only
 * when `V` holds numbers.
 */
export type FactCondition<V> =
  | V
  | ({ readonly eq?: V; readonly ne?: V; readonly in?: readonly V[] } & ([Extract<V, number>] extends [never]
      ? NoNumericOperators
      : NumericOperators));

/**
 * Conditions (preconditions, goals) on a world of type `S`: only its fact
 * keys, each with a condition of its type. `Conditions` for an untyped state.
 *
 * @example
 * ```ts
 * type Facts = { has_axe: boolean; wood: number };
 * const ok: ConditionsOf<Facts> = { has_axe: true, wood: { gte: 3 } };
 * // @ts-expect-error -- no fact "has_axee"
 * const typo: ConditionsOf<Facts> = { has_axee: true };
 * ```
 */
export type ConditionsOf<S extends WorldState = WorldState> =
  IsUntyped<S> extends true ? Conditions : { readonly [K in FactKey<S>]?: FactCondition<ValueOf<S, K>> };

/**
 * An effect on a fact whose value type is `V`: the new value, `{ set }` with
 * `V`'s type, or (only when `V` is `number`) `{ inc }` / `{ dec }`. Exactly
 * one operator, as at run time.
 */
export type FactEffect<V> =
  | V
  | { readonly set: V; readonly inc?: never; readonly dec?: never }
  | (number extends V
      ?
          | { readonly inc: number; readonly dec?: never; readonly set?: never }
          | { readonly dec: number; readonly inc?: never; readonly set?: never }
      : never);

/**
 * Static effects on a world of type `S`: only its fact keys, each with an
 * effect of its type. `Effects` for an untyped state.
 *
 * @example
 * ```ts
 * const chop: EffectsOf<{ wood: number; has_axe: boolean }> = { wood: { inc: 2 } };
 * ```
 */
export type EffectsOf<S extends WorldState = WorldState> =
  IsUntyped<S> extends true ? Effects : { readonly [K in FactKey<S>]?: FactEffect<ValueOf<S, K>> };
