import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { Decorator, type DecoratorOptions } from "./decorator.js";
import { type BtDuration, checkDuration, hasElapsed } from "./duration.js";
import type { BtStatus, BtTickContext } from "./status.js";

/** Options of {@link Cooldown}. */
export interface CooldownOptions extends DecoratorOptions {
  /** How long the child rests after it finishes: `{ ticks }` or `{ seconds }` of tree time. */
  readonly duration: BtDuration;
}

const COOLDOWN_OPTIONS_KEYS = { duration: true, child: true, name: true } as const satisfies OptionKeys<CooldownOptions>;

/**
 * Lets its child run, then keeps it from running again for a while: after
 * the child finishes (success or failure) the cooldown fails at once,
 * without ticking the child, until the duration has passed since that tick.
 * `{ ticks: 3 }`: finished on tick 10, it fails on ticks 11 and 12 and runs
 * the child again on tick 13. An aborted child starts no cooldown.
 *
 * @example
 * ```ts
 * const bark = new Cooldown({ child: barkAtStranger, duration: { seconds: 5 } });
 * ```
 */
export class Cooldown extends Decorator {
  readonly duration: BtDuration;
  #finishedTick = Number.NaN;
  #finishedTime = 0;

  constructor(options: CooldownOptions) {
    super("cooldown", options);
    checkOptionKeys(options, COOLDOWN_OPTIONS_KEYS, "new Cooldown()");
    this.duration = checkDuration(`cooldown "${this.name}"`, options.duration);
  }

  /** True while the child is resting at tick `ctx` (what the next tick would see). */
  coolingDown(ctx: Pick<BtTickContext, "tick" | "time">): boolean {
    if (Number.isNaN(this.#finishedTick)) return false;
    return !hasElapsed(this.duration, ctx.tick - this.#finishedTick, ctx.time - this.#finishedTime);
  }

  protected update(ctx: BtTickContext): BtStatus {
    if (this.coolingDown(ctx)) return "failure";
    const status = this.child.tick(ctx);
    if (status !== "running") {
      this.#finishedTick = ctx.tick;
      this.#finishedTime = ctx.time;
    }
    return status;
  }
}
