/**
 * Which keys of a world-state type `S` hold facts. Apart from
 * `fact-types.ts` so `effects.ts` can type its function effects without an
 * import cycle.
 */
import type { Fact, WorldState } from "./facts.js";

/** @internal True when `S` is untyped: its keys are any string (as `WorldState`'s are). */
export type IsUntyped<S> = string extends keyof S ? true : false;

/** @internal The value of key `K` in `S` as a condition or effect sees it (an optional key's `undefined` dropped). */
export type ValueOf<S, K extends keyof S> = Exclude<S[K], undefined>;

/**
 * The keys of `S` that hold plannable facts (booleans, numbers, strings,
 * `null`): the keys a condition or an effect may name. Any string for an
 * untyped state.
 *
 * @example
 * ```ts
 * type K = FactKey<{ wood: number; has_axe: boolean; log: string[] }>; // "wood" | "has_axe"
 * ```
 */
export type FactKey<S extends WorldState = WorldState> =
  IsUntyped<S> extends true ? string : { [K in keyof S & string]-?: ValueOf<S, K> extends Fact ? K : never }[keyof S & string];

/** What an effect function returns for a world of type `S`: some of its facts. */
export type EffectUpdatesOf<S extends WorldState = WorldState> =
  IsUntyped<S> extends true ? Readonly<Record<string, Fact>> : Readonly<Partial<Pick<S, FactKey<S>>>>;
