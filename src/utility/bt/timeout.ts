import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { Decorator, type DecoratorOptions } from "./decorator.js";
import { type BtDuration, checkDuration, hasElapsed } from "./duration.js";
import type { BtStatus, BtTickContext } from "./status.js";

/** Options of {@link Timeout}. */
export interface TimeoutOptions extends DecoratorOptions {
  /** How long the child may run: `{ ticks }` or `{ seconds }` of tree time. */
  readonly limit: BtDuration;
}

const TIMEOUT_OPTIONS_KEYS = { limit: true, child: true, name: true } as const satisfies OptionKeys<TimeoutOptions>;

/**
 * Fails, and aborts its child, when the child is still running at the end
 * of its allowance: `{ ticks: 3 }` lets it run for 3 ticks, `{ seconds: 2 }`
 * for 2 seconds of tree time (the sum of the ticks' deltas, counting the
 * tick it started on). A child that finishes in time passes its status up.
 *
 * @example
 * ```ts
 * const walk = new Timeout({ child: walkToTree, limit: { seconds: 10 } });
 * ```
 */
export class Timeout extends Decorator {
  readonly limit: BtDuration;

  constructor(options: TimeoutOptions) {
    super("timeout", options);
    checkOptionKeys(options, TIMEOUT_OPTIONS_KEYS, "new Timeout()");
    this.limit = checkDuration(`timeout "${this.name}"`, options.limit);
  }

  protected update(ctx: BtTickContext): BtStatus {
    const status = this.child.tick(ctx);
    if (status !== "running") return status;
    if (!hasElapsed(this.limit, this.elapsedTicks(ctx), this.elapsedSeconds(ctx))) return "running";
    this.child.abort();
    return "failure";
  }
}
