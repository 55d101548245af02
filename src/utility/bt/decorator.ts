import { LangGoapError } from "../../core/index.js";
import { BtNode } from "./node.js";

/** Options every decorator takes. */
export interface DecoratorOptions {
  /** The decorated node. */
  readonly child: BtNode;
  /** @defaultValue the decorator's kind ("inverter", "repeat", ...) */
  readonly name?: string;
}

/** @internal A node with exactly one child. */
export abstract class Decorator extends BtNode {
  readonly child: BtNode;

  protected constructor(kind: string, options: DecoratorOptions) {
    const name = options?.name ?? kind;
    if (!(options?.child instanceof BtNode)) {
      throw new LangGoapError("INVALID_OPTION", `${kind} "${name}": child must be a BtNode`, { node: name });
    }
    super(name, [options.child]);
    this.child = options.child;
  }
}
