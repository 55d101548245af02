/**
 * The reason an `AbortSignal` gives, for people: an `Error` reason as
 * `Name: message`, any other reason as text, `fallback` when there is none.
 * @example
 * const controller = new AbortController();
 * controller.abort(new Error("user left"));
 * abortReasonText(controller.signal); // "Error: user left"
 */
export function abortReasonText(signal: AbortSignal | undefined, fallback = "aborted"): string {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error) return reason.message ? `${reason.name}: ${reason.message}` : reason.name;
  return reason === undefined ? fallback : String(reason);
}
