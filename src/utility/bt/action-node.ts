import { describeValue, LangGoapError } from "../../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import type { ExitReason } from "../agent-types.js";
import { BtNode } from "./node.js";
import { type BtHookName, type BtStatus, type BtTickContext, isBtStatus } from "./status.js";

/** How long an action leaf has been running, counting the current tick. */
export interface BtElapsed {
  readonly ticks: number;
  readonly seconds: number;
}

/** Options of {@link ActionNode}. */
export interface ActionNodeOptions {
  /** Does one tick of work; returns `running` to be called again next tick. */
  readonly run: (ctx: BtTickContext, elapsed: BtElapsed) => BtStatus;
  /** Called before the first `run` of an activation. */
  readonly enter?: (ctx: BtTickContext) => void;
  /** Called when the activation ends: completed, failed, or interrupted by an abort. */
  readonly exit?: (reason: ExitReason) => void;
  /** @defaultValue "action" */
  readonly name?: string;
}

const ACTION_NODE_OPTIONS_KEYS = { run: true, enter: true, exit: true, name: true } as const satisfies OptionKeys<ActionNodeOptions>;

/**
 * A leaf that does work over ticks, with the same `enter → run → exit`
 * lifecycle as a {@link GoapAgent} action. A hook that throws, or a `run`
 * that returns anything but a status, fails the node (it is reported as the
 * tree's `hookFailed`); a throwing `exit` is reported and ignored.
 *
 * @example
 * ```ts
 * const chop = new ActionNode({
 *   name: "chop",
 *   enter: () => animation.play("chop"),
 *   run: (ctx, elapsed) => (elapsed.seconds >= 1.5 ? "success" : "running"),
 *   exit: () => animation.play("idle"),
 * });
 * ```
 */
export class ActionNode extends BtNode {
  readonly #options: ActionNodeOptions;
  #ctx: BtTickContext | null = null;

  constructor(options: ActionNodeOptions) {
    checkOptionKeys(options, ACTION_NODE_OPTIONS_KEYS, "new ActionNode()");
    const name = options?.name ?? "action";
    super(name);
    if (typeof options?.run !== "function") {
      throw new LangGoapError("INVALID_OPTION", `action "${name}": run must be a function, got ${describeValue(options?.run)}`, {
        node: name,
      });
    }
    for (const hook of ["enter", "exit"] as const) {
      if (options[hook] !== undefined && typeof options[hook] !== "function") {
        throw new LangGoapError("INVALID_OPTION", `action "${name}": ${hook} must be a function`, { node: name });
      }
    }
    this.#options = options;
  }

  protected update(ctx: BtTickContext): BtStatus {
    this.#ctx = ctx;
    const { enter, run } = this.#options;
    if (!this.isRunning && enter && !this.#call("enter", () => enter(ctx))) return this.#finish("failed");
    let status: unknown;
    if (!this.#call("run", () => (status = run(ctx, { ticks: this.elapsedTicks(ctx), seconds: this.elapsedSeconds(ctx) })))) {
      return this.#finish("failed");
    }
    if (!isBtStatus(status)) {
      const error = new LangGoapError(
        "INVALID_STATE",
        `action "${this.name}": run returned ${describeValue(status)}; expected "success", "failure" or "running"`,
        { node: this.name },
      );
      ctx.report(this, "run", error);
      return this.#finish("failed");
    }
    if (status !== "running") this.#finish(status === "success" ? "completed" : "failed");
    return status;
  }

  protected override onAbort(): void {
    this.#exit("interrupted");
  }

  #finish(reason: ExitReason): BtStatus {
    this.#exit(reason);
    return "failure";
  }

  #exit(reason: ExitReason): void {
    const exit = this.#options.exit;
    if (exit) this.#call("exit", () => exit(reason));
  }

  #call(hook: BtHookName, fn: () => unknown): boolean {
    try {
      fn();
      return true;
    } catch (error) {
      this.#ctx?.report(this, hook, error);
      return false;
    }
  }
}
