import { checkTimeout, describeValue, LangGoapError, settleWithin, timeoutError } from "../core/index.js";

/** Time limit of one chat-model call unless configured otherwise: 60 seconds. */
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000;

/** How transient provider failures are retried (see {@link isTransientProviderError}). */
export interface ProviderRetryOptions {
  /** Calls in all, the first included (1: no retry). @defaultValue 3 */
  readonly maxAttempts?: number;
  /** Wait before the first retry; doubled for each next one. @defaultValue 1000 */
  readonly initialDelayMs?: number;
  /** Longest single wait. A provider that asks (`retry-after`) for longer is not retried. @defaultValue 20000 */
  readonly maxDelayMs?: number;
}

/** @internal Retry settings, checked. */
export interface ProviderCallSettings {
  readonly timeoutMs: number;
  readonly maxAttempts: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
}

/** @internal Checks and completes the time limit and retry options of a model-calling component, naming `owner` in errors. */
export function providerCallSettings(owner: string, timeoutMs: number | undefined, retry: ProviderRetryOptions = {}): ProviderCallSettings {
  const bad = (field: string, expected: string, value: unknown) =>
    new LangGoapError("INVALID_OPTION", `${owner}: ${field} must be ${expected}, got ${describeValue(value)}`, { field });
  const maxAttempts = retry.maxAttempts ?? 3;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw bad("retry.maxAttempts", "an integer >= 1", maxAttempts);
  const initialDelayMs = retry.initialDelayMs ?? 1_000;
  if (!(initialDelayMs >= 0) || !Number.isFinite(initialDelayMs)) throw bad("retry.initialDelayMs", "a number >= 0", initialDelayMs);
  const maxDelayMs = retry.maxDelayMs ?? 20_000;
  if (!(maxDelayMs >= initialDelayMs) || !Number.isFinite(maxDelayMs)) {
    throw bad("retry.maxDelayMs", `a finite number >= retry.initialDelayMs (${initialDelayMs})`, maxDelayMs);
  }
  return {
    timeoutMs: timeoutMs === undefined ? DEFAULT_MODEL_TIMEOUT_MS : checkTimeout(timeoutMs, `${owner}: timeoutMs`),
    maxAttempts,
    initialDelayMs,
    maxDelayMs,
  };
}

const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EPIPE",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
]);
const NETWORK_NAMES = new Set(["APIConnectionError", "APIConnectionTimeoutError", "FetchError", "TimeoutError"]);

function statusOf(error: Record<string, unknown>): number | undefined {
  const response = error.response as { status?: unknown } | undefined;
  for (const value of [error.status, error.statusCode, response?.status]) if (typeof value === "number") return value;
  return undefined;
}

/**
 * True for a provider failure worth trying again: our own time limit, a
 * rate limit (429, except an exhausted quota), a request timeout or conflict
 * (408, 409, 425), a server error (5xx), or a network failure (connection
 * refused or reset, DNS, fetch failed), looked for along the `cause` chain.
 * A refused request (400, 401, 403, 404, 422), an unusable answer and a
 * caller's abort are not.
 *
 * @example
 * ```ts
 * isTransientProviderError(Object.assign(new Error("Rate limit"), { status: 429 })); // true
 * isTransientProviderError(Object.assign(new Error("Bad key"), { status: 401 }));    // false
 * ```
 */
export function isTransientProviderError(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === "object" && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const err = e as Record<string, unknown>;
    if (err.name === "AbortError") return false;
    if (e instanceof LangGoapError) return e.code === "TIMEOUT";
    const status = statusOf(err);
    if (status !== undefined) {
      const quota = err.code === "insufficient_quota" || (err.error as { code?: unknown } | undefined)?.code === "insufficient_quota";
      return (status === 429 && !quota) || status === 408 || status === 409 || status === 425 || status >= 500;
    }
    if (typeof err.code === "string" && NETWORK_CODES.has(err.code)) return true;
    if (typeof err.name === "string" && NETWORK_NAMES.has(err.name)) return true;
    if (e instanceof TypeError && /fetch failed|network/i.test(e.message)) return true;
  }
  return false;
}

/** The provider's `retry-after` hint in ms, when the error carries one (seconds or an HTTP date). */
function retryAfterMs(error: unknown): number | undefined {
  const headers =
    (error as { headers?: unknown; response?: { headers?: unknown } } | null)?.headers ??
    (error as { response?: { headers?: unknown } } | null)?.response?.headers;
  if (!headers || typeof headers !== "object") return undefined;
  const get = (headers as { get?: unknown }).get;
  const raw = typeof get === "function" ? get.call(headers, "retry-after") : (headers as Record<string, unknown>)["retry-after"];
  if (typeof raw !== "string" || raw.trim() === "") return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1_000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** Waits `ms`; a caller's abort rejects at once with its reason. */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener("abort", abort);
      resolve();
    }
    function abort(): void {
      clearTimeout(timer);
      reject(signal?.reason);
    }
    signal?.addEventListener("abort", abort, { once: true });
  });
}

/**
 * @internal Calls a chat model with a time limit per call and retries of
 * transient failures with exponential backoff (or the provider's
 * `retry-after` when longer); at most `maxAttempts` calls. Each call gets
 * its own signal, aborted at its time limit and when `signal` aborts; a
 * caller's abort ends at once. `attempts` counts the calls made. Throws the
 * last failure.
 */
export async function callProvider<T>(
  call: (signal: AbortSignal) => Promise<T>,
  settings: ProviderCallSettings,
  what: string,
  signal: AbortSignal | undefined,
  attempts: { count: number },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    attempts.count = attempt;
    const own = new AbortController();
    const callSignal = signal ? AbortSignal.any([signal, own.signal]) : own.signal;
    try {
      return await settleWithin(new Promise<T>((resolve) => resolve(call(callSignal))), {
        ms: settings.timeoutMs,
        signal,
        onTimeout: () => {
          const error = timeoutError(what, settings.timeoutMs);
          own.abort(error);
          return error;
        },
      });
    } catch (error) {
      if (signal?.aborted || attempt >= settings.maxAttempts || !isTransientProviderError(error)) throw error;
      const backoff = Math.min(settings.initialDelayMs * 2 ** (attempt - 1), settings.maxDelayMs);
      const hinted = retryAfterMs(error);
      if (hinted !== undefined && hinted > settings.maxDelayMs) throw error;
      await wait(Math.max(backoff, hinted ?? 0), signal);
    }
  }
}
