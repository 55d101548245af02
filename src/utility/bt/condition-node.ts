import {
  type Conditions,
  describeValue,
  LangGoapError,
  normalizeConditions,
  satisfiesConditions,
  type WorldState,
} from "../../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { BtNode } from "./node.js";
import type { BtStatus, BtTickContext } from "./status.js";

/** Options of {@link ConditionNode}: give exactly one of `conditions` and `test`. */
export interface ConditionNodeOptions {
  /** Conditions on the blackboard's facts, as in preconditions and goals: `{ has_axe: true, wood: { gte: 3 } }`. */
  readonly conditions?: Conditions;
  /** A check of the blackboard, for what conditions cannot say. */
  readonly test?: (blackboard: Readonly<WorldState>, ctx: BtTickContext) => boolean;
  /** @defaultValue "condition" */
  readonly name?: string;
}

const CONDITION_NODE_OPTIONS_KEYS = { conditions: true, test: true, name: true } as const satisfies OptionKeys<ConditionNodeOptions>;

/**
 * A leaf that checks the blackboard: success when the check holds, failure
 * otherwise, never running. Conditions read own properties only and a
 * missing fact never satisfies one (as everywhere in langgoap). A `test`
 * that throws or returns a non-boolean fails the node and is reported as
 * the tree's `hookFailed`.
 *
 * @example
 * ```ts
 * const hungry = new ConditionNode({ name: "hungry?", conditions: { is_hungry: true } });
 * const close = new ConditionNode({ test: (bb) => (bb.enemy_distance as number) < 5 });
 * ```
 */
export class ConditionNode extends BtNode {
  readonly conditions: Conditions | undefined;
  readonly #test: ConditionNodeOptions["test"];

  constructor(options: ConditionNodeOptions) {
    checkOptionKeys(options, CONDITION_NODE_OPTIONS_KEYS, "new ConditionNode()");
    const name = options?.name ?? "condition";
    super(name);
    if ((options?.conditions === undefined) === (options?.test === undefined)) {
      throw new LangGoapError("INVALID_OPTION", `condition "${name}": give exactly one of conditions and test`, { node: name });
    }
    if (options.test !== undefined && typeof options.test !== "function") {
      throw new LangGoapError("INVALID_OPTION", `condition "${name}": test must be a function, got ${describeValue(options.test)}`, {
        node: name,
      });
    }
    this.conditions = options.conditions === undefined ? undefined : normalizeConditions(options.conditions, `condition "${name}"`);
    this.#test = options.test;
  }

  protected update(ctx: BtTickContext): BtStatus {
    if (this.conditions) return satisfiesConditions(ctx.blackboard, this.conditions) ? "success" : "failure";
    let result: unknown;
    try {
      result = (this.#test as NonNullable<ConditionNodeOptions["test"]>)(ctx.blackboard, ctx);
    } catch (error) {
      ctx.report(this, "test", error);
      return "failure";
    }
    if (typeof result === "boolean") return result ? "success" : "failure";
    ctx.report(
      this,
      "test",
      new LangGoapError("INVALID_STATE", `condition "${this.name}": test returned ${describeValue(result)}; expected a boolean`, {
        node: this.name,
      }),
    );
    return "failure";
  }
}
