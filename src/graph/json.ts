/**
 * @internal JSON helpers for checkpoint-safe state: stable key order for
 * registry keys, and a copy that drops what JSON cannot hold.
 */
import { findNonJsonValue, type NonJsonValue } from "../core/index.js";

/**
 * The first part of `value` a checkpoint could not hold ({@link findNonJsonValue}),
 * an unreadable value (a throwing getter, a hostile Proxy) included; null for JSON.
 */
export function notJsonPart(value: unknown): NonJsonValue | null {
  try {
    return findNonJsonValue(value);
  } catch (error) {
    return { path: "", reason: `could not be read: ${(error as Error)?.message ?? String(error)}` };
  }
}

/** JSON with object keys sorted at every level, so equal values give equal strings. */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? "null";
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(source).sort()) out[key] = sortKeys(source[key]);
    return out;
  }
  return value;
}

/**
 * A plain-JSON copy: functions and `undefined` are dropped, non-finite numbers
 * become `null`, class instances become their `toJSON()` or own fields.
 */
export function toJsonValue<T = unknown>(value: unknown): T {
  if (value === undefined) return undefined as T;
  return JSON.parse(JSON.stringify(value) ?? "null") as T;
}

/** True when two values are equal as JSON (facts compare with `===`). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  return stableJson(a) === stableJson(b);
}
