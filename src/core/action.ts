import type { RunnableConfig } from "@langchain/core/runnables";
import type { ZodType } from "zod";
import { type Conditions, normalizeConditions, satisfiesConditions } from "./conditions.js";
import type { HookContext } from "./deadline.js";
import { type Effect, type EffectFunction, type Effects, normalizeEffects, resolveEffect } from "./effects.js";
import { describeValue, LangGoapError } from "./errors.js";
import type { FactKey } from "./fact-keys.js";
import type { ConditionsOf, EffectsOf } from "./fact-types.js";
import { type Fact, factOf, isFact, type WorldState } from "./facts.js";
import { MAX_ACTION_COST } from "./limits.js";
import { checkFactName, unsafeNameReason } from "./names.js";
import { checkOptionKeys, type OptionKeys } from "./option-keys.js";
import { ActionQos, type ActionQosOptions } from "./qos.js";
import type { Rng } from "./rng.js";

/** A cost that depends on the state it is paid in. Must return a finite number >= 0. */
export type CostFunction<S extends WorldState = WorldState> = (state: Readonly<S>) => number;

/**
 * The LangChain runnable config an action runs under. Core stays free of
 * LangGraph (a type-only import of `@langchain/core`, a peer dependency,
 * costs nothing at run time); the graph layer widens this interface to
 * LangGraph's `LangGraphRunnableConfig` (store, writer, interrupt...) by
 * declaration merging, so inside a graph `ctx.config` is exactly what the
 * executor node received, and it passes to `model.invoke(messages, ctx.config)`
 * without a cast.
 */
export interface ActionRunConfig extends RunnableConfig {}

/** What `execute` receives besides the world state. */
export interface ActionContext {
  /** 1-based attempt number under the action's QoS policy. */
  readonly attempt: number;
  /**
   * The same for every execution of this plan step: QoS retries, a re-run
   * after a crash, a resume. Pass it to the systems you call (a payment
   * API's idempotency key, a row's unique id) so they can drop duplicates.
   * Inside a graph: `"<runId>:<step>:<action>"`, followed by `":<checkpoint>"`
   * with a checkpointer (a fork of the run runs its steps under new keys).
   */
  readonly idempotencyKey: string;
  /**
   * 1 the first time this step starts; 2 when an earlier start did not
   * finish (the process running it stopped, or an `interrupt()` inside
   * `execute` paused the run): the earlier start may have had effects, so
   * check by `idempotencyKey` before doing them again. A step left
   * unfinished by two stopped processes is not started a third time.
   */
  readonly stepAttempt: number;
  /** The run's seeded generator. */
  readonly rng: Rng;
  /** Aborted when the run is cancelled, a sibling in its parallel wave fails, or the attempt's time limit passes. */
  readonly signal?: AbortSignal;
  /** The LangGraph runnable config of the executing node, when run inside a graph (pass it on to chat models and tools). */
  readonly config?: ActionRunConfig;
}

/**
 * Runs the action for real. A returned object is authoritative: it is merged
 * into the world state instead of the declared effects. `S` types the world
 * (see `defineDomain`); the default is the untyped world.
 */
export type ExecuteFunction<S extends WorldState = WorldState> = (
  state: Readonly<S>,
  context: ActionContext,
) => Promise<Partial<S> | undefined | void> | Partial<S> | undefined | void;

/**
 * Checks an execution's outcome; `false` rolls the world state back. Inside
 * a graph an async validator has `hookTimeoutMs` to answer
 * (`context.signal` aborts then); a late one fails the check.
 */
export type EffectValidator<S extends WorldState = WorldState> = (
  before: Readonly<S>,
  after: Readonly<S>,
  context?: HookContext,
) => boolean | Promise<boolean>;

/**
 * Constructor options of {@link ActionSpec}. With a typed world `S`, fact
 * names and value types are checked in preconditions, effects, `effectKeys`
 * and `execute`'s updates; the default `S` is the untyped world.
 */
export interface ActionSpecOptions<S extends WorldState = WorldState> {
  /** Unique name; no whitespace. */
  readonly name: string;
  /** Conditions that must hold before the action. @defaultValue {} */
  readonly preconditions?: ConditionsOf<S>;
  /** Static effects, or a function of the state (then `effectKeys` is required). @defaultValue {} */
  readonly effects?: EffectsOf<S> | EffectFunction<S>;
  /** The keys a function effect may write. Required iff `effects` is a function. */
  readonly effectKeys?: Iterable<FactKey<S>>;
  /** Cost from 0 to {@link MAX_ACTION_COST} (1e12), or a function of the state. @defaultValue 1 */
  readonly cost?: number | CostFunction<S>;
  /** The real work, run by the graph's executor. */
  readonly execute?: ExecuteFunction<S>;
  /** Post-execution check; failure rolls back. */
  readonly effectValidator?: EffectValidator<S>;
  /** Retry policy inside the executor. @defaultValue one attempt */
  readonly qos?: ActionQos | ActionQosOptions;
  /** Failures tolerated before the action is blacklisted (0 = first failure). @defaultValue 0 */
  readonly maxRetries?: number;
  /** `false`: at most once per plan, and never again after it succeeded in a run. @defaultValue true */
  readonly canRerun?: boolean;
  /** Informational: the action does not change the outside world. @defaultValue false */
  readonly readOnly?: boolean;
  /** Utility for utility-driven strategies: a number or a function of the state. */
  readonly utility?: number | CostFunction<S>;
  /**
   * `true` asks a human to approve; a zod schema asks for a typed form. The
   * human is asked once per decision: when the approved action fails, its
   * retries (up to `maxRetries`) run on the same answer without asking.
   * The question comes again only when the action is needed anew: a later
   * step after it succeeded, the blacklist fallback letting it back in
   * (its failure count starts over), the next subgoal of a sequential goal,
   * a new run. A denial or an invalid form is final for the run.
   *
   * @example
   * ```ts
   * new ActionSpec({ name: "deploy", effects: { deployed: true }, requireHumanApproval: true, maxRetries: 3 });
   * // fails four times in a row: asked once, before the first attempt
   * ```
   * @defaultValue false
   */
  readonly requireHumanApproval?: boolean | ZodType;
  /** World-state key that receives a typed form's answer. @defaultValue the action name */
  readonly humanInputKey?: string;
  /** Resources consumed (summed per plan by the optimizer), e.g. `{ usd: 0.02 }`. */
  readonly resources?: Readonly<Record<string, number>>;
  /** Duration for scheduling, in milliseconds. */
  readonly durationMs?: number;
  /** Free-form data carried along (never interpreted by the planner). */
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** What the action does, in words (used by catalogs and NL interpreters). */
  readonly description?: string;
}

const NAME_PATTERN = /^[^\s]{1,128}$/;

/** True only while {@link actionFromOwnedData} runs the constructor. */
let adoptingOwnedData = false;

function isZodSchema(value: unknown): value is ZodType {
  return typeof value === "object" && value !== null && typeof (value as ZodType).safeParse === "function";
}

const ACTION_SPEC_OPTIONS_KEYS = {
  name: true,
  preconditions: true,
  effects: true,
  effectKeys: true,
  cost: true,
  execute: true,
  effectValidator: true,
  qos: true,
  maxRetries: true,
  canRerun: true,
  readOnly: true,
  utility: true,
  requireHumanApproval: true,
  humanInputKey: true,
  resources: true,
  durationMs: true,
  metadata: true,
  description: true,
} as const satisfies OptionKeys<ActionSpecOptions>;

/**
 * An immutable, validated action: preconditions, effects and cost for the
 * planner, plus the execution hooks the graph uses.
 *
 * @example
 * ```ts
 * const chop = new ActionSpec({
 *   name: "chop_wood",
 *   preconditions: { has_axe: true, near_tree: true },
 *   effects: { wood: { inc: 2 } },
 *   cost: 2,
 * });
 * chop.apply({ has_axe: true, near_tree: true, wood: 1 }).wood; // 3
 * ```
 *
 * `S` types the world the action runs in: a domain's `action()` (see
 * `defineDomain`) checks the options against its facts and returns an
 * `ActionSpec<S>`. The runtime object is the same either way.
 */
export class ActionSpec<S extends WorldState = WorldState> {
  readonly name: string;
  readonly preconditions: Conditions;
  /** Static effects, or the effect function. */
  readonly effects: Effects | EffectFunction;
  readonly effectKeys: ReadonlySet<string>;
  readonly cost: number | CostFunction;
  readonly execute: ExecuteFunction | undefined;
  readonly effectValidator: EffectValidator | undefined;
  readonly qos: ActionQos | undefined;
  readonly maxRetries: number;
  readonly canRerun: boolean;
  readonly readOnly: boolean;
  readonly utility: number | CostFunction | undefined;
  readonly requireHumanApproval: boolean | ZodType;
  readonly humanInputKey: string | undefined;
  readonly resources: Readonly<Record<string, number>> | undefined;
  readonly durationMs: number | undefined;
  readonly metadata: Readonly<Record<string, unknown>> | undefined;
  readonly description: string | undefined;
  /** The options this spec was built from, for {@link ActionSpec.with}. */
  readonly #options: ActionSpecOptions;

  /**
   * Untyped on purpose: a constructor's options would make TypeScript guess
   * `S` from them (an `execute` returning `{ done: true }` would type the
   * world as `{ done: boolean }`). Typed actions come from a domain's
   * `action()`, which checks the options against its facts.
   */
  constructor(options: ActionSpecOptions) {
    checkOptionKeys(options, ACTION_SPEC_OPTIONS_KEYS, "new ActionSpec()");
    if (typeof options !== "object" || options === null) {
      throw new LangGoapError("INVALID_ACTION", `ActionSpec: expected an options object, got ${describeValue(options)}`);
    }
    const owned = adoptingOwnedData;
    adoptingOwnedData = false;
    const { name } = options;
    if (typeof name !== "string" || !NAME_PATTERN.test(name)) {
      throw new LangGoapError(
        "INVALID_ACTION",
        `ActionSpec: name must be a non-empty string of at most 128 characters without whitespace, got ${describeValue(name)}`,
        { name },
      );
    }
    const unsafe = unsafeNameReason(name);
    if (unsafe !== undefined) {
      throw new LangGoapError("INVALID_ACTION", `ActionSpec: name ${describeValue(name)} ${unsafe}`, { name, reason: "bad_action_name" });
    }
    const where = `action "${name}"`;
    const fail = (field: string, expected: string, value: unknown): never => {
      throw new LangGoapError("INVALID_ACTION", `${where}: ${field} must be ${expected}, got ${describeValue(value)}`, {
        action: name,
        field,
        value,
      });
    };
    this.name = name;
    this.preconditions = normalizeConditions(options.preconditions, `${where} preconditions`, owned);

    if (typeof options.effects === "function") {
      if (options.effectKeys === undefined) fail("effectKeys", "given when effects is a function", undefined);
      const keys = new Set<string>();
      for (const k of options.effectKeys as Iterable<string>) {
        if (typeof k !== "string" || k.length === 0) fail("effectKeys", "non-empty strings", k);
        checkFactName(k, `${where} effectKeys`, "INVALID_ACTION");
        keys.add(k);
      }
      if (keys.size === 0) fail("effectKeys", "non-empty when effects is a function", [...keys]);
      this.effects = options.effects;
      this.effectKeys = Object.freeze(keys);
    } else {
      if (options.effectKeys !== undefined) {
        fail("effectKeys", "omitted when effects are static (the keys come from the effects object)", [...options.effectKeys]);
      }
      const effects = normalizeEffects(options.effects, `${where} effects`, owned);
      this.effects = effects;
      this.effectKeys = Object.freeze(new Set(Object.keys(effects)));
    }

    const cost = options.cost ?? 1;
    if (typeof cost !== "function" && (typeof cost !== "number" || !Number.isFinite(cost) || cost < 0)) {
      fail("cost", "a finite number >= 0 or a function", cost);
    }
    if (typeof cost === "number" && cost > MAX_ACTION_COST) {
      throw new LangGoapError(
        "INVALID_ACTION",
        `${where}: cost ${cost} exceeds the limit of ${MAX_ACTION_COST} (MAX_ACTION_COST), above which a plan's total cost could overflow`,
        { action: name, field: "cost", value: cost, limit: MAX_ACTION_COST },
      );
    }
    this.cost = cost;
    if (options.execute !== undefined && typeof options.execute !== "function") fail("execute", "a function", options.execute);
    this.execute = options.execute;
    if (options.effectValidator !== undefined && typeof options.effectValidator !== "function") {
      fail("effectValidator", "a function", options.effectValidator);
    }
    this.effectValidator = options.effectValidator;
    this.qos = options.qos === undefined ? undefined : options.qos instanceof ActionQos ? options.qos : new ActionQos(options.qos);
    const maxRetries = options.maxRetries ?? 0;
    if (!Number.isInteger(maxRetries) || maxRetries < 0) fail("maxRetries", "an integer >= 0", maxRetries);
    this.maxRetries = maxRetries;
    for (const flag of ["canRerun", "readOnly"] as const) {
      if (options[flag] !== undefined && typeof options[flag] !== "boolean") fail(flag, "a boolean", options[flag]);
    }
    this.canRerun = options.canRerun ?? true;
    this.readOnly = options.readOnly ?? false;
    const utility = options.utility;
    if (utility !== undefined && typeof utility !== "function" && (typeof utility !== "number" || !Number.isFinite(utility))) {
      fail("utility", "a finite number or a function", utility);
    }
    this.utility = utility;
    const approval = options.requireHumanApproval ?? false;
    if (typeof approval !== "boolean" && !isZodSchema(approval)) fail("requireHumanApproval", "a boolean or a zod schema", approval);
    this.requireHumanApproval = approval;
    if (options.humanInputKey !== undefined && (typeof options.humanInputKey !== "string" || options.humanInputKey === "")) {
      fail("humanInputKey", "a non-empty string", options.humanInputKey);
    }
    this.humanInputKey = options.humanInputKey;
    if (options.resources !== undefined) {
      if (typeof options.resources !== "object" || options.resources === null) fail("resources", "an object of numbers", options.resources);
      for (const [k, v] of Object.entries(options.resources)) {
        if (typeof v !== "number" || !Number.isFinite(v)) fail(`resources.${k}`, "a finite number", v);
      }
      this.resources = Object.freeze(owned ? options.resources : { ...options.resources });
    } else {
      this.resources = undefined;
    }
    const duration = options.durationMs;
    if (duration !== undefined && (typeof duration !== "number" || !Number.isFinite(duration) || duration < 0)) {
      fail("durationMs", "a finite number >= 0", duration);
    }
    this.durationMs = duration;
    this.metadata = options.metadata === undefined ? undefined : Object.freeze(owned ? options.metadata : { ...options.metadata });
    if (options.description !== undefined && typeof options.description !== "string") fail("description", "a string", options.description);
    this.description = options.description ?? (typeof this.metadata?.description === "string" ? this.metadata.description : undefined);
    // The normalized conditions and effects, not the caller's objects: a large domain would otherwise keep both.
    // Owned data already holds the normalized objects; otherwise keep those, not the caller's (a copy of each).
    this.#options = Object.freeze(owned ? options : { ...options, preconditions: this.preconditions, effects: this.effects });
    Object.freeze(this);
  }

  /** True when effects are computed by a function. */
  get hasDynamicEffects(): boolean {
    return typeof this.effects === "function";
  }

  /** True when the cost is computed by a function. */
  get hasDynamicCost(): boolean {
    return typeof this.cost === "function";
  }

  /** Static effects, or `undefined` for a function effect. */
  get staticEffects(): Effects | undefined {
    return typeof this.effects === "function" ? undefined : this.effects;
  }

  /** True when the preconditions hold in `state`. */
  isApplicable(state: Readonly<S>): boolean {
    return satisfiesConditions(state, this.preconditions);
  }

  /**
   * The concrete values the effects write in `state`: operator effects are
   * resolved, function effects are called and checked against `effectKeys`.
   */
  getEffects(state: Readonly<S>): Record<string, Fact> {
    const out: Record<string, Fact> = {};
    if (typeof this.effects === "function") {
      let produced: unknown;
      try {
        produced = this.effects(state);
      } catch (error) {
        // Already a coded error about this action (e.g. a declared bound it broke): pass it on unwrapped.
        if (error instanceof LangGoapError && error.details.action === this.name) throw error;
        throw new LangGoapError(
          "INVALID_EFFECT",
          `action "${this.name}": effect function threw: ${(error as Error)?.message ?? error}`,
          {
            action: this.name,
          },
          { cause: error },
        );
      }
      if (
        typeof produced !== "object" ||
        produced === null ||
        Array.isArray(produced) ||
        typeof (produced as { then?: unknown }).then === "function"
      ) {
        throw new LangGoapError(
          "INVALID_EFFECT",
          `action "${this.name}": effect function must return an object (synchronously), got ${describeValue(produced)}`,
          { action: this.name },
        );
      }
      for (const [key, value] of Object.entries(produced)) {
        if (!this.effectKeys.has(key)) {
          throw new LangGoapError(
            "INVALID_EFFECT",
            `action "${this.name}": effect function wrote undeclared key "${key}"; declared effectKeys are [${[...this.effectKeys].join(", ")}]`,
            { action: this.name, key },
          );
        }
        if (value === undefined) continue;
        if (!isFact(value)) {
          throw new LangGoapError(
            "INVALID_EFFECT",
            `action "${this.name}": effect function returned ${describeValue(value)} for key "${key}"; expected a boolean, finite number, string or null`,
            { action: this.name, key },
          );
        }
        out[key] = value;
      }
      return out;
    }
    for (const key in this.effects) {
      out[key] = resolveEffect(factOf(state, key), this.effects[key] as Effect, `action "${this.name}" effect on "${key}"`);
    }
    return out;
  }

  /** The state after the declared effects (a new object; `state` is untouched). */
  apply(state: Readonly<S>): S {
    return { ...state, ...this.getEffects(state) } as S;
  }

  /** The cost of running the action in `state`, validated. */
  getCost(state: Readonly<S> = {} as S): number {
    if (typeof this.cost === "number") return this.cost;
    let value: unknown;
    try {
      value = this.cost(state);
    } catch (error) {
      throw new LangGoapError(
        "INVALID_ACTION",
        `action "${this.name}": cost function threw: ${(error as Error)?.message ?? error}`,
        {
          action: this.name,
        },
        { cause: error },
      );
    }
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0 || value > MAX_ACTION_COST) {
      throw new LangGoapError(
        "INVALID_ACTION",
        `action "${this.name}": cost function returned ${describeValue(value)}; expected a number from 0 to ${MAX_ACTION_COST} (MAX_ACTION_COST)`,
        { action: this.name, value, limit: MAX_ACTION_COST },
      );
    }
    return value;
  }

  /** The utility of running the action in `state` (0 when none is declared). */
  getUtility(state: Readonly<S> = {} as S): number {
    if (this.utility === undefined) return 0;
    if (typeof this.utility === "number") return this.utility;
    const value = this.utility(state);
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new LangGoapError(
        "INVALID_ACTION",
        `action "${this.name}": utility function returned ${describeValue(value)}; expected a finite number`,
        {
          action: this.name,
        },
      );
    }
    return value;
  }

  /**
   * Checks an execution: the custom validator when set, otherwise every
   * declared effect must hold in `after`.
   */
  async validateEffects(before: Readonly<S>, after: Readonly<S>, context?: HookContext): Promise<boolean> {
    if (this.effectValidator) return (await this.effectValidator(before, after, context)) === true;
    const expected = this.getEffects(before);
    return Object.entries(expected).every(([k, v]) => factOf(after, k) === v);
  }

  /**
   * A copy with some options replaced (the original is unchanged). The
   * patch is not checked against `S`: a typed parameter would keep a typed
   * action (in generic code) from being an untyped `ActionSpec`.
   */
  with(patch: Partial<ActionSpecOptions>): ActionSpec<S> {
    const merged: ActionSpecOptions = { ...this.#options, ...patch };
    if (patch.effects !== undefined && patch.effectKeys === undefined && typeof patch.effects !== "function") {
      return new ActionSpec<S>({ ...merged, effectKeys: undefined });
    }
    return new ActionSpec<S>(merged);
  }

  /** A JSON description without functions (what checkpoints and catalogs keep). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      preconditions: this.preconditions,
      effects: typeof this.effects === "function" ? { $dynamic: [...this.effectKeys] } : this.effects,
      cost: typeof this.cost === "number" ? this.cost : "dynamic",
      ...(this.resources ? { resources: this.resources } : {}),
      ...(this.durationMs !== undefined ? { durationMs: this.durationMs } : {}),
      ...(this.description ? { description: this.description } : {}),
      ...(this.canRerun ? {} : { canRerun: false }),
      ...(this.maxRetries ? { maxRetries: this.maxRetries } : {}),
    };
  }

  toString(): string {
    return `ActionSpec(${this.name})`;
  }
}

/**
 * @internal Builds an action from data the caller just parsed and holds
 * alone (the domain loader's JSON): its conditions, effects, resources and
 * metadata are validated and frozen in place instead of copied, so a
 * million-action domain costs one copy of its data, not two.
 */
export function actionFromOwnedData(raw: ActionSpecOptions): ActionSpec {
  adoptingOwnedData = true;
  try {
    return new ActionSpec(raw);
  } finally {
    adoptingOwnedData = false;
  }
}

/**
 * Checks a list of actions as one domain: names must be unique.
 * Returns the list frozen.
 */
export function validateActions(actions: readonly ActionSpec[]): readonly ActionSpec[] {
  if (!Array.isArray(actions)) {
    throw new LangGoapError("INVALID_ACTION", `expected an array of ActionSpec, got ${describeValue(actions)}`);
  }
  const seen = new Set<string>();
  for (const [i, action] of actions.entries()) checkActionEntry(action, i, seen);
  return Object.freeze([...actions]);
}

/**
 * @internal One entry of {@link validateActions}: an ActionSpec whose name
 * `seen` does not hold yet (added). Lets the planner validate a long list in
 * slices.
 */
export function checkActionEntry(action: unknown, i: number, seen: Set<string>): asserts action is ActionSpec {
  if (!(action instanceof ActionSpec)) {
    throw new LangGoapError(
      "INVALID_ACTION",
      `actions[${i}] is not an ActionSpec (got ${describeValue(action)}); build it with new ActionSpec({...})`,
      {
        index: i,
      },
    );
  }
  if (seen.has(action.name)) {
    throw new LangGoapError("DUPLICATE_ACTION", `duplicate action name "${action.name}"; action names must be unique`, {
      action: action.name,
    });
  }
  seen.add(action.name);
}
