import { describeValue, LangGoapError } from "./errors.js";
import { type Fact, factOf, isFact, type WorldState } from "./facts.js";
import { checkFactName, isPlainRecord } from "./names.js";
import { factsEqual } from "./numeric-equality.js";

/** Comparison operators a condition may use; several in one object are ANDed. */
export interface ConditionOperators {
  readonly eq?: Fact;
  readonly ne?: Fact;
  readonly gt?: number;
  readonly gte?: number;
  readonly lt?: number;
  readonly lte?: number;
  readonly in?: readonly Fact[];
}

/** A bare fact means equality; an operator object compares. */
export type Condition = Fact | ConditionOperators;

/** Conditions by key, used for preconditions and goals. */
export type Conditions = Readonly<Record<string, Condition>>;

/** The names of the comparison operators. */
export const CONDITION_OPERATORS = ["eq", "ne", "gt", "gte", "lt", "lte", "in"] as const;
export type ConditionOperatorName = (typeof CONDITION_OPERATORS)[number];
const NUMERIC_OPERATORS = new Set(["gt", "gte", "lt", "lte"]);

/** True when `condition` is an operator object rather than a bare fact. */
export function isOperatorCondition(condition: Condition): condition is ConditionOperators {
  return typeof condition === "object" && condition !== null;
}

/**
 * Validates and freezes a conditions object. `where` names the owner for
 * error messages (e.g. `action "chop" preconditions`). Keys must be safe
 * fact names (see {@link checkFactName}); the object must be plain, so no
 * key hides in a prototype.
 *
 * @param owned - @internal The caller owns `conditions` and nobody else holds
 *   it (the domain loader's freshly parsed JSON): it is validated and frozen
 *   in place instead of copied, which halves the memory of a large domain.
 */
export function normalizeConditions(conditions: unknown, where: string, owned = false): Conditions {
  if (conditions === undefined || conditions === null) return Object.freeze({});
  if (!isPlainRecord(conditions)) {
    throw new LangGoapError(
      "INVALID_CONDITION",
      `${where}: expected an object of conditions, got ${Array.isArray(conditions) || typeof conditions !== "object" ? describeValue(conditions) : "an object with a prototype (a class instance or a __proto__ literal)"}`,
      { where },
    );
  }
  const out = (owned ? conditions : {}) as Record<string, Condition>;
  for (const key of Object.keys(conditions)) {
    checkFactName(key, where, "INVALID_CONDITION");
    out[key] = normalizeCondition(conditions[key], where, key, owned);
  }
  return Object.freeze(out);
}

function normalizeCondition(raw: unknown, owner: string, key: string, owned: boolean): Condition {
  if (isFact(raw)) return raw;
  // Built only on failure: a large domain normalizes millions of conditions.
  const where = `${owner} key "${key}"`;
  if (typeof raw === "number") {
    throw new LangGoapError("INVALID_CONDITION", `${where}: expected a finite number, got ${describeValue(raw)}`, { where });
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new LangGoapError(
      "INVALID_CONDITION",
      `${where}: expected a fact (boolean, number, string, null) or an operator object like { gte: 3 }, got ${describeValue(raw)}`,
      { where },
    );
  }
  const ops = Object.keys(raw);
  if (ops.length === 0) {
    throw new LangGoapError("INVALID_CONDITION", `${where}: empty operator object; use one of ${CONDITION_OPERATORS.join(", ")}`, {
      where,
    });
  }
  const out: Record<string, unknown> = owned && isPlainRecord(raw) ? raw : {};
  for (const op of ops) {
    const operand = (raw as Record<string, unknown>)[op];
    if (!(CONDITION_OPERATORS as readonly string[]).includes(op)) {
      throw new LangGoapError(
        "INVALID_CONDITION",
        `${where}: unknown operator "${op}"; expected one of ${CONDITION_OPERATORS.join(", ")}`,
        { where, operator: op },
      );
    }
    if (NUMERIC_OPERATORS.has(op)) {
      if (typeof operand !== "number" || !Number.isFinite(operand)) {
        throw new LangGoapError("INVALID_CONDITION", `${where}: operator "${op}" compares numbers, got ${describeValue(operand)}`, {
          where,
          operator: op,
          operand,
        });
      }
    } else if (op === "in") {
      if (!Array.isArray(operand) || operand.length === 0 || !operand.every(isFact)) {
        throw new LangGoapError(
          "INVALID_CONDITION",
          `${where}: operator "in" expects a non-empty array of facts, got ${describeValue(operand)}`,
          { where, operator: op, operand },
        );
      }
      out[op] = Object.freeze(out === raw ? operand : [...operand]);
      continue;
    } else if (!isFact(operand)) {
      throw new LangGoapError("INVALID_CONDITION", `${where}: operator "${op}" expects a fact, got ${describeValue(operand)}`, {
        where,
        operator: op,
        operand,
      });
    }
    out[op] = operand;
  }
  return Object.freeze(out) as ConditionOperators;
}

/**
 * Tests one condition against a value. A missing value (`undefined`) never
 * satisfies any condition, not even `{ ne: x }` or `{ eq: null }`. Numbers
 * are equal within a relative tolerance ({@link numbersEqual}), so
 * `{ x: 0.3 }` holds for `0.1 + 0.1 + 0.1`.
 */
export function testCondition(value: unknown, condition: Condition): boolean {
  if (value === undefined) return false;
  if (!isOperatorCondition(condition)) return factsEqual(value, condition);
  if (condition.eq !== undefined && !factsEqual(value, condition.eq)) return false;
  if (condition.ne !== undefined && factsEqual(value, condition.ne)) return false;
  if (condition.in !== undefined && !condition.in.some((v) => factsEqual(value, v))) return false;
  if (condition.gt !== undefined || condition.gte !== undefined || condition.lt !== undefined || condition.lte !== undefined) {
    if (typeof value !== "number") return false;
    if (condition.gt !== undefined && !(value > condition.gt)) return false;
    if (condition.gte !== undefined && !(value >= condition.gte)) return false;
    if (condition.lt !== undefined && !(value < condition.lt)) return false;
    if (condition.lte !== undefined && !(value <= condition.lte)) return false;
  }
  return true;
}

/** True when every condition holds in `state` (own properties only). Empty conditions always hold. */
export function satisfiesConditions(state: WorldState, conditions: Conditions): boolean {
  for (const key in conditions) {
    if (!testCondition(factOf(state, key), conditions[key] as Condition)) return false;
  }
  return true;
}

/** Keys whose condition does not hold in `state`, in declaration order. */
export function unsatisfiedKeys(state: WorldState, conditions: Conditions): string[] {
  const out: string[] = [];
  for (const key in conditions) {
    if (!testCondition(factOf(state, key), conditions[key] as Condition)) out.push(key);
  }
  return out;
}

/** Human-readable form of a condition, e.g. `wood >= 3`. */
export function formatCondition(key: string, condition: Condition): string {
  if (!isOperatorCondition(condition)) return `${key} = ${describeValue(condition)}`;
  const symbols: Record<ConditionOperatorName, string> = { eq: "=", ne: "!=", gt: ">", gte: ">=", lt: "<", lte: "<=", in: "in" };
  return Object.entries(condition)
    .map(([op, operand]) => `${key} ${symbols[op as ConditionOperatorName]} ${describeValue(operand)}`)
    .join(" and ");
}

/**
 * The numeric operands a condition uses, for type checks against declared
 * facts: true when it only makes sense on numbers.
 */
export function isNumericCondition(condition: Condition): boolean {
  return isOperatorCondition(condition) && Object.keys(condition).some((op) => NUMERIC_OPERATORS.has(op));
}
