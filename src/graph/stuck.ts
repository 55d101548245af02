import {
  callWithin,
  DEFAULT_HOOK_TIMEOUT_MS,
  type GoalSpec,
  type HookContext,
  isTimeoutError,
  type MultiGoal,
  type WorldState,
} from "../core/index.js";
import type { NoPlanExplanation } from "../planner/index.js";
import { notJsonPart } from "./json.js";
import { errorMessage, type GoapLogger } from "./logger.js";
import type { GoapState } from "./state.js";

/** What a stuck handler decided. */
export type StuckHandlingResultCode = "replan" | "no_resolution";

/** Codes by name. */
export const StuckHandlingResultCode = Object.freeze({ REPLAN: "replan", NO_RESOLUTION: "no_resolution" } as const);

/**
 * A stuck handler's answer: try planning again (after merging `stateUpdates`
 * into the world state and, optionally, switching to `newGoal`), or give up.
 *
 * @example
 * ```ts
 * StuckHandlerResult.replan({ handlerName: "license", message: "bought a license", stateUpdates: { license_acquired: true } });
 * StuckHandlerResult.noResolution({ handlerName: "license", message: "no budget left" });
 * ```
 */
export class StuckHandlerResult {
  readonly code: StuckHandlingResultCode;
  readonly message: string;
  readonly handlerName: string | undefined;
  readonly stateUpdates: Readonly<WorldState>;
  readonly newGoal: GoalSpec | MultiGoal | undefined;

  private constructor(init: {
    code: StuckHandlingResultCode;
    message: string;
    handlerName?: string | undefined;
    stateUpdates?: Readonly<WorldState>;
    newGoal?: GoalSpec | MultiGoal | undefined;
  }) {
    this.code = init.code;
    this.message = init.message;
    this.handlerName = init.handlerName;
    this.stateUpdates = Object.freeze({ ...init.stateUpdates });
    this.newGoal = init.newGoal;
    Object.freeze(this);
  }

  /** Plan again, with these state updates and optionally a new goal. */
  static replan(init: {
    handlerName?: string;
    message: string;
    stateUpdates?: Readonly<WorldState>;
    newGoal?: GoalSpec | MultiGoal;
  }): StuckHandlerResult {
    return new StuckHandlerResult({ ...init, code: "replan" });
  }

  /** The handler cannot help. */
  static noResolution(init: { handlerName?: string | undefined; message: string }): StuckHandlerResult {
    return new StuckHandlerResult({ ...init, code: "no_resolution" });
  }
}

/**
 * Called when planning finds no plan, with the state and the explanation of
 * why. Sync or async: an async handler has the graph's `hookTimeoutMs` to
 * answer (its `context.signal` aborts then); a late one counts as no
 * resolution.
 *
 * @example
 * ```ts
 * const buyLicense: StuckHandler = {
 *   name: "buy-license",
 *   handleStuck: (_state, why) =>
 *     why.missingPreconditions.some((c) => c.startsWith("license_acquired"))
 *       ? StuckHandlerResult.replan({ message: "license bought", stateUpdates: { license_acquired: true } })
 *       : StuckHandlerResult.noResolution({ message: "not a license problem" }),
 * };
 * ```
 */
export interface StuckHandler {
  readonly name: string;
  handleStuck(
    state: Readonly<GoapState>,
    explanation: NoPlanExplanation,
    context?: HookContext,
  ): StuckHandlerResult | Promise<StuckHandlerResult>;
}

/**
 * A {@link StuckHandler} from a name and a function.
 *
 * @example
 * ```ts
 * new FunctionalStuckHandler("give-up", () => StuckHandlerResult.noResolution({ message: "nothing to do" }));
 * ```
 */
export class FunctionalStuckHandler implements StuckHandler {
  constructor(
    readonly name: string,
    private readonly fn: (
      state: Readonly<GoapState>,
      explanation: NoPlanExplanation,
      context?: HookContext,
    ) => StuckHandlerResult | Promise<StuckHandlerResult>,
  ) {}

  handleStuck(
    state: Readonly<GoapState>,
    explanation: NoPlanExplanation,
    context?: HookContext,
  ): StuckHandlerResult | Promise<StuckHandlerResult> {
    return this.fn(state, explanation, context);
  }
}

/**
 * Asks handlers in order; the first REPLAN wins and the rest are not asked.
 * A handler that throws, does not answer within `timeoutMs`, answers
 * nonsense, or updates the state with a value that is not JSON counts as
 * NO_RESOLUTION (and is logged). When nobody helps, the
 * answer names every handler tried.
 *
 * @example
 * ```ts
 * const handler = new MulticastStuckHandler([buyLicense, relaxGoal]);
 * ```
 */
export class MulticastStuckHandler implements StuckHandler {
  readonly handlers: readonly StuckHandler[];
  /** Time limit of each handler's answer in ms. */
  readonly timeoutMs: number;

  /** `timeoutMs`: the time limit of each handler's answer (`Infinity` for none). @defaultValue {@link DEFAULT_HOOK_TIMEOUT_MS} */
  constructor(
    handlers: readonly StuckHandler[],
    readonly name = "multicast",
    private readonly logger?: Required<GoapLogger>,
    timeoutMs: number = DEFAULT_HOOK_TIMEOUT_MS,
  ) {
    this.handlers = Object.freeze([...handlers]);
    this.timeoutMs = timeoutMs;
  }

  async handleStuck(state: Readonly<GoapState>, explanation: NoPlanExplanation, context?: HookContext): Promise<StuckHandlerResult> {
    const run = context?.signal;
    for (const handler of this.handlers) {
      try {
        const result = await callWithin((signal) => handler.handleStuck(state, explanation, { signal }), {
          ms: this.timeoutMs,
          what: `stuck handler "${handler.name}"`,
          details: { handler: handler.name },
          signal: run,
        });
        if (result instanceof StuckHandlerResult && result.code === "replan") {
          // Its updates go into the world state: a value no checkpoint can hold (a BigInt, a cycle, NaN...) is not an answer.
          const bad = notJsonPart(result.stateUpdates);
          if (bad) {
            this.logger?.warn(
              `stuck handler "${handler.name}" returned a state update that is not JSON at "${bad.path}": ${bad.reason}; treated as no resolution`,
              { handler: handler.name, key: bad.path },
            );
            continue;
          }
          return result.handlerName ? result : StuckHandlerResult.replan({ ...spreadable(result), handlerName: handler.name });
        }
        if (!(result instanceof StuckHandlerResult)) {
          this.logger?.warn(`stuck handler "${handler.name}" returned something other than a StuckHandlerResult; treated as no resolution`);
        }
      } catch (error) {
        if (run?.aborted) throw run.reason;
        const what = isTimeoutError(error)
          ? `timed out; treated as no resolution: ${error.message}`
          : `threw; treated as no resolution: ${errorMessage(error)}`;
        this.logger?.warn(`stuck handler "${handler.name}" ${what}`, { handler: handler.name });
      }
    }
    const tried = this.handlers.map((h) => h.name).join(", ");
    return StuckHandlerResult.noResolution({
      message: this.handlers.length ? `No stuck handler could resolve the issue: tried ${tried}` : "No stuck handlers are configured",
    });
  }
}

function spreadable(result: StuckHandlerResult): {
  message: string;
  stateUpdates: Readonly<WorldState>;
  newGoal?: GoalSpec | MultiGoal;
} {
  return { message: result.message, stateUpdates: result.stateUpdates, ...(result.newGoal ? { newGoal: result.newGoal } : {}) };
}
