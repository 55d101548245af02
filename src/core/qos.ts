import { checkTimeout } from "./deadline.js";
import { describeValue, LangGoapError } from "./errors.js";
import { checkOptionKeys, type OptionKeys } from "./option-keys.js";
import type { Rng } from "./rng.js";

/** Which errors a retry policy retries: error names, classes, or a predicate. */
export type RetryableErrors = ReadonlyArray<string | (abstract new (...args: never[]) => Error)> | ((error: unknown) => boolean);

/** Options of {@link ActionQos}. */
export interface ActionQosOptions {
  /** Total attempts including the first. @defaultValue 1 */
  readonly maxAttempts?: number;
  /** Delay before the second attempt. @defaultValue 250 */
  readonly backoffInitialMs?: number;
  /** Growth factor per attempt (>= 1). @defaultValue 2 */
  readonly backoffMultiplier?: number;
  /** Cap on one delay. @defaultValue 30000 */
  readonly backoffMaxMs?: number;
  /** Relative jitter in [0, 1]: the delay is scaled by 1 ± jitter. @defaultValue 0.1 */
  readonly jitter?: number;
  /** An idempotent action is retried on any error. @defaultValue false */
  readonly idempotent?: boolean;
  /**
   * Errors retried when not idempotent. `"TimeoutError"` also matches the
   * executor's own time limit (a `LangGoapError` with code `TIMEOUT`).
   * @defaultValue ["TimeoutError"]
   */
  readonly retryableErrors?: RetryableErrors;
  /**
   * Time limit of one attempt in ms (`Infinity` for none). An attempt still
   * running then fails as a timeout: the `signal` given to `execute` is
   * aborted (the executor cannot stop code that ignores it) and the
   * failure is handled like any other, retried by this policy when
   * timeouts are retryable, then replanned.
   * @defaultValue the graph's `actionTimeoutMs` (5 minutes)
   */
  readonly timeoutMs?: number;
}

const ACTION_QOS_OPTIONS_KEYS = {
  maxAttempts: true,
  backoffInitialMs: true,
  backoffMultiplier: true,
  backoffMaxMs: true,
  jitter: true,
  idempotent: true,
  retryableErrors: true,
  timeoutMs: true,
} as const satisfies OptionKeys<ActionQosOptions>;

/**
 * Retry policy of one action inside the executor, below the planner's
 * replanning: attempts with exponential backoff and seeded jitter.
 *
 * @example
 * ```ts
 * const qos = new ActionQos({ maxAttempts: 3, backoffInitialMs: 100, jitter: 0 });
 * qos.computeBackoffMs(1); // 100
 * qos.computeBackoffMs(2); // 200
 * ```
 */
export class ActionQos {
  readonly maxAttempts: number;
  readonly backoffInitialMs: number;
  readonly backoffMultiplier: number;
  readonly backoffMaxMs: number;
  readonly jitter: number;
  readonly idempotent: boolean;
  readonly retryableErrors: RetryableErrors;
  /** Per-attempt time limit in ms; `undefined`: the executor's default. */
  readonly timeoutMs: number | undefined;

  constructor(options: ActionQosOptions = {}) {
    checkOptionKeys(options, ACTION_QOS_OPTIONS_KEYS, "ActionQos (an action's qos)");
    this.maxAttempts = options.maxAttempts ?? 1;
    this.backoffInitialMs = options.backoffInitialMs ?? 250;
    this.backoffMultiplier = options.backoffMultiplier ?? 2;
    this.backoffMaxMs = options.backoffMaxMs ?? 30_000;
    this.jitter = options.jitter ?? 0.1;
    this.idempotent = options.idempotent ?? false;
    this.retryableErrors = options.retryableErrors ?? ["TimeoutError"];
    this.timeoutMs = options.timeoutMs === undefined ? undefined : checkTimeout(options.timeoutMs, "ActionQos.timeoutMs");
    const bad = (field: string, expected: string, value: unknown) =>
      new LangGoapError("INVALID_OPTION", `ActionQos.${field}: expected ${expected}, got ${describeValue(value)}`, { field, value });
    if (!Number.isInteger(this.maxAttempts) || this.maxAttempts < 1) throw bad("maxAttempts", "an integer >= 1", this.maxAttempts);
    if (!(this.backoffInitialMs >= 0) || !Number.isFinite(this.backoffInitialMs))
      throw bad("backoffInitialMs", "a number >= 0", this.backoffInitialMs);
    if (!(this.backoffMultiplier >= 1) || !Number.isFinite(this.backoffMultiplier))
      throw bad("backoffMultiplier", "a number >= 1", this.backoffMultiplier);
    if (!(this.backoffMaxMs >= this.backoffInitialMs))
      throw bad("backoffMaxMs", `a number >= backoffInitialMs (${this.backoffInitialMs})`, this.backoffMaxMs);
    if (!(this.jitter >= 0 && this.jitter <= 1)) throw bad("jitter", "a number in [0, 1]", this.jitter);
    Object.freeze(this);
  }

  /** Delay in ms after failed attempt number `attempt` (1-based). */
  computeBackoffMs(attempt: number, rng?: Rng): number {
    if (!Number.isInteger(attempt) || attempt < 1) {
      throw new LangGoapError("INVALID_OPTION", `ActionQos.computeBackoffMs: attempt must be an integer >= 1, got ${attempt}`);
    }
    const capped = Math.min(this.backoffInitialMs * this.backoffMultiplier ** (attempt - 1), this.backoffMaxMs);
    if (this.jitter === 0) return capped;
    const r = rng ? rng.next() : 0.5;
    return capped * (1 + (2 * r - 1) * this.jitter);
  }

  /** Whether to try again after `error` on attempt number `attempt` (1-based). */
  shouldRetry(error: unknown, attempt: number): boolean {
    if (attempt >= this.maxAttempts) return false;
    if (this.idempotent) return true;
    const matcher = this.retryableErrors;
    if (typeof matcher === "function") {
      try {
        return matcher(error) === true;
      } catch {
        return false;
      }
    }
    return matcher.some((m) => (typeof m === "string" ? matchesName(error, m) : error instanceof m));
  }
}

/** True when `error`'s name or code is `name`; `"TimeoutError"` also covers our own `TIMEOUT` code. */
function matchesName(error: unknown, name: string): boolean {
  const { name: errorName, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  return errorName === name || code === name || (name === "TimeoutError" && error instanceof LangGoapError && code === "TIMEOUT");
}

/** One attempt, no retry: the default of every action. */
export const FIRE_ONCE: ActionQos = new ActionQos({ maxAttempts: 1 });

/** Five attempts, 10 s initial backoff growing ×5 up to 60 s. */
export const DEFAULT_RETRY_POLICY: ActionQos = new ActionQos({
  maxAttempts: 5,
  backoffInitialMs: 10_000,
  backoffMultiplier: 5,
  backoffMaxMs: 60_000,
  jitter: 0.1,
});
