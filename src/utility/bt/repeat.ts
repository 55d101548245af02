import { describeValue, LangGoapError } from "../../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { Decorator, type DecoratorOptions } from "./decorator.js";
import type { BtStatus, BtTickContext } from "./status.js";

/** Options of {@link Repeat}. */
export interface RepeatOptions extends DecoratorOptions {
  /** How many successful runs of the child make the repeat succeed (required: a repeat always ends). */
  readonly times: number;
}

const REPEAT_OPTIONS_KEYS = { times: true, child: true, name: true } as const satisfies OptionKeys<RepeatOptions>;

/**
 * Runs its child `times` times in a row: succeeds after the `times`-th
 * success, fails at the child's first failure (the count starts over next
 * activation), and runs in between. At most one run of the child finishes
 * per tick, so an instant child repeated 3 times takes 3 ticks.
 *
 * @example
 * ```ts
 * const chop = new Repeat({ child: swingAxe, times: 3 });
 * ```
 */
export class Repeat extends Decorator {
  readonly times: number;
  #count = 0;

  constructor(options: RepeatOptions) {
    super("repeat", options);
    checkOptionKeys(options, REPEAT_OPTIONS_KEYS, "new Repeat()");
    if (!Number.isSafeInteger(options.times) || options.times < 1) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `repeat "${this.name}": times must be an integer >= 1 (a repeat is bounded), got ${describeValue(options.times)}`,
        { node: this.name },
      );
    }
    this.times = options.times;
  }

  /** Successful runs of the child in the current activation. */
  get count(): number {
    return this.#count;
  }

  protected update(ctx: BtTickContext): BtStatus {
    const status = this.child.tick(ctx);
    if (status === "running") return "running";
    if (status === "failure") {
      this.#count = 0;
      return "failure";
    }
    this.#count++;
    if (this.#count < this.times) return "running";
    this.#count = 0;
    return "success";
  }

  protected override onAbort(): void {
    super.onAbort();
    this.#count = 0;
  }
}
