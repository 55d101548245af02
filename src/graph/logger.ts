import type { GoapLogger } from "../core/index.js";

export { CONSOLE_LOGGER, type GoapLogger } from "../core/index.js";

/** A logger that never throws: a broken logger must not break a run. */
export function safeLogger(logger: GoapLogger): Required<GoapLogger> {
  const guard =
    (level: keyof GoapLogger) =>
    (message: string, details?: Readonly<Record<string, unknown>>): void => {
      try {
        logger[level]?.(message, details);
      } catch {
        // Logging is best effort by design.
      }
    };
  return { debug: guard("debug"), info: guard("info"), warn: guard("warn"), error: guard("error") };
}

/** The message of anything thrown. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
