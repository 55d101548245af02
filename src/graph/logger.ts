/**
 * Where the graph reports things worth a person's attention: guard warnings,
 * swallowed sensor/resolver/history failures, skipped subgoals. Every method
 * is optional.
 *
 * @example
 * ```ts
 * const graph = new GoapGraph(actions, { logger: { warn: (m) => myLog.warn(m) } });
 * ```
 */
export interface GoapLogger {
  debug?(message: string, details?: Readonly<Record<string, unknown>>): void;
  info?(message: string, details?: Readonly<Record<string, unknown>>): void;
  warn?(message: string, details?: Readonly<Record<string, unknown>>): void;
  error?(message: string, details?: Readonly<Record<string, unknown>>): void;
}

/** Warnings and errors to the console, prefixed; debug and info are dropped. */
export const CONSOLE_LOGGER: GoapLogger = Object.freeze({
  warn: (message: string) => console.warn(`[langgoap] ${message}`),
  error: (message: string) => console.error(`[langgoap] ${message}`),
});

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
