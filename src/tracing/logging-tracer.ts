/** Severity of a log record, lowest first. */
import type { LogLevel } from "../core/index.js";
import { describeValue, LangGoapError } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { EventTracer } from "./event-tracer.js";
import type { TraceEvent, TraceHook } from "./trace-event.js";

const LEVEL_ORDER: Readonly<Record<LogLevel, number>> = { debug: 10, info: 20, warn: 30, error: 40 };

/** One structured log line. */
export interface LogRecord {
  readonly level: LogLevel;
  /** Snake-case event name, e.g. `plan_complete`. */
  readonly event: string;
  /** A short human line, e.g. `plan_complete actions=[a, b] cost=3`. */
  readonly message: string;
  readonly data: Readonly<Record<string, unknown>>;
  /** ISO-8601 time. */
  readonly time: string;
  readonly logger: string;
}

/** Options of {@link LoggingTracer}. */
export interface LoggingTracerOptions {
  /** Records below this level are dropped. @defaultValue "info" */
  readonly level?: LogLevel;
  /** Where records go. @defaultValue one JSON line per record on the console method of its level */
  readonly sink?: (record: LogRecord) => void;
  /** Per-hook level overrides. @defaultValue search hooks `debug`; retries, failed actions and failed plans `warn`; the rest `info` */
  readonly levels?: Partial<Record<TraceHook, LogLevel>>;
  /** Logger name carried in each record. @defaultValue "langgoap.tracing" */
  readonly name?: string;
  /** Clock for `time`. @defaultValue `() => new Date()` */
  readonly now?: () => Date;
}

const DEFAULT_LEVELS: Readonly<Partial<Record<TraceHook, LogLevel>>> = {
  onSearchExpand: "debug",
  onSearchDeadEnd: "debug",
  onSearchComplete: "debug",
  onActionRetry: "warn",
  onPlanFailed: "warn",
};

function consoleSink(record: LogRecord): void {
  const line = JSON.stringify(record);
  if (record.level === "error") console.error(line);
  else if (record.level === "warn") console.warn(line);
  else if (record.level === "info") console.info(line);
  else console.debug(line);
}

function formatValue(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (typeof v === "string" ? v : describeValue(v))).join(", ")}]`;
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(3).replace(/0+$/, "");
  return typeof value === "string" ? value : describeValue(value);
}

function toSnake(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

const LOGGING_TRACER_OPTIONS_KEYS = {
  level: true,
  sink: true,
  levels: true,
  name: true,
  now: true,
} as const satisfies OptionKeys<LoggingTracerOptions>;

/**
 * Writes every planning and execution event as a structured log record,
 * with levels: search detail at `debug`, retries and failures at `warn`,
 * the rest at `info`. The sink is injectable (pino, winston, a test array).
 *
 * @example
 * ```ts
 * const lines: LogRecord[] = [];
 * const tracer = new LoggingTracer({ level: "debug", sink: (r) => lines.push(r) });
 * ```
 */
export class LoggingTracer extends EventTracer {
  readonly level: LogLevel;
  readonly #sink: (record: LogRecord) => void;
  readonly #levels: Readonly<Partial<Record<TraceHook, LogLevel>>>;
  readonly #name: string;
  readonly #now: () => Date;

  constructor(options: LoggingTracerOptions = {}) {
    super();
    checkOptionKeys(options, LOGGING_TRACER_OPTIONS_KEYS, "new LoggingTracer()");
    const level = options.level ?? "info";
    if (!(level in LEVEL_ORDER)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `LoggingTracer: level must be "debug", "info", "warn" or "error", got ${describeValue(level)}`,
      );
    }
    for (const [hook, l] of Object.entries(options.levels ?? {})) {
      if (!(l in LEVEL_ORDER)) {
        throw new LangGoapError(
          "INVALID_OPTION",
          `LoggingTracer: levels.${hook} must be "debug", "info", "warn" or "error", got ${describeValue(l)}`,
        );
      }
    }
    this.level = level;
    this.#sink = options.sink ?? consoleSink;
    this.#levels = { ...DEFAULT_LEVELS, ...options.levels };
    this.#name = options.name ?? "langgoap.tracing";
    this.#now = options.now ?? (() => new Date());
  }

  protected emit(event: TraceEvent): void {
    const failedAction = event.hook === "onActionComplete" && event.data.success === false;
    const level = this.#levels[event.hook] ?? (failedAction ? "warn" : "info");
    if (LEVEL_ORDER[level] < LEVEL_ORDER[this.level]) return;
    const fields = Object.entries(event.data)
      .filter(([k]) => k !== "state" && k !== "goal")
      .map(([k, v]) => `${toSnake(k)}=${formatValue(v)}`);
    this.#sink({
      level,
      event: event.name,
      message: [event.name, ...fields].join(" "),
      data: event.data,
      time: this.#now().toISOString(),
      logger: this.#name,
    });
  }
}
