import type { Conditions } from "../../core/conditions.js";
import type { GoalSpec } from "../../core/goal.js";
import { sha256Hex } from "../../core/sha256.js";

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/**
 * Stable hash of a goal's conditions: the first 16 hex digits of the SHA-256
 * of their canonical JSON (keys sorted at every level), so equal goals hash
 * equally whatever order their keys were written in.
 *
 * @example
 * ```ts
 * computeGoalHash({ b: 1, a: true }) === computeGoalHash({ a: true, b: 1 }); // true
 * ```
 */
export function computeGoalHash(goal: GoalSpec | Conditions): string {
  const conditions =
    (goal as GoalSpec).conditions !== undefined && typeof (goal as GoalSpec).isSatisfied === "function"
      ? (goal as GoalSpec).conditions
      : goal;
  return sha256Hex(JSON.stringify(canonical(conditions))).slice(0, 16);
}
