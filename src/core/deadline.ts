import { LangGoapError } from "./errors.js";
import { checkOptionKeys, type OptionKeys } from "./option-keys.js";

/** Time limit of an observer (a tracer hook, a history store's `record`) unless configured otherwise: 5 seconds. */
export const DEFAULT_OBSERVER_TIMEOUT_MS = 5_000;

/**
 * Time limit of a deciding hook (a termination policy, a guard, a stuck
 * handler, a condition resolver, an effect validator, a transition model's
 * sample) unless configured otherwise: 30 seconds.
 */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;

/** What a time-limited hook receives besides its own arguments. */
export interface HookContext {
  /** Aborted when the hook's time limit passes or the run is cancelled: stop the work then. */
  readonly signal: AbortSignal;
}

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

const DEADLINE_OPTIONS_KEYS = { ms: true, signal: true, onTimeout: true } as const satisfies OptionKeys<DeadlineOptions>;

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
  checkOptionKeys(options, DEADLINE_OPTIONS_KEYS, "settleWithin()");
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

/** Options of {@link callWithin}. */
export interface CallWithinOptions {
  /** The limit in ms; `Infinity` for none. */
  readonly ms: number;
  /** What is called, for the timeout's message (e.g. `termination policy "budget"`). */
  readonly what: string;
  /** Details of the timeout error besides `timeoutMs`. */
  readonly details?: Record<string, unknown>;
  /** The run's signal: its abort rejects at once with its reason and aborts the call's signal. */
  readonly signal?: AbortSignal | undefined;
}

const CALL_WITHIN_OPTIONS_KEYS = { ms: true, what: true, details: true, signal: true } as const satisfies OptionKeys<CallWithinOptions>;

/**
 * Calls user code with a time limit and a signal of its own: `call` gets an
 * `AbortSignal` that aborts when `ms` passes (with a `TIMEOUT` error naming
 * `what`) or when `options.signal` aborts. The result settles by then
 * either way: a synchronous throw becomes a rejection, and a promise still
 * pending is left behind unobserved. The one helper every time-limited
 * hook goes through.
 *
 * @example
 * ```ts
 * const verdict = await callWithin((signal) => guard.check(action, world, { signal }), { ms: 30_000, what: `guard "${guard.name}"` });
 * ```
 *
 * @internal
 */
export function callWithin<T>(call: (signal: AbortSignal) => T | PromiseLike<T>, options: CallWithinOptions): Promise<T> {
  checkOptionKeys(options, CALL_WITHIN_OPTIONS_KEYS, "callWithin()");
  const { ms, what, signal: outer } = options;
  const own = new AbortController();
  const signal = outer ? AbortSignal.any([outer, own.signal]) : own.signal;
  let work: T | PromiseLike<T>;
  try {
    work = call(signal);
  } catch (error) {
    return Promise.reject(error);
  }
  // A synchronous answer needs no timer (the common case of a plain policy or guard).
  if (!(work !== null && (typeof work === "object" || typeof work === "function") && typeof (work as PromiseLike<T>).then === "function")) {
    return Promise.resolve(work);
  }
  return settleWithin(work, {
    ms,
    signal: outer,
    onTimeout: () => {
      const error = timeoutError(what, ms, options.details);
      own.abort(error);
      return error;
    },
  });
}

/** True for the `TIMEOUT` error {@link callWithin} and {@link settleWithin} callers reject with. */
export function isTimeoutError(error: unknown): error is LangGoapError {
  return error instanceof LangGoapError && error.code === "TIMEOUT";
}
