import type { Runnable, RunnableConfig } from "@langchain/core/runnables";
import { checkTimeout, describeValue, LangGoapError, settleWithin, timeoutError } from "../core/index.js";

/** Time limit of one model request (the client's own retries included) unless configured otherwise: 60 seconds. */
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000;

/**
 * Retries of our own on top of the chat model client's. Off by default: the
 * client's own `maxRetries` (LangChain's `AsyncCaller`: 6 unless set) is the
 * one retry policy, so a provider that always fails costs `1 + maxRetries`
 * HTTP calls with `ChatOpenAI` and `ChatAnthropic`. `ChatOllama` makes no
 * retries of its own; set `maxAttempts` for it. Each of our attempts runs
 * through LangChain's `Runnable.withRetry()` (waits of 1 s, 2 s, 4 s, …) and
 * only transient failures ({@link isTransientProviderError}) are retried;
 * with a retrying client, the calls multiply: `maxAttempts × (1 + maxRetries)`.
 */
export interface ProviderRetryOptions {
  /** Model invocations in all, the first included (1: none of ours). @defaultValue 1 */
  readonly maxAttempts?: number;
}

/** @internal Retry settings, checked. */
export interface ProviderCallSettings {
  readonly timeoutMs: number;
  readonly maxAttempts: number;
}

const RETRY_FIELDS = new Set(["maxAttempts"]);

/** @internal Checks and completes the time limit and retry options of a model-calling component, naming `owner` in errors. */
export function providerCallSettings(owner: string, timeoutMs: number | undefined, retry: ProviderRetryOptions = {}): ProviderCallSettings {
  if (typeof retry !== "object" || retry === null) {
    throw new LangGoapError("INVALID_OPTION", `${owner}: retry must be an object like { maxAttempts: 3 }, got ${describeValue(retry)}`, {
      field: "retry",
    });
  }
  for (const field of Object.keys(retry)) {
    if (!RETRY_FIELDS.has(field)) {
      throw new LangGoapError(
        "UNKNOWN_OPTION",
        `${owner}: retry.${field} is not an option (only maxAttempts; the waits between retries are LangChain's withRetry backoff, and the client's own retries are set on the client with maxRetries)`,
        { field: `retry.${field}`, option: field, where: `${owner} retry` },
      );
    }
  }
  const maxAttempts = retry.maxAttempts ?? 1;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new LangGoapError("INVALID_OPTION", `${owner}: retry.maxAttempts must be an integer >= 1, got ${describeValue(maxAttempts)}`, {
      field: "retry.maxAttempts",
    });
  }
  return {
    timeoutMs: timeoutMs === undefined ? DEFAULT_MODEL_TIMEOUT_MS : checkTimeout(timeoutMs, `${owner}: timeoutMs`),
    maxAttempts,
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

/** The HTTP status an error carries: OpenAI/Anthropic SDKs say `status`, Ollama's `ResponseError` says `status_code`. */
function statusOf(error: Record<string, unknown>): number | undefined {
  const response = error.response as { status?: unknown } | undefined;
  for (const value of [error.status, error.statusCode, error.status_code, response?.status]) if (typeof value === "number") return value;
  return undefined;
}

/**
 * True for a provider failure worth trying again: a rate limit (429, except
 * an exhausted quota), a request timeout or conflict (408, 409, 425), a
 * server error (5xx), or a network failure (connection refused or reset,
 * DNS, fetch failed), looked for along the `cause` chain. The status is read
 * from `status`, `statusCode`, Ollama's `status_code` and `response.status`.
 * A refused request (400, 401, 403, 404, 422), an unusable answer, our own
 * time limit and a caller's abort are not.
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
    if (err.name === "AbortError" || e instanceof LangGoapError) return false;
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

/**
 * @internal Invokes a model runnable once, with the client's own retries
 * below it and, when `maxAttempts > 1`, LangChain's `withRetry()` around it
 * for transient failures. `timeoutMs` bounds the whole request, retries and
 * waits included: the model gets a signal that aborts then (and when the
 * caller's `config.signal` aborts), and the promise settles then even if
 * the client ignores its signal. `attempts.count` is set to our
 * invocations made (each may be several HTTP calls of the client's own).
 */
export async function invokeModel<I, O>(
  model: Runnable<I, O>,
  input: I,
  config: RunnableConfig | undefined,
  settings: ProviderCallSettings,
  what: string,
  attempts: { count: number },
): Promise<O> {
  let failed = 0;
  const runnable =
    settings.maxAttempts > 1
      ? model.withRetry({
          stopAfterAttempt: settings.maxAttempts,
          onFailedAttempt: (error: unknown) => {
            failed++;
            // Throwing here ends withRetry's loop with this error.
            if (!isTransientProviderError(error) || config?.signal?.aborted) throw error;
          },
        })
      : model;
  const own = new AbortController();
  const signal = config?.signal ? AbortSignal.any([config.signal, own.signal]) : own.signal;
  const state: { outcome: "pending" | "answered" | "failed" } = { outcome: "pending" };
  const call = new Promise<O>((resolve) => resolve(runnable.invoke(input, { ...config, signal })));
  call.then(
    () => {
      state.outcome = "answered";
    },
    () => {
      state.outcome = "failed";
    },
  );
  try {
    return await settleWithin(call, {
      ms: settings.timeoutMs,
      signal: config?.signal,
      onTimeout: () => {
        const error = timeoutError(what, settings.timeoutMs);
        own.abort(error);
        return error;
      },
    });
  } finally {
    // withRetry reports every failed invocation, the last included; an answer or a call cut short (time limit, abort) adds one.
    attempts.count = Math.max(1, failed + (state.outcome === "failed" ? 0 : 1));
  }
}
