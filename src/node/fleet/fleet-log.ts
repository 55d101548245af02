import type { GoapLogger } from "../../core/index.js";

/** @internal A worker's logger: each level best effort (a throwing logger never breaks the worker). */
export interface FleetLog {
  warn(message: string, details?: Record<string, unknown>): void;
  info(message: string, details?: Record<string, unknown>): void;
  debug(message: string, details?: Record<string, unknown>): void;
}

/** @internal `logger` with every call guarded. */
export function fleetLog(logger: GoapLogger): FleetLog {
  const at =
    (level: "warn" | "info" | "debug") =>
    (message: string, details?: Record<string, unknown>): void => {
      try {
        logger[level]?.(message, details);
      } catch {
        // Logging is best effort.
      }
    };
  return { warn: at("warn"), info: at("info"), debug: at("debug") };
}

/** @internal An error as one line of text. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
