/** Node socket errors: the database cannot be reached, or the connection to it broke. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs of a server that is going away or not ready: admin shutdown,
 * crash shutdown, "cannot connect now" (starting up, shutting down), too
 * many connections. Class 08 (connection exception) is matched by prefix.
 */
const SERVER_CODES = new Set(["57P01", "57P02", "57P03", "53300"]);

/** What `pg` says when a socket closes, a time limit passes, or a broken client is used again. */
const PG_MESSAGES = [/^Connection terminated/, /^timeout exceeded when trying to connect/, /^Query read timeout/, /is not queryable/];

/**
 * @internal True when `error` (or an error it wraps, through `cause`) says
 * the database could not be reached or the connection broke: the worker
 * treats it as an outage, not as a failure of the statement or the run.
 */
export function isConnectionError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e !== null && typeof e === "object" && depth < 8; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === "string" && PG_MESSAGES.some((pattern) => pattern.test(message))) return true;
    // An AggregateError (a connect() trying several addresses) holds the reasons in `errors`.
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner) && inner.some((x) => isConnectionError(x))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
