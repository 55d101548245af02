import { describeValue, LangGoapError } from "./errors.js";
import type { EffectUpdatesOf } from "./fact-keys.js";
import { type Fact, isFact, type WorldState } from "./facts.js";
import { checkFactName, isPlainRecord } from "./names.js";

/** Numeric change operators; `set` assigns any fact. */
export interface EffectOperators {
  readonly inc?: number;
  readonly dec?: number;
  readonly set?: Fact;
}

/** A bare fact assigns; an operator object changes a number or sets a value. */
export type Effect = Fact | EffectOperators;

/** Static effects by key. */
export type Effects = Readonly<Record<string, Effect>>;

/**
 * Effects computed from the state. Must only return keys declared in the
 * action's `effectKeys`; values must be facts. `S` types the state (see
 * `defineDomain`); the default is the untyped world.
 */
export type EffectFunction<S extends WorldState = WorldState> = (state: Readonly<S>) => EffectUpdatesOf<S>;

export const EFFECT_OPERATORS = ["inc", "dec", "set"] as const;

/** True when `effect` is an operator object rather than a bare fact. */
export function isOperatorEffect(effect: Effect): effect is EffectOperators {
  return typeof effect === "object" && effect !== null;
}

/**
 * Validates and freezes static effects. `where` names the owner for errors.
 * Keys must be safe fact names; the object must be plain.
 *
 * @param owned - @internal The caller owns `effects` (freshly parsed JSON):
 *   validated and frozen in place instead of copied.
 */
export function normalizeEffects(effects: unknown, where: string, owned = false): Effects {
  if (effects === undefined || effects === null) return Object.freeze({});
  if (!isPlainRecord(effects)) {
    throw new LangGoapError(
      "INVALID_EFFECT",
      `${where}: expected an object of effects or a function, got ${Array.isArray(effects) || typeof effects !== "object" ? describeValue(effects) : "an object with a prototype (a class instance or a __proto__ literal)"}`,
      { where },
    );
  }
  const out = (owned ? effects : {}) as Record<string, Effect>;
  for (const key of Object.keys(effects)) {
    checkFactName(key, where, "INVALID_EFFECT");
    out[key] = normalizeEffect(effects[key], where, key, owned);
  }
  return Object.freeze(out);
}

function normalizeEffect(raw: unknown, owner: string, key: string, owned: boolean): Effect {
  if (isFact(raw)) return raw;
  // Built only on failure: a large domain normalizes millions of effects.
  const where = `${owner} key "${key}"`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new LangGoapError(
      "INVALID_EFFECT",
      `${where}: expected a fact or an operator object like { inc: 2 }, got ${describeValue(raw)}`,
      { where },
    );
  }
  const ops = Object.keys(raw);
  if (ops.length !== 1) {
    throw new LangGoapError(
      "INVALID_EFFECT",
      `${where}: an effect operator object holds exactly one of ${EFFECT_OPERATORS.join(", ")}, got ${describeValue(raw)}`,
      { where },
    );
  }
  const op = ops[0] as string;
  const operand = (raw as Record<string, unknown>)[op];
  const reuse = owned && isPlainRecord(raw);
  if (op === "inc" || op === "dec") {
    if (typeof operand !== "number" || !Number.isFinite(operand)) {
      throw new LangGoapError("INVALID_EFFECT", `${where}: operator "${op}" expects a finite number, got ${describeValue(operand)}`, {
        where,
        operator: op,
      });
    }
    return Object.freeze(reuse ? raw : { [op]: operand }) as EffectOperators;
  }
  if (op === "set") {
    if (!isFact(operand)) {
      throw new LangGoapError("INVALID_EFFECT", `${where}: operator "set" expects a fact, got ${describeValue(operand)}`, {
        where,
        operator: op,
      });
    }
    return Object.freeze(reuse ? raw : { set: operand }) as EffectOperators;
  }
  throw new LangGoapError("INVALID_EFFECT", `${where}: unknown operator "${op}"; expected one of ${EFFECT_OPERATORS.join(", ")}`, {
    where,
    operator: op,
  });
}

/**
 * The value a key takes after one effect. `inc`/`dec` treat a missing key as
 * 0 and reject non-numbers.
 */
export function resolveEffect(current: unknown, effect: Effect, where: string): Fact {
  if (!isOperatorEffect(effect)) return effect;
  if (effect.set !== undefined) return effect.set;
  const delta = effect.inc !== undefined ? effect.inc : -(effect.dec as number);
  const base = current === undefined ? 0 : current;
  if (typeof base !== "number") {
    throw new LangGoapError(
      "INVALID_EFFECT",
      `${where}: "${effect.inc !== undefined ? "inc" : "dec"}" needs a number but the state holds ${describeValue(current)}`,
      { where },
    );
  }
  const result = base + delta;
  if (!Number.isFinite(result)) {
    throw new LangGoapError(
      "INVALID_EFFECT",
      `${where}: ${describeValue(base)} ${delta >= 0 ? `+ ${delta}` : `- ${-delta}`} gives ${result}; numeric facts must stay finite`,
      { where, value: base, delta },
    );
  }
  return result;
}

/** Human-readable form of an effect, e.g. `wood += 2`. */
export function formatEffect(key: string, effect: Effect): string {
  if (!isOperatorEffect(effect)) return `${key} = ${describeValue(effect)}`;
  if (effect.inc !== undefined) return `${key} += ${effect.inc}`;
  if (effect.dec !== undefined) return `${key} -= ${effect.dec}`;
  return `${key} = ${describeValue(effect.set)}`;
}
