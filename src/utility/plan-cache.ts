import {
  type ActionSpec,
  describeValue,
  factOf,
  type GoalLike,
  type GoalSpec,
  LangGoapError,
  toGoalSpec,
  type WorldState,
} from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import {
  type BudgetExhaustion,
  Plan,
  type PlanOptions,
  planDetailed,
  planDetailedAsync,
  planningKeys,
  replayPlan,
  type SearchStatus,
} from "../planner/index.js";

/**
 * A planner that answers later, off the caller's thread: what
 * {@link PlanCache.planAsync} and `GoapAgent`'s `planner` option accept.
 * `PlannerPool` (from `langgoap/node`) is one.
 */
export interface AsyncPlanner {
  planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    options: PlanOptions,
  ): Promise<{ readonly plan: Plan | null; readonly status: SearchStatus; readonly budget?: BudgetExhaustion }>;
}

/** Options of {@link PlanCache}. */
export interface PlanCacheOptions {
  /** Entries kept; the least recently used goes first. @defaultValue 1024 */
  readonly maxSize?: number;
  /**
   * The state keys a plan for `goal` can depend on. The default is the
   * planning keys (goal, preconditions, effects); when an action has a cost
   * or effect function, which may read anything, every key of the state.
   * Override it to share plans of such domains, naming what the functions read.
   * Called once per (domain, goal); the answer is remembered.
   */
  readonly relevantKeys?: (goal: GoalSpec, actions: readonly ActionSpec[]) => readonly string[];
}

/** Result of {@link PlanCache.plan}. */
export interface CachedPlanResult {
  /** The plan for this start state (its actions are the caller's own specs), or null. */
  readonly plan: Plan | null;
  readonly status: SearchStatus;
  /** True when the answer came from the cache instead of a search. */
  readonly fromCache: boolean;
}

/** Counters of a {@link PlanCache}. */
export interface PlanCacheStats {
  readonly hits: number;
  readonly misses: number;
  readonly evictions: number;
  readonly size: number;
  readonly maxSize: number;
}

interface DomainEntry {
  readonly id: number;
  /** True when some action has a cost or effect function. */
  readonly dynamic: boolean;
}

interface BoundDomain extends DomainEntry {
  /** The caller's specs by name, to rebind cached plans. */
  readonly byName: ReadonlyMap<string, ActionSpec>;
}

let nextFunctionId = 1;
const functionIds = new WeakMap<object, number>();
function functionId(fn: object): number {
  let id = functionIds.get(fn);
  if (id === undefined) {
    id = nextFunctionId++;
    functionIds.set(fn, id);
  }
  return id;
}

const actionSignatures = new WeakMap<ActionSpec, string>();
/** What planning sees of an action; functions by identity, since equal text does not mean equal behaviour. */
function actionSignature(action: ActionSpec): string {
  let signature = actionSignatures.get(action);
  if (signature === undefined) {
    signature = JSON.stringify([
      action.name,
      action.preconditions,
      typeof action.effects === "function" ? `fn#${functionId(action.effects)}:${[...action.effectKeys].join(",")}` : action.effects,
      typeof action.cost === "function" ? `fn#${functionId(action.cost)}` : action.cost,
      action.canRerun,
    ]);
    actionSignatures.set(action, signature);
  }
  return signature;
}

/** Encodes one fact so that concatenated encodings are unambiguous. */
function encodeValue(value: unknown): string {
  switch (typeof value) {
    case "boolean":
      return value ? "T" : "F";
    case "number":
      return `n${value}`;
    case "string":
      return `s${JSON.stringify(value)}`;
    case "undefined":
      return "u";
    default:
      return value === null ? "z" : `j${JSON.stringify(value)}`;
  }
}

const PLAN_CACHE_OPTIONS_KEYS = { maxSize: true, relevantKeys: true } as const satisfies OptionKeys<PlanCacheOptions>;

/**
 * A bounded LRU cache of plans keyed by (relevant state, goal, domain), so
 * many agents whose relevant facts agree share one search. Only the values
 * of the keys a plan can depend on enter the key (see
 * {@link PlanCacheOptions.relevantKeys}); "no plan" answers are cached too,
 * budget-exhausted searches are not. A hit is replayed from the caller's
 * start state with the caller's own action specs, so expected states and
 * costs are exact for that caller. Hits do not call the tracer. Pass frozen
 * action arrays (`Object.freeze`) so their identity can be remembered.
 *
 * @example
 * ```ts
 * const cache = new PlanCache({ maxSize: 4096 });
 * for (const npc of npcs) npc.plan = cache.plan(npc.state, { is_hungry: false }, actions).plan;
 * cache.stats; // { hits: 993, misses: 7, ... }
 * ```
 */
export class PlanCache {
  readonly maxSize: number;
  readonly #relevantKeys: PlanCacheOptions["relevantKeys"];
  readonly #entries = new Map<string, Plan | null>();
  readonly #domains = new WeakMap<readonly ActionSpec[], BoundDomain>();
  readonly #domainIds = new Map<string, DomainEntry>();
  readonly #goalIds = new Map<string, number>();
  readonly #goalIdBySpec = new WeakMap<GoalSpec, number>();
  readonly #keysMemo = new Map<string, readonly string[]>();
  readonly #inFlight = new Map<string, ReturnType<AsyncPlanner["planDetailed"]>>();
  #hits = 0;
  #misses = 0;
  #evictions = 0;

  constructor(options: PlanCacheOptions = {}) {
    checkOptionKeys(options, PLAN_CACHE_OPTIONS_KEYS, "new PlanCache()");
    const maxSize = options.maxSize ?? 1024;
    if (!Number.isInteger(maxSize) || maxSize < 1) {
      throw new LangGoapError("INVALID_OPTION", `PlanCache: maxSize must be an integer >= 1, got ${describeValue(maxSize)}`);
    }
    if (options.relevantKeys !== undefined && typeof options.relevantKeys !== "function") {
      throw new LangGoapError("INVALID_OPTION", "PlanCache: relevantKeys must be a function (goal, actions) => keys");
    }
    this.maxSize = maxSize;
    this.#relevantKeys = options.relevantKeys;
  }

  get stats(): PlanCacheStats {
    return { hits: this.#hits, misses: this.#misses, evictions: this.#evictions, size: this.#entries.size, maxSize: this.maxSize };
  }

  /** Drops every entry and resets the counters. */
  clear(): void {
    this.#entries.clear();
    this.#keysMemo.clear();
    this.#hits = 0;
    this.#misses = 0;
    this.#evictions = 0;
  }

  /**
   * The plan from `start` to `goal`: from the cache when an equal relevant
   * state was planned before, otherwise from {@link planDetailed} (then stored).
   */
  plan(start: Readonly<WorldState>, goal: GoalLike, actions: readonly ActionSpec[], options: PlanOptions = {}): CachedPlanResult {
    const goalSpec = toGoalSpec(goal);
    if (goalSpec.isSatisfied(start)) {
      return { plan: Plan.empty({ ...start }, { strategy: "astar" }), status: "found", fromCache: false };
    }
    const domain = this.#domain(actions);
    const key = this.#key(start, goalSpec, domain, actions, options);
    const hit = this.#lookup(key, start, goalSpec, domain);
    if (hit) return hit;
    this.#misses++;
    const result = planDetailed(start, goalSpec, actions, options);
    if (result.status === "found" || result.status === "no_plan") this.#store(key, result.plan);
    return { plan: result.plan, status: result.status, fromCache: false };
  }

  /**
   * {@link PlanCache.plan} without planning on the caller's thread: a miss
   * is planned by `planner` (a `PlannerPool`, so a crowd's misses run in
   * worker threads) or, without one, by `planDetailedAsync`. Callers whose
   * relevant state equals a search still in flight wait for it instead of
   * starting another, and get its plan replayed from their own start
   * (`fromCache: true`); they share its outcome, an abort or a spent
   * budget included.
   *
   * @example
   * ```ts
   * const results = await Promise.all(npcs.map((npc) => cache.planAsync(npc.state, npc.goal, actions, {}, pool)));
   * ```
   */
  async planAsync(
    start: Readonly<WorldState>,
    goal: GoalLike,
    actions: readonly ActionSpec[],
    options: PlanOptions = {},
    planner?: AsyncPlanner,
  ): Promise<CachedPlanResult> {
    const goalSpec = toGoalSpec(goal);
    if (goalSpec.isSatisfied(start)) {
      return { plan: Plan.empty({ ...start }, { strategy: "astar" }), status: "found", fromCache: false };
    }
    const domain = this.#domain(actions);
    const key = this.#key(start, goalSpec, domain, actions, options);
    const hit = this.#lookup(key, start, goalSpec, domain);
    if (hit) return hit;
    const flight = this.#inFlight.get(key);
    if (flight) {
      const shared = await flight;
      const rebound = shared.plan === null ? null : this.#rebind(start, goalSpec, shared.plan, domain);
      if (rebound !== undefined) {
        this.#hits++;
        return { plan: rebound, status: rebound ? "found" : shared.status, fromCache: true };
      }
    }
    this.#misses++;
    const search = (
      planner ? planner.planDetailed(start, goalSpec, actions, options) : planDetailedAsync(start, goalSpec, actions, options)
    ).then((result) => {
      if (result.status === "found" || result.status === "no_plan") this.#store(key, result.plan);
      return result;
    });
    this.#inFlight.set(key, search);
    try {
      const result = await search;
      return { plan: result.plan, status: result.status, fromCache: false };
    } finally {
      if (this.#inFlight.get(key) === search) this.#inFlight.delete(key);
    }
  }

  /** A cached answer replayed for this caller, or null on a miss (or when the cached plan does not replay). */
  #lookup(key: string, start: Readonly<WorldState>, goal: GoalSpec, domain: BoundDomain): CachedPlanResult | null {
    const cached = this.#entries.get(key);
    if (cached === undefined) return null;
    this.#entries.delete(key);
    this.#entries.set(key, cached);
    const rebound = cached === null ? null : this.#rebind(start, goal, cached, domain);
    if (rebound === undefined) return null;
    this.#hits++;
    return { plan: rebound, status: rebound ? "found" : "no_plan", fromCache: true };
  }

  #store(key: string, plan: Plan | null): void {
    this.#entries.delete(key);
    this.#entries.set(key, plan);
    if (this.#entries.size > this.maxSize) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
      this.#evictions++;
    }
  }

  /** The cached plan replayed from `start` with the caller's specs; undefined when it does not replay (then it is replanned). */
  #rebind(start: Readonly<WorldState>, goal: GoalSpec, cached: Plan, domain: BoundDomain): Plan | undefined {
    const actions = cached.actions.map((a) => domain.byName.get(a.name) as ActionSpec);
    const replay = replayPlan(start, actions, goal);
    if (!replay.valid) return undefined;
    return new Plan({
      actions,
      expectedStates: replay.states,
      startState: { ...start },
      totalCost: replay.totalCost,
      metadata: { ...cached.metadata, planningTimeMs: 0, cacheHit: true },
    });
  }

  /**
   * The domain's interned identity. Frozen arrays are remembered by identity;
   * other arrays are re-read on every call, since the caller may change them.
   */
  #domain(actions: readonly ActionSpec[]): BoundDomain {
    const remembered = this.#domains.get(actions);
    if (remembered) return remembered;
    const signature = actions.map(actionSignature).join("\n");
    let entry = this.#domainIds.get(signature);
    if (entry === undefined) {
      entry = { id: this.#domainIds.size + 1, dynamic: actions.some((a) => a.hasDynamicCost || a.hasDynamicEffects) };
      this.#domainIds.set(signature, entry);
    }
    const bound: BoundDomain = { ...entry, byName: new Map(actions.map((a) => [a.name, a])) };
    if (Object.isFrozen(actions)) this.#domains.set(actions, bound);
    return bound;
  }

  #goalId(goal: GoalSpec): number {
    let id = this.#goalIdBySpec.get(goal);
    if (id === undefined) {
      const signature = JSON.stringify(goal.conditions);
      id = this.#goalIds.get(signature);
      if (id === undefined) {
        id = this.#goalIds.size + 1;
        this.#goalIds.set(signature, id);
      }
      this.#goalIdBySpec.set(goal, id);
    }
    return id;
  }

  #key(start: Readonly<WorldState>, goal: GoalSpec, domain: DomainEntry, actions: readonly ActionSpec[], options: PlanOptions): string {
    const goalId = this.#goalId(goal);
    const blacklist = options.blacklisted ? [...options.blacklisted].sort().join(",") : "";
    // Options that change which plan is found; budgets only decide whether one is.
    let key = `${domain.id}|${goalId}|${options.heuristic ?? ""}|${options.weight ?? ""}|${options.prune === false ? "p" : ""}|${blacklist}|`;
    if (domain.dynamic && !this.#relevantKeys) {
      // The key set varies with the state, so each value carries its key.
      const keys = [...new Set([...planningKeys(goal, actions), ...Object.keys(start)])].sort();
      for (const k of keys) key += `${JSON.stringify(k)}=${encodeValue(factOf(start, k))},`;
      return key;
    }
    const memoKey = `${domain.id}|${goalId}`;
    const keys =
      this.#keysMemo.get(memoKey) ??
      this.#rememberKeys(memoKey, this.#relevantKeys ? this.#relevantKeys(goal, actions) : planningKeys(goal, actions));
    for (const k of keys) key += `${encodeValue(factOf(start, k))},`;
    return key;
  }

  #rememberKeys(memoKey: string, keys: readonly string[]): readonly string[] {
    if (!Array.isArray(keys) || !keys.every((k) => typeof k === "string")) {
      throw new LangGoapError("INVALID_OPTION", `PlanCache: relevantKeys must return an array of strings, got ${describeValue(keys)}`);
    }
    const frozen = Object.freeze([...keys]);
    this.#keysMemo.set(memoKey, frozen);
    return frozen;
  }
}
