import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { Decorator, type DecoratorOptions } from "./decorator.js";
import type { BtStatus, BtTickContext } from "./status.js";

const DECORATOR_OPTIONS_KEYS = { child: true, name: true } as const satisfies OptionKeys<DecoratorOptions>;

/**
 * Swaps its child's success and failure; running stays running.
 *
 * @example
 * ```ts
 * const safe = new Inverter({ child: new ConditionNode({ conditions: { threat: { gte: 0.5 } } }) });
 * ```
 */
export class Inverter extends Decorator {
  constructor(options: DecoratorOptions) {
    super("inverter", options);
    checkOptionKeys(options, DECORATOR_OPTIONS_KEYS, "new Inverter()");
  }

  protected update(ctx: BtTickContext): BtStatus {
    const status = this.child.tick(ctx);
    return status === "success" ? "failure" : status === "failure" ? "success" : "running";
  }
}
