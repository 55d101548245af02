import {
  ActionSpec,
  type ActionSpecOptions,
  type Conditions,
  type ConditionsOf,
  compileFacts,
  type FactCatalog,
  type FactsDefinition,
  type FactsOf,
  type GoalLike,
  GoalSpec,
  type GoalSpecOptions,
  LangGoapError,
  MultiGoal,
  type MultiGoalMode,
  type WorldState,
} from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { type Plan, type PlanDetailedResult, type PlanOptions, plan, planAsync, planDetailed } from "../planner/index.js";
import { GoapGraph } from "./goap-graph.js";
import type { GoapGraphOptions } from "./graph-options.js";

/** A {@link Plan} over a typed world: its actions and states carry `S`. The object is an ordinary `Plan`. */
export type TypedPlan<S extends WorldState> = Plan & {
  readonly actions: readonly ActionSpec<S>[];
  readonly startState: S | undefined;
  readonly expectedStates: readonly S[];
  readonly finalState: S;
};

/** Options of a typed {@link MultiGoal}: its goals are checked against the domain's facts. */
export interface TypedMultiGoalOptions<S extends WorldState> {
  readonly goals: readonly GoalLike<S>[];
  /** @defaultValue "sequential" */
  readonly mode?: MultiGoalMode;
  readonly name?: string;
}

/**
 * A typed builder over one definition of the facts (see {@link defineDomain}).
 * Everything it makes is the ordinary runtime object (`ActionSpec`,
 * `GoalSpec`, `GoapGraph`), typed by the facts at compile time only.
 */
export interface TypedDomain<S extends WorldState> {
  /** The facts as a catalog, for `validateDomain` and goal interpreters (`GoalInterpreter`'s `facts`). */
  readonly catalog: FactCatalog;
  /** An action whose preconditions, effects, `effectKeys`, cost and `execute` are checked against the facts. */
  action(options: ActionSpecOptions<S>): ActionSpec<S>;
  /**
   * A goal whose conditions, soft goals and value are checked against the
   * facts: goal options (`{ conditions, policy, ... }`), or bare conditions
   * as `plan()` and `invoke()` take them (`d.goal({ wood: { gte: 4 } })`).
   * An object with a `conditions` entry, or whose keys are all goal options
   * and none a fact of the domain, is options.
   */
  goal(options: GoalSpecOptions<S> | ConditionsOf<S>): GoalSpec<S>;
  /** Several goals (each checked against the facts) reached in turn, the cheapest, or the best value. */
  multiGoal(options: TypedMultiGoalOptions<S>): MultiGoal;
  /**
   * Checks a world state against the facts at run time (zod's parse, or the
   * declared types) and returns it typed: keys the facts do not name are
   * kept, a zod schema's defaults are filled in. A wrong or missing fact is
   * a `LangGoapError` `INVALID_STATE` naming it.
   */
  state(value: unknown): S;
  /** {@link plan} typed by the facts. */
  plan(start: Readonly<S>, goal: GoalLike<S>, actions: readonly ActionSpec<S>[], options?: PlanOptions): TypedPlan<S> | null;
  /** {@link planAsync} (planning without blocking the event loop) typed by the facts. */
  planAsync(start: Readonly<S>, goal: GoalLike<S>, actions: readonly ActionSpec<S>[], options?: PlanOptions): Promise<TypedPlan<S> | null>;
  /** {@link planDetailed} typed by the facts. */
  planDetailed(
    start: Readonly<S>,
    goal: GoalLike<S>,
    actions: readonly ActionSpec<S>[],
    options?: PlanOptions,
  ): Omit<PlanDetailedResult, "plan"> & { readonly plan: TypedPlan<S> | null };
  /** A {@link GoapGraph} typed by the facts: its goals, world states and results' `worldState`. */
  graph(actions: readonly ActionSpec<S>[], options?: GoapGraphOptions): GoapGraph<S>;
}

/** The keys of goal options that are not conditions. */
const GOAL_OPTION_NAMES = new Set(["policy", "objectives", "constraints", "softGoals", "metrics", "value", "name"]);

/**
 * A typed domain's goal argument as `GoalSpec` options: options as they
 * are (an object with `conditions`, or whose keys are all goal options
 * none of which is a fact), else bare conditions. Keys of both kinds
 * together are refused as ambiguous.
 */
function goalOptions(spec: unknown, facts: FactCatalog): GoalSpecOptions {
  if (typeof spec !== "object" || spec === null || Array.isArray(spec) || Object.hasOwn(spec, "conditions")) {
    return spec as GoalSpecOptions;
  }
  const keys = Object.keys(spec);
  const options = keys.filter((key) => GOAL_OPTION_NAMES.has(key) && !Object.hasOwn(facts, key));
  if (options.length === 0) return { conditions: spec as Conditions };
  if (options.length === keys.length) return spec as GoalSpecOptions;
  const others = keys.filter((key) => !options.includes(key));
  throw new LangGoapError(
    "INVALID_GOAL",
    `goal(): ${options.join(", ")} ${options.length === 1 ? "is a goal option" : "are goal options"} but ${others.join(", ")} ` +
      `${others.length === 1 ? "is not" : "are not"}; give the conditions under "conditions": goal({ conditions: { ${others[0]}: ... }, ${options[0]}: ... })`,
    { options, conditions: others },
  );
}

/** Options of {@link defineDomain}. */
export interface DefineDomainOptions<D extends FactsDefinition> {
  /** The facts, once: a zod object, or a record of fact → `"boolean"` | `"number"` | `"string"` (or a `FactSpec`). */
  readonly facts: D;
}

const DEFINE_DOMAIN_OPTIONS_KEYS = { facts: true } as const satisfies OptionKeys<DefineDomainOptions<FactsDefinition>>;

/**
 * Defines the facts of a domain once and returns a builder typed by them,
 * in the style of XState's `setup({ types })`: fact names and value types
 * are checked at compile time (with autocompletion) in preconditions,
 * effects (`inc`/`dec` only on numbers), goals, start states and the
 * updates `execute` returns, and plans and graph results carry the type.
 * At run time the builder makes the ordinary objects: typed and untyped
 * code plan the same.
 *
 * @example
 * ```ts
 * const d = defineDomain({ facts: z.object({ has_axe: z.boolean(), wood: z.number() }) });
 * const chop = d.action({
 *   name: "chop",
 *   preconditions: { has_axe: true },
 *   effects: { wood: { inc: 2 } },
 *   cost: 2,
 *   execute: async (s) => ({ wood: s.wood + 2 }),
 * });
 * d.plan({ has_axe: true, wood: 0 }, { wood: { gte: 4 } }, [chop])?.actionNames; // ["chop", "chop"]
 * const result = await d.graph([chop]).invoke({ wood: { gte: 4 } }, { has_axe: true, wood: 0 });
 * result.worldState.wood; // 4, typed number
 * ```
 */
export function defineDomain<const D extends FactsDefinition>(options: DefineDomainOptions<D>): TypedDomain<FactsOf<D>> {
  checkOptionKeys(options, DEFINE_DOMAIN_OPTIONS_KEYS, "defineDomain()");
  const facts = compileFacts(options?.facts);
  const domain: TypedDomain<WorldState> = {
    catalog: facts.catalog,
    action: (spec) => new ActionSpec(spec),
    goal: (spec) => new GoalSpec(goalOptions(spec, facts.catalog)),
    multiGoal: (spec) => new MultiGoal(spec),
    state: (value) => facts.check(value, "defineDomain state"),
    plan: (start, goal, actions, planOptions) => plan(start, goal, actions, planOptions),
    planAsync: (start, goal, actions, planOptions) => planAsync(start, goal, actions, planOptions),
    planDetailed: (start, goal, actions, planOptions) => planDetailed(start, goal, actions, planOptions),
    graph: (actions, graphOptions) => new GoapGraph(actions, graphOptions),
  };
  // The builder is the untyped one; the facts' type is attached for the compiler only.
  return Object.freeze(domain) as unknown as TypedDomain<FactsOf<D>>;
}
