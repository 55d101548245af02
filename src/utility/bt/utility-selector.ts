import { describeValue, LangGoapError } from "../../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { type ActionScore, scoreActions, type UtilityEvaluation } from "../score-actions.js";
import { UtilityAction, type UtilityActionOptions } from "../utility-action.js";
import { BtNode } from "./node.js";
import type { BtStatus, BtTickContext } from "./status.js";

/** One child of a {@link UtilitySelector} and how it is scored. */
export interface UtilityChild {
  readonly node: BtNode;
  /** The child's score: considerations, response curves, weight, momentum and cooldown, as in a {@link UtilityBrain}. */
  readonly utility: UtilityAction | UtilityActionOptions;
}

/** Options of {@link UtilitySelector}. */
export interface UtilitySelectorOptions {
  readonly children: readonly UtilityChild[];
  /** @defaultValue "utility-selector" */
  readonly name?: string;
  /**
   * Bonus for the running child, for utilities that declare no momentum of
   * their own: its score is multiplied by `1 + momentum`, so another child
   * must beat it by that margin to take over.
   * @defaultValue 0
   */
  readonly momentum?: number;
  /** Raw input for missing blackboard keys (see {@link UtilityBrainOptions.missingInput}). @defaultValue none: a missing key is an error */
  readonly missingInput?: number;
  /**
   * When the chosen child fails, try the next best (score > 0) in the same
   * tick, as a selector tries its next child; `false` ticks only the best,
   * as the guide's code does.
   * @defaultValue true
   */
  readonly fallThrough?: boolean;
}

/** The selector's last decision, for inspection ("log scores each evaluation"). */
export interface UtilitySelection extends UtilityEvaluation {
  /** The tick it was made on. */
  readonly tick: number;
  /** The child that ran this tick and did not fail (running or succeeded), or null. */
  readonly chosen: string | null;
}

const UTILITY_SELECTOR_OPTIONS_KEYS = {
  children: true,
  name: true,
  momentum: true,
  missingInput: true,
  fallThrough: true,
} as const satisfies OptionKeys<UtilitySelectorOptions>;

/**
 * The guide's "behaviour tree with utility selector": a selector whose
 * children are ordered by utility score instead of left to right. On every
 * tick it scores each child with its {@link UtilityAction} (the brain's
 * considerations and response curves, over the tree's blackboard) and runs
 * the best. A running child keeps the momentum bonus, so another child
 * takes over only when it beats the running one by that margin; the child
 * left behind is aborted. A child's cooldown (seconds of tree time) starts
 * when it finishes or is interrupted, and it scores 0 until it ends. The
 * selector fails when no child scores above 0 or every scoring child
 * failed. The scores of the last tick are in {@link UtilitySelector.lastSelection}.
 *
 * @example
 * ```ts
 * const root = new UtilitySelector({
 *   momentum: 0.25,
 *   children: [
 *     { node: fleeBranch, utility: { name: "flee", weight: 1.3, considerations: [{ inputKey: "threat", curve: { type: "exponential", exponent: 5 } }] } },
 *     { node: eatPlan, utility: { name: "eat", considerations: [{ inputKey: "hunger", curve: { type: "quadratic" } }] } },
 *   ],
 * });
 * tree.tick(0.1);
 * root.lastSelection?.scores.map((s) => `${s.action.name} ${s.score.toFixed(2)}`);
 * ```
 */
export class UtilitySelector extends BtNode {
  readonly utilities: readonly UtilityAction[];
  readonly momentum: number;
  readonly missingInput: number | undefined;
  readonly fallThrough: boolean;
  /** Tree time at which each child's cooldown ends. */
  readonly #readyAt: Float64Array;
  readonly #remaining: Float64Array;
  #running = -1;
  #lastTime = 0;
  #last: UtilitySelection | null = null;

  constructor(options: UtilitySelectorOptions) {
    checkOptionKeys(options, UTILITY_SELECTOR_OPTIONS_KEYS, "new UtilitySelector()");
    const name = options?.name ?? "utility-selector";
    if (!Array.isArray(options?.children) || options.children.length === 0) {
      throw new LangGoapError("INVALID_OPTION", `utility selector "${name}": children must be a non-empty array of { node, utility }`, {
        node: name,
      });
    }
    super(
      name,
      options.children.map((c) => c?.node),
    );
    const utilities = options.children.map((c) => (c.utility instanceof UtilityAction ? c.utility : new UtilityAction(c.utility)));
    const seen = new Set<string>();
    for (const u of utilities) {
      if (seen.has(u.name)) {
        throw new LangGoapError(
          "INVALID_OPTION",
          `utility selector "${name}": two children are scored as "${u.name}"; names must be unique`,
          {
            node: name,
            utility: u.name,
          },
        );
      }
      seen.add(u.name);
    }
    const momentum = options.momentum ?? 0;
    if (typeof momentum !== "number" || !Number.isFinite(momentum) || momentum < 0) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `utility selector "${name}": momentum must be a finite number >= 0, got ${describeValue(momentum)}`,
        {
          node: name,
        },
      );
    }
    if (options.missingInput !== undefined && (typeof options.missingInput !== "number" || !Number.isFinite(options.missingInput))) {
      throw new LangGoapError("INVALID_OPTION", `utility selector "${name}": missingInput must be a finite number`, { node: name });
    }
    this.utilities = Object.freeze(utilities);
    this.momentum = momentum;
    this.missingInput = options.missingInput;
    this.fallThrough = options.fallThrough ?? true;
    this.#readyAt = new Float64Array(utilities.length).fill(Number.NEGATIVE_INFINITY);
    this.#remaining = new Float64Array(utilities.length);
  }

  /** The last tick's scores and choice, or null before the first tick. */
  get lastSelection(): UtilitySelection | null {
    return this.#last;
  }

  /** The name of the child running now, or null. */
  get runningChild(): string | null {
    return this.#running >= 0 ? (this.utilities[this.#running] as UtilityAction).name : null;
  }

  protected update(ctx: BtTickContext): BtStatus {
    this.#lastTime = ctx.time;
    for (let i = 0; i < this.#remaining.length; i++) this.#remaining[i] = Math.max(0, (this.#readyAt[i] as number) - ctx.time);
    const evaluation = scoreActions(this.utilities, ctx.blackboard, {
      running: this.#running >= 0 ? (this.utilities[this.#running] as UtilityAction) : null,
      momentum: this.momentum,
      missingInput: this.missingInput,
      cooldowns: this.#remaining,
    });
    const order = this.#order(evaluation.scores);
    for (const i of order) {
      // A child interrupted earlier in this tick may have started its cooldown.
      if ((this.#readyAt[i] as number) > ctx.time) continue;
      if (this.#running >= 0 && this.#running !== i) this.#stop(this.#running, ctx.time, true);
      const status = (this.children[i] as BtNode).tick(ctx);
      if (status === "running") {
        this.#running = i;
        return this.#decide(ctx, evaluation, i, status);
      }
      this.#stop(i, ctx.time, false);
      if (status === "success") return this.#decide(ctx, evaluation, i, status);
    }
    if (this.#running >= 0) this.#stop(this.#running, ctx.time, true);
    return this.#decide(ctx, evaluation, -1, "failure");
  }

  protected override onAbort(): void {
    if (this.#running >= 0) this.#stop(this.#running, this.#lastTime, true);
  }

  /** Children to try, best first: only the best without fall-through; ties keep declaration order. */
  #order(scores: readonly ActionScore[]): number[] {
    const positive: number[] = [];
    for (let i = 0; i < scores.length; i++) if ((scores[i] as ActionScore).score > 0) positive.push(i);
    positive.sort((a, b) => (scores[b] as ActionScore).score - (scores[a] as ActionScore).score || a - b);
    return this.fallThrough ? positive : positive.slice(0, 1);
  }

  #stop(i: number, time: number, abort: boolean): void {
    if (abort) (this.children[i] as BtNode).abort();
    if (this.#running === i) this.#running = -1;
    this.#readyAt[i] = time + (this.utilities[i] as UtilityAction).cooldown;
  }

  #decide(ctx: BtTickContext, evaluation: UtilityEvaluation, chosen: number, status: BtStatus): BtStatus {
    const name = chosen >= 0 ? (this.utilities[chosen] as UtilityAction).name : null;
    this.#last = { best: evaluation.best, bestScore: evaluation.bestScore, scores: evaluation.scores, tick: ctx.tick, chosen: name };
    return status;
  }
}
