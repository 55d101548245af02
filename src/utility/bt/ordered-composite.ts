import { LangGoapError } from "../../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { BtNode } from "./node.js";
import type { BtStatus, BtTickContext } from "./status.js";

/** Options of {@link Sequence} and {@link Selector}. */
export interface CompositeOptions {
  /** The children, ticked left to right (at least one). */
  readonly children: readonly BtNode[];
  /** @defaultValue the composite's kind ("sequence", "selector") */
  readonly name?: string;
  /**
   * Re-tick the earlier children on every tick instead of resuming at the
   * running child, so a condition in front can stop what runs behind it
   * (the running child is aborted when an earlier one decides).
   * @defaultValue false
   */
  readonly reactive?: boolean;
}

const COMPOSITE_OPTIONS_KEYS = { children: true, name: true, reactive: true } as const satisfies OptionKeys<CompositeOptions>;

/**
 * @internal Sequence and selector in one loop: they differ only in which
 * child status lets them go on to the next child.
 */
export abstract class OrderedComposite extends BtNode {
  readonly reactive: boolean;
  /** The status that moves on to the next child; the other two end the tick. */
  readonly #continueOn: BtStatus;
  #running = -1;

  protected constructor(kind: string, continueOn: BtStatus, options: CompositeOptions) {
    checkOptionKeys(options, COMPOSITE_OPTIONS_KEYS, kind === "sequence" ? "new Sequence()" : "new Selector()");
    const name = options?.name ?? kind;
    if (!Array.isArray(options?.children) || options.children.length === 0) {
      throw new LangGoapError("INVALID_OPTION", `${kind} "${name}": children must be a non-empty array of nodes`, { node: name });
    }
    super(name, options.children);
    this.reactive = options.reactive === true;
    this.#continueOn = continueOn;
  }

  protected update(ctx: BtTickContext): BtStatus {
    const children = this.children;
    const from = this.reactive || this.#running < 0 ? 0 : this.#running;
    for (let i = from; i < children.length; i++) {
      const status = (children[i] as BtNode).tick(ctx);
      if (status === this.#continueOn) continue;
      // A reactive pass decided before reaching the child that ran: stop it.
      if (this.#running > i) (children[this.#running] as BtNode).abort();
      this.#running = status === "running" ? i : -1;
      return status;
    }
    this.#running = -1;
    return this.#continueOn;
  }

  protected override onAbort(): void {
    if (this.#running >= 0) (this.children[this.#running] as BtNode).abort();
    this.#running = -1;
  }
}
