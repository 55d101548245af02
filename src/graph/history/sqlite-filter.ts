/**
 * Translates a LangGraph store filter into SQLite conditions over the JSON
 * `value` column, so a search reads only matching rows. A filter part that
 * SQL cannot express with the same meaning as {@link matchesFilter} (deep
 * object or array comparison, keys SQLite's JSON paths cannot quote) is left
 * for JavaScript: the caller applies it to the rows SQL returns.
 *
 * Type-exact on purpose: JSON `true` must not equal the number 1, so every
 * comparison checks `json_type` first, as JavaScript's `===` would.
 */

/** What SQL can check, and what is left for JavaScript. */
export interface CompiledSqliteFilter {
  /** Conditions joined with AND (empty when SQL checks nothing). */
  readonly conditions: readonly string[];
  readonly params: readonly unknown[];
  /** The filter entries SQL could not express (null when none). */
  readonly residual: Readonly<Record<string, unknown>> | null;
  /** Keys compared for equality with a string or number (an index on them can serve the query). */
  readonly equalityKeys: readonly string[];
}

const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

type Scalar = string | number | boolean | null;

function isScalar(value: unknown): value is Scalar {
  return value === null || typeof value === "string" || typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value));
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => OPERATORS.has(k));
}

/** A JSON path for one top-level key, or null when the key cannot be quoted safely. */
function jsonPath(key: string): string | null {
  // SQLite's JSON path grammar has no escape for '"' inside a quoted label.
  if (key.includes('"') || key.includes("\\")) return null;
  return `$."${key}"`;
}

class Builder {
  readonly params: unknown[] = [];
  /** The path as an SQL literal (not a parameter), so expression indexes on it can serve the query. */
  readonly #path: string;

  constructor(path: string) {
    this.#path = `'${path.replaceAll("'", "''")}'`;
  }

  /** 1 when the value at the path equals `value` (same JSON type), else 0 — never NULL. */
  equals(value: Scalar): string {
    const type = `IFNULL(json_type(value, ${this.#path}), '')`;
    if (value === null) return `(${type} = 'null')`;
    if (value === true) return `(${type} = 'true')`;
    if (value === false) return `(${type} = 'false')`;
    const extract = `json_extract(value, ${this.#path})`;
    if (typeof value === "number") return `(${extract} = ${this.param(value)} AND ${type} IN ('integer', 'real'))`;
    return `(${extract} = ${this.param(value)} AND ${type} = 'text')`;
  }

  compare(op: "$gt" | "$gte" | "$lt" | "$lte", operand: number): string {
    const sql = { $gt: ">", $gte: ">=", $lt: "<", $lte: "<=" }[op];
    return `(json_extract(value, ${this.#path}) ${sql} ${this.param(operand)} AND IFNULL(json_type(value, ${this.#path}), '') IN ('integer', 'real'))`;
  }

  param(value: unknown): string {
    this.params.push(value);
    return "?";
  }
}

/** One operator as SQL, or null when SQL cannot say it the way JavaScript does. */
function operatorSql(b: Builder, op: string, operand: unknown): string | null {
  switch (op) {
    case "$eq":
      return isScalar(operand) ? b.equals(operand) : null;
    case "$ne":
      return isScalar(operand) ? `NOT ${b.equals(operand)}` : null;
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte":
      // JavaScript's filter is false when either side is not a number.
      return typeof operand === "number" && Number.isFinite(operand) ? b.compare(op, operand) : typeof operand === "number" ? null : "0";
    case "$in":
      if (!Array.isArray(operand)) return "0";
      if (!operand.every(isScalar)) return null;
      return operand.length === 0 ? "0" : `(${operand.map((v) => b.equals(v)).join(" OR ")})`;
    case "$nin":
      if (!Array.isArray(operand)) return "1";
      if (!operand.every(isScalar)) return null;
      return operand.length === 0 ? "1" : `NOT (${operand.map((v) => b.equals(v)).join(" OR ")})`;
    default:
      return null;
  }
}

/**
 * @internal Splits `filter` into SQL conditions (with their parameters, in
 * order) and the residual part JavaScript must still check.
 */
export function compileSqliteFilter(filter: Readonly<Record<string, unknown>> | undefined): CompiledSqliteFilter {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const residual: Record<string, unknown> = {};
  const equalityKeys: string[] = [];
  let hasResidual = false;
  for (const [key, expected] of Object.entries(filter ?? {})) {
    const path = jsonPath(key);
    let parts: string[] | null = null;
    let builder: Builder | null = null;
    if (path !== null) {
      builder = new Builder(path);
      if (isOperatorObject(expected)) {
        parts = [];
        for (const [op, operand] of Object.entries(expected)) {
          const sql = operatorSql(builder, op, operand);
          if (sql === null) {
            parts = null;
            break;
          }
          parts.push(sql);
        }
      } else if (isScalar(expected)) {
        parts = [builder.equals(expected)];
        if (typeof expected === "string" || typeof expected === "number") equalityKeys.push(key);
      }
    }
    if (parts && builder) {
      conditions.push(...parts);
      params.push(...builder.params);
    } else {
      residual[key] = expected;
      hasResidual = true;
    }
  }
  return { conditions, params, residual: hasResidual ? residual : null, equalityKeys };
}
