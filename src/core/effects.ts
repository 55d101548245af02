import { describeValue, LangGoapError } from "./errors.js";
import { type Fact, isFact, type WorldState } from "./facts.js";

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
 * action's `effectKeys`; values must be facts.
 */
export type EffectFunction = (state: Readonly<WorldState>) => Readonly<Record<string, Fact>>;

export const EFFECT_OPERATORS = ["inc", "dec", "set"] as const;

/** True when `effect` is an operator object rather than a bare fact. */
export function isOperatorEffect(effect: Effect): effect is EffectOperators {
  return typeof effect === "object" && effect !== null;
}

/** Validates and freezes static effects. `where` names the owner for errors. */
export function normalizeEffects(effects: unknown, where: string): Effects {
  if (effects === undefined || effects === null) return Object.freeze({});
  if (typeof effects !== "object" || Array.isArray(effects)) {
    throw new LangGoapError("INVALID_EFFECT", `${where}: expected an object of effects or a function, got ${describeValue(effects)}`, {
      where,
    });
  }
  const out: Record<string, Effect> = {};
  for (const [key, raw] of Object.entries(effects as Record<string, unknown>)) {
    out[key] = normalizeEffect(raw, `${where} key "${key}"`);
  }
  return Object.freeze(out);
}

function normalizeEffect(raw: unknown, where: string): Effect {
  if (isFact(raw)) return raw;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new LangGoapError(
      "INVALID_EFFECT",
      `${where}: expected a fact or an operator object like { inc: 2 }, got ${describeValue(raw)}`,
      { where },
    );
  }
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length !== 1) {
    throw new LangGoapError(
      "INVALID_EFFECT",
      `${where}: an effect operator object holds exactly one of ${EFFECT_OPERATORS.join(", ")}, got ${describeValue(raw)}`,
      { where },
    );
  }
  const [op, operand] = entries[0] as [string, unknown];
  if (op === "inc" || op === "dec") {
    if (typeof operand !== "number" || !Number.isFinite(operand)) {
      throw new LangGoapError("INVALID_EFFECT", `${where}: operator "${op}" expects a finite number, got ${describeValue(operand)}`, {
        where,
        operator: op,
      });
    }
    return Object.freeze({ [op]: operand }) as EffectOperators;
  }
  if (op === "set") {
    if (!isFact(operand)) {
      throw new LangGoapError("INVALID_EFFECT", `${where}: operator "set" expects a fact, got ${describeValue(operand)}`, {
        where,
        operator: op,
      });
    }
    return Object.freeze({ set: operand });
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
