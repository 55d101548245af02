/**
 * A quick structural check of one domain-file action, for loading domains of
 * a million actions: zod spends most of a large load building issue lists
 * and copies nobody reads. It accepts only what `actionSchema` accepts (a
 * property test holds the two together); anything it refuses is re-checked
 * by zod, whose message and JSON path the user then sees.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function isNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function isFactValue(value: unknown): boolean {
  return value === null || typeof value === "boolean" || typeof value === "string" || isNumber(value);
}

function isCondition(value: unknown): boolean {
  if (isFactValue(value)) return true;
  if (!isRecord(value)) return false;
  for (const op of Object.keys(value)) {
    const operand = value[op];
    switch (op) {
      case "eq":
      case "ne":
        if (!isFactValue(operand)) return false;
        break;
      case "gt":
      case "gte":
      case "lt":
      case "lte":
        if (!isNumber(operand)) return false;
        break;
      case "in":
        if (!Array.isArray(operand) || operand.length === 0 || !operand.every(isFactValue)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

function isEffect(value: unknown): boolean {
  if (isFactValue(value)) return true;
  if (!isRecord(value)) return false;
  const keys = Object.keys(value);
  if (keys.length !== 1) return false;
  const op = keys[0] as string;
  const operand = value[op];
  return op === "set" ? isFactValue(operand) : (op === "inc" || op === "dec") && isNumber(operand);
}

function everyValue(record: unknown, test: (value: unknown) => boolean): boolean {
  if (!isRecord(record)) return false;
  for (const key of Object.keys(record)) if (!test(record[key])) return false;
  return true;
}

/** @internal True when `raw` certainly passes `actionSchema`; false means "ask zod". */
export function isActionShape(raw: unknown): boolean {
  if (!isRecord(raw)) return false;
  for (const field of Object.keys(raw)) {
    const value = raw[field];
    switch (field) {
      case "name":
        if (typeof value !== "string" || value.length === 0) return false;
        break;
      case "preconditions":
        if (!everyValue(value, isCondition)) return false;
        break;
      case "effects":
        if (!everyValue(value, isEffect)) return false;
        break;
      case "cost":
      case "durationMs":
        if (!isNumber(value) || value < 0) return false;
        break;
      case "resources":
        if (!everyValue(value, isNumber)) return false;
        break;
      case "utility":
        if (!isNumber(value)) return false;
        break;
      case "description":
        if (typeof value !== "string") return false;
        break;
      case "canRerun":
      case "readOnly":
        if (typeof value !== "boolean") return false;
        break;
      case "maxRetries":
        if (!Number.isSafeInteger(value) || (value as number) < 0) return false;
        break;
      case "metadata":
        if (!isRecord(value)) return false;
        break;
      default:
        return false;
    }
  }
  return typeof raw.name === "string";
}
