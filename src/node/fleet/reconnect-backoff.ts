/** @internal The backoff of a worker reconnecting to its database. */
export interface ReconnectTiming {
  /** Wait before the first attempt, ms. */
  readonly reconnectDelayMs: number;
  /** The longest wait between two attempts, ms. */
  readonly maxReconnectDelayMs: number;
}

/**
 * @internal The wait before reconnection attempt `attempt` (1 for the
 * first): `reconnectDelayMs` doubled after each failed attempt, capped at
 * `maxReconnectDelayMs`. No jitter: the schedule is the same every time
 * (100, 200, 400, … ms, then the cap), so an outage's log line can state
 * it and a test can rely on it.
 *
 * @example
 * ```ts
 * [1, 2, 3, 4, 5].map((n) => reconnectDelay(n, { reconnectDelayMs: 100, maxReconnectDelayMs: 1_000 })); // [100, 200, 400, 800, 1000]
 * ```
 */
export function reconnectDelay(attempt: number, timing: ReconnectTiming): number {
  const doublings = Math.min(Math.max(0, attempt - 1), 30);
  return Math.min(timing.maxReconnectDelayMs, timing.reconnectDelayMs * 2 ** doublings);
}
