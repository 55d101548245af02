import type { ActionSpec, WorldState } from "../core/index.js";
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
 * A safety check run right before an action executes. Sync or async; a
 * guard that throws counts as a failed `warn`.
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
  check(action: ActionSpec, worldState: Readonly<WorldState>): GuardResult | Promise<GuardResult>;
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
    private readonly fn: (action: ActionSpec, worldState: Readonly<WorldState>) => GuardResult | Promise<GuardResult>,
  ) {}

  check(action: ActionSpec, worldState: Readonly<WorldState>): GuardResult | Promise<GuardResult> {
    return this.fn(action, worldState);
  }
}

/** A guard's verdict with the guard's name attached. */
export interface NamedGuardResult extends GuardResult {
  readonly guard: string;
  readonly severity: GuardSeverity;
}

/**
 * Runs every guard on `action` concurrently. A guard that throws or returns
 * something malformed yields a failed `warn` naming the guard.
 */
export async function runGuards(
  guards: readonly ActionGuard[],
  action: ActionSpec,
  worldState: Readonly<WorldState>,
): Promise<NamedGuardResult[]> {
  return Promise.all(
    guards.map(async (guard): Promise<NamedGuardResult> => {
      try {
        const result = await guard.check(action, worldState);
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
        return { guard: guard.name, passed: false, severity: "warn", message: `guard "${guard.name}" raised: ${errorMessage(error)}` };
      }
    }),
  );
}

/** True when some guard failed with severity `block`. */
export function hasBlockingFailure(results: readonly GuardResult[]): boolean {
  return results.some((r) => !r.passed && r.severity === "block");
}
