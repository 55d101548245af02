/** Deep equality of JSON values. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

const OPERATORS = new Set(["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"]);

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length > 0 &&
    Object.keys(value).every((k) => OPERATORS.has(k))
  );
}

function testOperator(actual: unknown, op: string, operand: unknown): boolean {
  switch (op) {
    case "$eq":
      return jsonEqual(actual, operand);
    case "$ne":
      return !jsonEqual(actual, operand);
    case "$gt":
      return typeof actual === "number" && typeof operand === "number" && actual > operand;
    case "$gte":
      return typeof actual === "number" && typeof operand === "number" && actual >= operand;
    case "$lt":
      return typeof actual === "number" && typeof operand === "number" && actual < operand;
    case "$lte":
      return typeof actual === "number" && typeof operand === "number" && actual <= operand;
    case "$in":
      return Array.isArray(operand) && operand.some((v) => jsonEqual(actual, v));
    case "$nin":
      return !Array.isArray(operand) || !operand.some((v) => jsonEqual(actual, v));
    default:
      return false;
  }
}

/**
 * True when a stored value passes a LangGraph store filter: each top-level
 * key equals the given value (deeply), or passes every operator of an
 * operator object (`$eq $ne $gt $gte $lt $lte $in $nin`).
 *
 * @internal
 */
export function matchesFilter(value: Readonly<Record<string, unknown>>, filter: Readonly<Record<string, unknown>>): boolean {
  for (const [key, expected] of Object.entries(filter)) {
    // Own properties only: a filter on "constructor" must not see Object's.
    const actual = Object.hasOwn(value, key) ? value[key] : undefined;
    if (isOperatorObject(expected)) {
      for (const [op, operand] of Object.entries(expected)) if (!testOperator(actual, op, operand)) return false;
    } else if (!jsonEqual(actual, expected)) {
      return false;
    }
  }
  return true;
}
