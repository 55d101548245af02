import type { HookContext } from "./deadline.js";
import type { WorldState } from "./facts.js";

/**
 * Three-valued answer about a condition: `true`, `false`, or `unknown` (the
 * resolver cannot tell; the key stays absent so the planner does not rely on it).
 *
 * @example
 * ```ts
 * ConditionStatus.TRUE; // "true"
 * const s: ConditionStatus = toConditionStatus("yes"); // "true"
 * ```
 */
export const ConditionStatus = Object.freeze({ TRUE: "true", FALSE: "false", UNKNOWN: "unknown" } as const);
export type ConditionStatus = (typeof ConditionStatus)[keyof typeof ConditionStatus];

const TRUE_WORDS = new Set(["true", "yes", "1"]);
const FALSE_WORDS = new Set(["false", "no", "0"]);

/**
 * Reads a resolver's loose answer: booleans map directly; the strings
 * `true`/`yes`/`1` and `false`/`no`/`0` (any case, trimmed) map to TRUE and
 * FALSE; anything else, `null` and `undefined` are UNKNOWN.
 *
 * @example
 * ```ts
 * toConditionStatus(" No "); // "false"
 * toConditionStatus(null);   // "unknown"
 * ```
 */
export function toConditionStatus(value: unknown): ConditionStatus {
  if (value === true) return ConditionStatus.TRUE;
  if (value === false) return ConditionStatus.FALSE;
  if (typeof value === "number") return value === 1 ? ConditionStatus.TRUE : value === 0 ? ConditionStatus.FALSE : ConditionStatus.UNKNOWN;
  if (typeof value !== "string") return ConditionStatus.UNKNOWN;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return ConditionStatus.TRUE;
  if (FALSE_WORDS.has(word)) return ConditionStatus.FALSE;
  return ConditionStatus.UNKNOWN;
}

/**
 * Decides a boolean fact before planning (OODA "orient"). TRUE writes
 * `true`, FALSE writes `false`, UNKNOWN leaves the key to the next resolver.
 * Implementations should not throw; callers treat a throw as UNKNOWN, and
 * so an answer later than the time limit (inside a graph, `hookTimeoutMs`;
 * `context.signal` aborts then).
 */
export interface ConditionResolver {
  readonly name: string;
  resolve(key: string, worldState: Readonly<WorldState>, context?: HookContext): ConditionStatus | Promise<ConditionStatus>;
}
