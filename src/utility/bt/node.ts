import { describeValue, LangGoapError } from "../../core/index.js";
import type { BtNodeStatus, BtStatus, BtTickContext } from "./status.js";

/**
 * The base of every behaviour-tree node. {@link BtNode.tick} runs the
 * node's {@link BtNode.update} and remembers the result; a node that
 * returns `running` is resumed on the next tick, and a parent that moves on
 * while it runs calls {@link BtNode.abort} so it can clean up (an action's
 * `exit`, a plan's running step).
 *
 * Nodes keep per-NPC state (the running child, a cooldown, a plan), so a
 * node belongs to one tree, at one place: build one tree per NPC, with a
 * function. Subclass it for your own composites and decorators.
 *
 * @example
 * ```ts
 * class Succeeder extends BtNode {
 *   constructor(readonly child: BtNode) { super("succeeder", [child]); }
 *   protected update(ctx: BtTickContext): BtStatus {
 *     return this.child.tick(ctx) === "running" ? "running" : "success";
 *   }
 * }
 * ```
 */
export abstract class BtNode {
  readonly name: string;
  /** The nodes below this one, in order. */
  readonly children: readonly BtNode[];
  #status: BtNodeStatus = "idle";
  #lastTick = 0;
  #startTick = 0;
  #startTime = 0;

  constructor(name: string, children: readonly BtNode[] = []) {
    if (typeof name !== "string" || name === "") {
      throw new LangGoapError("INVALID_OPTION", `behaviour-tree node: name must be a non-empty string, got ${describeValue(name)}`);
    }
    for (const [i, child] of children.entries()) {
      if (!(child instanceof BtNode)) {
        throw new LangGoapError("INVALID_OPTION", `node "${name}": child ${i} must be a BtNode, got ${describeValue(child)}`, {
          node: name,
          index: i,
        });
      }
    }
    this.name = name;
    this.children = Object.freeze([...children]);
  }

  /** The last status, `running` while the node is mid-way, `idle` before its first tick and after an abort. */
  get status(): BtNodeStatus {
    return this.#status;
  }

  /** True while the node is mid-way (it returned `running` on its last tick and was not aborted). */
  get isRunning(): boolean {
    return this.#status === "running";
  }

  /** The number of the tick that last reached this node (0 before any). */
  get lastTick(): number {
    return this.#lastTick;
  }

  /** Runs the node for one tick and returns its status. */
  tick(ctx: BtTickContext): BtStatus {
    if (this.#status !== "running") {
      this.#startTick = ctx.tick;
      this.#startTime = ctx.time - ctx.deltaSeconds;
    }
    const status = this.update(ctx);
    this.#status = status;
    this.#lastTick = ctx.tick;
    return status;
  }

  /** Stops the node if it is running (its running children first); a no-op otherwise. */
  abort(): void {
    if (this.#status !== "running") return;
    this.#status = "idle";
    this.onAbort();
  }

  /** Ticks this activation has lasted, counting the current one (call from `update`). */
  protected elapsedTicks(ctx: BtTickContext): number {
    return ctx.tick - this.#startTick + 1;
  }

  /** Seconds of tree time this activation has lasted, counting the current tick's delta (call from `update`). */
  protected elapsedSeconds(ctx: BtTickContext): number {
    return ctx.time - this.#startTime;
  }

  /** The node's work for one tick. */
  protected abstract update(ctx: BtTickContext): BtStatus;

  /** Cleans up an interrupted activation; by default aborts every child that runs. */
  protected onAbort(): void {
    for (const child of this.children) child.abort();
  }
}
