import { describeValue, LangGoapError } from "../../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { BtNode } from "./node.js";
import type { BtStatus, BtTickContext } from "./status.js";

/** How many children must succeed (or fail): all of them, any one, or a count. */
export type ParallelThreshold = "all" | "any" | number;

/** Options of {@link Parallel}. */
export interface ParallelOptions {
  readonly children: readonly BtNode[];
  /** @defaultValue "parallel" */
  readonly name?: string;
  /** Successes that make the parallel succeed. @defaultValue "all" */
  readonly success?: ParallelThreshold;
  /** Failures that make it fail. @defaultValue "any" */
  readonly failure?: ParallelThreshold;
}

const PENDING = 0;
const SUCCEEDED = 1;
const FAILED = 2;

function threshold(name: string, field: string, value: ParallelThreshold, count: number): number {
  if (value === "all") return count;
  if (value === "any") return 1;
  if (!Number.isSafeInteger(value) || value < 1 || value > count) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `parallel "${name}": ${field} must be "all", "any" or an integer from 1 to ${count} (its children), got ${describeValue(value)}`,
      { node: name, field },
    );
  }
  return value;
}

const PARALLEL_OPTIONS_KEYS = { children: true, name: true, success: true, failure: true } as const satisfies OptionKeys<ParallelOptions>;

/**
 * Ticks every unfinished child on each tick, in order, and decides by its
 * policy: success once `success` children succeeded, failure once `failure`
 * children failed or success can no longer be reached (failure wins when
 * both happen on the same tick). A child that finished is not ticked again
 * in the same activation; children still running when the parallel decides
 * are aborted.
 *
 * @example
 * ```ts
 * // Walk and keep watch; fail as soon as either fails, succeed when the walk is done.
 * const patrol = new Parallel({ children: [walkRoute, keepWatch], success: 1, failure: "any" });
 * ```
 */
export class Parallel extends BtNode {
  readonly successThreshold: number;
  readonly failureThreshold: number;
  readonly #outcomes: Uint8Array;

  constructor(options: ParallelOptions) {
    checkOptionKeys(options, PARALLEL_OPTIONS_KEYS, "new Parallel()");
    const name = options?.name ?? "parallel";
    if (!Array.isArray(options?.children) || options.children.length === 0) {
      throw new LangGoapError("INVALID_OPTION", `parallel "${name}": children must be a non-empty array of nodes`, { node: name });
    }
    super(name, options.children);
    const n = options.children.length;
    this.successThreshold = threshold(name, "success", options.success ?? "all", n);
    this.failureThreshold = threshold(name, "failure", options.failure ?? "any", n);
    this.#outcomes = new Uint8Array(n);
  }

  protected update(ctx: BtTickContext): BtStatus {
    const outcomes = this.#outcomes;
    let successes = 0;
    let failures = 0;
    for (let i = 0; i < outcomes.length; i++) {
      if (outcomes[i] === PENDING) {
        const status = (this.children[i] as BtNode).tick(ctx);
        if (status === "success") outcomes[i] = SUCCEEDED;
        else if (status === "failure") outcomes[i] = FAILED;
      }
      if (outcomes[i] === SUCCEEDED) successes++;
      else if (outcomes[i] === FAILED) failures++;
    }
    const unreachable = outcomes.length - failures < this.successThreshold;
    if (failures >= this.failureThreshold || unreachable) return this.#finish("failure");
    if (successes >= this.successThreshold) return this.#finish("success");
    return "running";
  }

  protected override onAbort(): void {
    super.onAbort();
    this.#outcomes.fill(PENDING);
  }

  #finish(status: BtStatus): BtStatus {
    for (const child of this.children) child.abort();
    this.#outcomes.fill(PENDING);
    return status;
  }
}
