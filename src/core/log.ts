import { LangGoapError } from "./errors.js";

/** How much a message matters. */
export type LogLevel = "debug" | "info" | "warn" | "error";

/** A threshold: messages below it are dropped; `"silent"` drops everything. */
export type LogThreshold = LogLevel | "silent";

/**
 * Where langgoap reports things worth a person's attention (guard warnings,
 * swallowed sensor, resolver, tracer and history failures, skipped
 * subgoals). Every method is optional, so any logger with some of
 * `debug`/`info`/`warn`/`error` fits (console, pino, winston, a test
 * collector). Calls never throw into a run: langgoap guards them.
 *
 * @example
 * ```ts
 * const graph = new GoapGraph(actions, { logger: { warn: (m, details) => pino.warn(details, m) } });
 * ```
 */
export interface GoapLogger {
  debug?(message: string, details?: Readonly<Record<string, unknown>>): void;
  info?(message: string, details?: Readonly<Record<string, unknown>>): void;
  warn?(message: string, details?: Readonly<Record<string, unknown>>): void;
  error?(message: string, details?: Readonly<Record<string, unknown>>): void;
}

const ORDER: Readonly<Record<LogThreshold, number>> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

let threshold: LogThreshold = "warn";

/**
 * Sets the level of langgoap's default console logger (used wherever no
 * `logger` option is given): messages below it are dropped. Loggers you
 * pass yourself are not filtered.
 *
 * @param level `"debug"`, `"info"`, `"warn"` (the default), `"error"` or `"silent"`
 * @returns the previous level
 *
 * @example
 * ```ts
 * setLogLevel("debug"); // see swallowed tracer errors and other debug notes
 * setLogLevel("silent"); // nothing on the console
 * ```
 */
export function setLogLevel(level: LogThreshold): LogThreshold {
  if (typeof level !== "string" || !Object.hasOwn(ORDER, level)) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `setLogLevel: level must be "debug", "info", "warn", "error" or "silent", got ${JSON.stringify(level) ?? String(level)}`,
    );
  }
  const previous = threshold;
  threshold = level;
  return previous;
}

/** The default console logger's current level. */
export function getLogLevel(): LogThreshold {
  return threshold;
}

const write = (level: LogLevel, sink: (line: string) => void) => (message: string) => {
  if (ORDER[level] >= ORDER[threshold]) sink(`[langgoap] ${level === "warn" || level === "error" ? "" : `${level}: `}${message}`);
};

/**
 * The default logger: the console, filtered by {@link setLogLevel}
 * (warnings and errors unless set otherwise), each line prefixed
 * `[langgoap]`.
 */
export const CONSOLE_LOGGER: GoapLogger = Object.freeze({
  debug: write("debug", (line) => console.debug(line)),
  info: write("info", (line) => console.info(line)),
  warn: write("warn", (line) => console.warn(line)),
  error: write("error", (line) => console.error(line)),
});
