/**
 * Stable error codes. Callers branch on `error.code`, never on message text.
 */
export type LangGoapErrorCode =
  | "INVALID_ACTION"
  | "INVALID_CONDITION"
  | "INVALID_EFFECT"
  | "INVALID_GOAL"
  | "INVALID_DOMAIN"
  | "INVALID_OPTION"
  | "UNKNOWN_OPTION"
  | "INVALID_PLAN"
  | "INVALID_SCORE"
  | "INVALID_STATE"
  | "INVALID_ANSWER"
  | "DUPLICATE_ACTION"
  | "UNKNOWN_FACT"
  | "UNKNOWN_ACTION"
  | "UNKNOWN_STRATEGY"
  | "BUDGET_EXCEEDED"
  | "SOLVER_ERROR"
  | "INTERPRETER_ERROR"
  | "EXECUTION_ERROR"
  | "TIMEOUT"
  | "STORE_ERROR"
  | "STEP_CLAIMED"
  | "NOT_PAUSED"
  | "THREAD_PAUSED"
  | "NOT_STARTED"
  | "NODE_ONLY"
  | "PDDL_SYNTAX"
  | "PDDL_UNSUPPORTED"
  | "NOT_SERIALIZABLE"
  | "WORKER_CRASHED"
  | "POOL_CLOSED"
  | "POOL_QUEUE_FULL";

/**
 * The one error class of langgoap. The message names the offending action,
 * key or value and says what was expected; `details` carries the same facts
 * in machine-readable form.
 *
 * @example
 * ```ts
 * try {
 *   new ActionSpec({ name: "chop", cost: -1 });
 * } catch (e) {
 *   if (e instanceof LangGoapError && e.code === "INVALID_ACTION") console.error(e.message);
 * }
 * ```
 */
export class LangGoapError extends Error {
  override readonly name = "LangGoapError";
  readonly code: LangGoapErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: LangGoapErrorCode, message: string, details: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.details = Object.freeze({ ...details });
  }
}

/** @internal Formats a value for an error message without throwing on cycles. */
export function describeValue(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "function") return "a function";
  // A promise would print as {}: a synchronous hook that returned one is told so.
  if (typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function") return "a Promise";
  if (value === undefined) return "undefined";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
