import { LangGoapError } from "./errors.js";

/** Time limit of an observer (a tracer hook, a history store's `record`) unless configured otherwise: 5 seconds. */
export const DEFAULT_OBSERVER_TIMEOUT_MS = 5_000;

/** Longest delay `setTimeout` honours (a larger one fires at once); longer limits mean "no limit". */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * Checks a time limit option: a number > 0 (`Infinity` for none). Returns
 * it, or throws `INVALID_OPTION` naming `field`.
 *
 * @internal
 */
export function checkTimeout(value: unknown, field: string): number {
  if (typeof value !== "number" || !(value > 0) || Number.isNaN(value)) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `${field} must be a number of milliseconds > 0 (Infinity for no limit), got ${String(value)}`,
      {
        field,
        value,
      },
    );
  }
  return value;
}

/** A timed-out call: `LangGoapError` with code `TIMEOUT`, naming what timed out and the limit. */
export function timeoutError(what: string, ms: number, details: Record<string, unknown> = {}): LangGoapError {
  return new LangGoapError("TIMEOUT", `${what} did not settle within ${ms} ms`, { ...details, timeoutMs: ms });
}

/** Options of {@link settleWithin}. */
export interface DeadlineOptions {
  /** The limit in ms; `Infinity` (or anything beyond ~24.8 days) for none. */
  readonly ms: number;
  /** Rejects early with the signal's reason when it aborts. */
  readonly signal?: AbortSignal | undefined;
  /** The error to reject with when time runs out. */
  readonly onTimeout: () => unknown;
}

/**
 * `work`, unless it has not settled after `ms` or `signal` aborts first:
 * then the returned promise rejects (with `onTimeout()` or the signal's
 * reason) and `work`, which cannot be stopped from here, settles unobserved
 * (a later rejection is swallowed, never an unhandled rejection). Callers
 * that can, stop the work themselves (an `AbortSignal` they passed it).
 *
 * @internal
 */
export function settleWithin<T>(work: PromiseLike<T> | T, options: DeadlineOptions): Promise<T> {
  const { ms, signal, onTimeout } = options;
  const promise = Promise.resolve(work);
  if (ms > MAX_TIMER_MS && !signal) return promise;
  if (signal?.aborted) {
    promise.then(undefined, () => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener("abort", aborted);
    };
    const aborted = () => {
      stop();
      reject(signal?.reason);
    };
    if (ms <= MAX_TIMER_MS) {
      timer = setTimeout(() => {
        stop();
        reject(onTimeout());
      }, ms);
    }
    signal?.addEventListener("abort", aborted, { once: true });
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}
