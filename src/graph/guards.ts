import { type ActionSpec, callWithin, DEFAULT_HOOK_TIMEOUT_MS, type HookContext, isTimeoutError, type WorldState } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { errorMessage } from "./logger.js";

/** How serious a failed guard is: `warn` is logged, `block` stops the action and blacklists it. */
export type GuardSeverity = "warn" | "block";

/** Severities by name, for readable call sites. */
export const GuardSeverity = Object.freeze({ WARN: "warn", BLOCK: "block" } as const);

/** The verdict of one guard. */
export interface GuardResult {
  readonly passed: boolean;
  readonly message: string;
  /** @defaultValue "warn" */
  readonly severity?: GuardSeverity;
}

/**
 * A safety check run right before an action executes. Sync or async: an
 * async guard has the graph's `hookTimeoutMs` to answer (its
 * `context.signal` aborts then). A guard that throws or does not answer in
 * time counts as a failed `warn`.
 *
 * @example
 * ```ts
 * const budget: ActionGuard = {
 *   name: "budget",
 *   check: (action, ws) =>
 *     (ws.spent_usd as number) < 5
 *       ? { passed: true, message: "ok" }
 *       : { passed: false, message: `budget spent before ${action.name}`, severity: "block" },
 * };
 * ```
 */
export interface ActionGuard {
  readonly name: string;
  check(action: ActionSpec, worldState: Readonly<WorldState>, context?: HookContext): GuardResult | Promise<GuardResult>;
}

/**
 * An {@link ActionGuard} from a name and a predicate-like function.
 *
 * @example
 * ```ts
 * new FunctionalGuard("no-prod", (action) => ({ passed: !action.name.startsWith("prod_"), message: "production is off limits", severity: "block" }));
 * ```
 */
export class FunctionalGuard implements ActionGuard {
  constructor(
    readonly name: string,
    private readonly fn: (
      action: ActionSpec,
      worldState: Readonly<WorldState>,
      context?: HookContext,
    ) => GuardResult | Promise<GuardResult>,
  ) {}

  check(action: ActionSpec, worldState: Readonly<WorldState>, context?: HookContext): GuardResult | Promise<GuardResult> {
    return this.fn(action, worldState, context);
  }
}

/** A guard's verdict with the guard's name attached. */
export interface NamedGuardResult extends GuardResult {
  readonly guard: string;
  readonly severity: GuardSeverity;
}

/** Options of {@link runGuards}. */
export interface RunGuardsOptions {
  /** Time limit of each guard's check in ms (`Infinity` for none). @defaultValue {@link DEFAULT_HOOK_TIMEOUT_MS} */
  readonly timeoutMs?: number;
  /** The run's signal: its abort stops waiting for the guards. */
  readonly signal?: AbortSignal | undefined;
}

const RUN_GUARDS_OPTIONS_KEYS = { timeoutMs: true, signal: true } as const satisfies OptionKeys<RunGuardsOptions>;

/**
 * Runs every guard on `action` concurrently. A guard that throws, does not
 * answer within `timeoutMs`, or returns something malformed yields a failed
 * `warn` naming the guard.
 *
 * @example
 * ```ts
 * const verdicts = await runGuards([budget], chop, { spent_usd: 2 }, { timeoutMs: 1_000 });
 * ```
 */
export async function runGuards(
  guards: readonly ActionGuard[],
  action: ActionSpec,
  worldState: Readonly<WorldState>,
  options: RunGuardsOptions = {},
): Promise<NamedGuardResult[]> {
  checkOptionKeys(options, RUN_GUARDS_OPTIONS_KEYS, "runGuards()");
  const ms = options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
  return Promise.all(
    guards.map(async (guard): Promise<NamedGuardResult> => {
      try {
        const result = await callWithin((signal) => guard.check(action, worldState, { signal }), {
          ms,
          what: `guard "${guard.name}"`,
          details: { guard: guard.name, action: action.name },
          signal: options.signal,
        });
        if (typeof result !== "object" || result === null || typeof result.passed !== "boolean") {
          return {
            guard: guard.name,
            passed: false,
            severity: "warn",
            message: `guard "${guard.name}" returned a malformed result; expected { passed, message, severity? }`,
          };
        }
        return { guard: guard.name, passed: result.passed, message: String(result.message ?? ""), severity: result.severity ?? "warn" };
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        const message = isTimeoutError(error) ? error.message : `guard "${guard.name}" raised: ${errorMessage(error)}`;
        return { guard: guard.name, passed: false, severity: "warn", message };
      }
    }),
  );
}

/** True when some guard failed with severity `block`. */
export function hasBlockingFailure(results: readonly GuardResult[]): boolean {
  return results.some((r) => !r.passed && r.severity === "block");
}
