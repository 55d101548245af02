import type { ActionSpec } from "./action.js";
import { type Condition, type ConditionOperators, type Conditions, isOperatorCondition } from "./conditions.js";
import { type EffectFunction, isOperatorEffect } from "./effects.js";
import { describeValue, LangGoapError } from "./errors.js";
import type { FactCatalog, FactSpec } from "./facts.js";

/** The declared bounds of a number fact, or `undefined` when it has none. */
export function boundsOf(spec: FactSpec | undefined): { readonly min: number; readonly max: number } | undefined {
  if (spec?.type !== "number" || (spec.min === undefined && spec.max === undefined)) return undefined;
  return { min: spec.min ?? Number.NEGATIVE_INFINITY, max: spec.max ?? Number.POSITIVE_INFINITY };
}

/** "[0, 10]", "at least 0", "at most 10" */
export function describeBounds(spec: FactSpec): string {
  if (spec.min !== undefined && spec.max !== undefined) return `[${spec.min}, ${spec.max}]`;
  return spec.min !== undefined ? `at least ${spec.min}` : `at most ${spec.max}`;
}

/** Why `value` breaks the bounds of `spec`, or `undefined`. */
export function boundViolation(key: string, value: unknown, spec: FactSpec): string | undefined {
  const bounds = boundsOf(spec);
  if (!bounds || typeof value !== "number") return undefined;
  if (value < bounds.min || value > bounds.max) {
    const range = spec.min !== undefined && spec.max !== undefined ? `within ${describeBounds(spec)}` : describeBounds(spec);
    return `fact "${key}" must be ${range} (declared bounds), got ${describeValue(value)}`;
  }
  return undefined;
}

/**
 * Why a numeric comparison can never hold inside the bounds (`hp >= 50`
 * with `max: 10`), or `undefined`.
 */
export function impossibleRange(key: string, condition: Condition, spec: FactSpec): string | undefined {
  const bounds = boundsOf(spec);
  if (!bounds || !isOperatorCondition(condition)) return undefined;
  const { gt, gte, lt, lte } = condition;
  const tooHigh = (gte !== undefined && gte > bounds.max) || (gt !== undefined && gt >= bounds.max);
  const tooLow = (lte !== undefined && lte < bounds.min) || (lt !== undefined && lt <= bounds.min);
  return tooHigh || tooLow ? `can never hold: fact "${key}" is declared within ${describeBounds(spec)}` : undefined;
}

function withLimit(existing: Condition | undefined, op: "gte" | "lte", limit: number): Condition {
  if (existing === undefined) return { [op]: limit };
  const base: ConditionOperators = isOperatorCondition(existing) ? existing : { eq: existing };
  const current = base[op];
  const tighter = current === undefined ? limit : op === "lte" ? Math.min(current, limit) : Math.max(current, limit);
  return { ...base, [op]: tighter };
}

function boundedFunction(name: string, effects: EffectFunction, facts: FactCatalog, keys: readonly string[]): EffectFunction {
  return (state) => {
    const out = effects(state);
    if (typeof out === "object" && out !== null) {
      for (const key of keys) {
        const spec = facts[key] as FactSpec;
        const problem = Object.hasOwn(out, key) ? boundViolation(key, out[key], spec) : undefined;
        if (problem) {
          throw new LangGoapError("INVALID_EFFECT", `action "${name}": effect function broke a declared bound: ${problem}`, {
            action: name,
            key,
            value: out[key],
            min: spec.min,
            max: spec.max,
          });
        }
      }
    }
    return out;
  };
}

/**
 * The actions with declared `min`/`max` enforced on their results: an
 * `inc`/`dec` on a bounded fact gains the precondition that keeps the result
 * inside the bounds (`inc: 2` under `max: 10` needs the fact `<= 8`, so the
 * planner never passes through 12), and a function effect writing a bounded
 * fact throws `INVALID_EFFECT` naming the action when it leaves them.
 * Static values (`hp: 50`, `set`) are checked by `validateDomain`.
 * Actions without bounded effects are returned as they are.
 *
 * @example
 * ```ts
 * const [chop] = applyFactBounds([new ActionSpec({ name: "chop", effects: { wood: { inc: 2 } } })], {
 *   wood: { type: "number", min: 0, max: 10 },
 * });
 * chop.preconditions; // { wood: { lte: 8 } }
 * ```
 */
export function applyFactBounds(actions: readonly ActionSpec[], facts: FactCatalog | undefined): ActionSpec[] {
  if (!facts) return [...actions];
  const bounded = Object.keys(facts).filter((key) => boundsOf(facts[key]) !== undefined);
  if (bounded.length === 0) return [...actions];
  return actions.map((action) => {
    const effects = action.staticEffects;
    if (!effects) {
      const keys = bounded.filter((key) => action.effectKeys.has(key));
      if (keys.length === 0) return action;
      return action.with({
        effects: boundedFunction(action.name, action.effects as EffectFunction, facts, keys),
        effectKeys: action.effectKeys,
      });
    }
    let preconditions: Record<string, Condition> | undefined;
    for (const key of bounded) {
      const effect = Object.hasOwn(effects, key) ? effects[key] : undefined;
      if (effect === undefined || !isOperatorEffect(effect) || effect.set !== undefined) continue;
      const delta = effect.inc !== undefined ? effect.inc : -(effect.dec as number);
      const bounds = boundsOf(facts[key]) as { min: number; max: number };
      const limit = delta > 0 ? bounds.max - delta : delta < 0 ? bounds.min - delta : Number.NaN;
      if (!Number.isFinite(limit)) continue;
      preconditions ??= { ...action.preconditions };
      const existing = Object.hasOwn(preconditions, key) ? preconditions[key] : undefined;
      preconditions[key] = withLimit(existing, delta > 0 ? "lte" : "gte", limit);
    }
    return preconditions ? action.with({ preconditions: preconditions as Conditions }) : action;
  });
}
