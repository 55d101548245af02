import {
  type ConditionResolver,
  ConditionStatus,
  callWithin,
  DEFAULT_HOOK_TIMEOUT_MS,
  factOf,
  type HookContext,
  isTimeoutError,
  toConditionStatus,
  type WorldState,
} from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { copyState } from "./copy-state.js";
import { errorMessage, type GoapLogger, safeLogger } from "./logger.js";

/**
 * A {@link ConditionResolver} from a name and a function. The function may
 * answer with a {@link ConditionStatus}, a boolean, `yes`/`no`-style text,
 * or `null`/`undefined` for "unknown"; it may be async.
 *
 * @example
 * ```ts
 * const stocked = new FunctionalConditionResolver("stock", (key, ws) =>
 *   key === "in_stock" ? (ws.stock as number) > 0 : ConditionStatus.UNKNOWN,
 * );
 * ```
 */
export class FunctionalConditionResolver implements ConditionResolver {
  constructor(
    readonly name: string,
    private readonly fn: (key: string, worldState: Readonly<WorldState>, context?: HookContext) => unknown,
  ) {}

  async resolve(key: string, worldState: Readonly<WorldState>, context?: HookContext): Promise<ConditionStatus> {
    return toConditionStatus(await this.fn(key, worldState, context));
  }
}

/** Options of {@link resolveConditions}. */
export interface ResolveConditionsOptions {
  /** Re-decide keys already present in the world state. @defaultValue false */
  readonly overwrite?: boolean;
  /** Receives warnings about resolvers that throw or time out. */
  readonly logger?: GoapLogger;
  /** Time limit of each resolver's answer in ms (`Infinity` for none). @defaultValue {@link DEFAULT_HOOK_TIMEOUT_MS} */
  readonly timeoutMs?: number;
  /** The run's signal: its abort stops the resolving. */
  readonly signal?: AbortSignal | undefined;
}

const RESOLVE_CONDITIONS_OPTIONS_KEYS = {
  overwrite: true,
  logger: true,
  timeoutMs: true,
  signal: true,
} as const satisfies OptionKeys<ResolveConditionsOptions>;

/**
 * Decides boolean facts before planning (OODA "orient"), three-valued: for
 * each key (skipping keys already present unless `overwrite`), resolvers are
 * asked in order; TRUE writes `true`, FALSE writes `false`, UNKNOWN asks the
 * next one. When every resolver says UNKNOWN the key stays absent, so the
 * planner cannot rely on it. A resolver that throws, or does not answer
 * within `timeoutMs` (its `context.signal` aborts then), counts as UNKNOWN.
 * Returns a new world state.
 *
 * @example
 * ```ts
 * await resolveConditions([stocked], ["in_stock"], { stock: 3 }); // { stock: 3, in_stock: true }
 * ```
 */
export async function resolveConditions(
  resolvers: readonly ConditionResolver[],
  keys: Iterable<string>,
  worldState: Readonly<WorldState>,
  options: ResolveConditionsOptions = {},
): Promise<WorldState> {
  checkOptionKeys(options, RESOLVE_CONDITIONS_OPTIONS_KEYS, "resolveConditions()");
  const state: WorldState = { ...worldState };
  if (resolvers.length === 0) return state;
  const logger = safeLogger(options.logger ?? {});
  for (const key of new Set(keys)) {
    if (!options.overwrite && factOf(state, key) !== undefined) continue;
    for (const resolver of resolvers) {
      let status: ConditionStatus;
      try {
        const answer = await callWithin((signal) => resolver.resolve(key, copyState(state), { signal }), {
          ms: options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
          what: `condition resolver "${resolver.name}" on "${key}"`,
          details: { resolver: resolver.name, key },
          signal: options.signal,
        });
        status = toConditionStatus(answer);
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        const what = isTimeoutError(error)
          ? `timed out; treated as unknown: ${error.message}`
          : `threw on "${key}"; treated as unknown: ${errorMessage(error)}`;
        logger.warn(`condition resolver "${resolver.name}" ${what}`, { resolver: resolver.name, key });
        continue;
      }
      if (status === ConditionStatus.UNKNOWN) continue;
      state[key] = status === ConditionStatus.TRUE;
      break;
    }
  }
  return state;
}
