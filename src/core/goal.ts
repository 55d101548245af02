import type { ActionSpec } from "./action.js";
import { type Conditions, normalizeConditions, satisfiesConditions } from "./conditions.js";
import { describeValue, LangGoapError } from "./errors.js";
import type { ConditionsOf } from "./fact-types.js";
import type { WorldState } from "./facts.js";
import { goalObject } from "./goal-object.js";
import { checkOptionKeys, type OptionKeys } from "./option-keys.js";
import { type EntityId, entitiesIn, type PerEntityTemplateOptions, perEntityGoals } from "./per-entity.js";

/** When the graph replans. */
export type ReplanStrategy = "on_deviation" | "every_action" | "never";
/** Direction of an objective. */
export type ObjectiveDirection = "minimize" | "maximize";

/** Options of {@link GoalPolicy}. */
export interface GoalPolicyOptions {
  /** @defaultValue "on_deviation" */
  readonly replanStrategy?: ReplanStrategy;
  /** @defaultValue 0 */
  readonly priority?: number;
  /** Replans allowed per goal; 0 means unlimited. @defaultValue 10 */
  readonly maxReplans?: number;
}

const GOAL_POLICY_OPTIONS_KEYS = {
  replanStrategy: true,
  priority: true,
  maxReplans: true,
} as const satisfies OptionKeys<GoalPolicyOptions>;

/**
 * How a run pursues a goal. A plain object with the same fields is accepted
 * wherever a policy is.
 *
 * @example
 * ```ts
 * new GoalPolicy({ replanStrategy: "never", maxReplans: 0 });
 * ```
 */
export class GoalPolicy {
  readonly replanStrategy: ReplanStrategy;
  readonly priority: number;
  readonly maxReplans: number;

  constructor(options: GoalPolicyOptions = {}) {
    checkOptionKeys(options, GOAL_POLICY_OPTIONS_KEYS, "GoalPolicy (a goal's policy)");
    const strategy = options.replanStrategy ?? "on_deviation";
    if (!["on_deviation", "every_action", "never"].includes(strategy)) {
      throw new LangGoapError(
        "INVALID_GOAL",
        `GoalPolicy.replanStrategy must be "on_deviation", "every_action" or "never", got ${describeValue(strategy)}`,
      );
    }
    const maxReplans = options.maxReplans ?? 10;
    if (!Number.isInteger(maxReplans) || maxReplans < 0) {
      throw new LangGoapError(
        "INVALID_GOAL",
        `GoalPolicy.maxReplans must be an integer >= 0 (0 = unlimited), got ${describeValue(maxReplans)}`,
      );
    }
    const priority = options.priority ?? 0;
    if (typeof priority !== "number" || !Number.isFinite(priority)) {
      throw new LangGoapError("INVALID_GOAL", `GoalPolicy.priority must be a finite number, got ${describeValue(priority)}`);
    }
    this.replanStrategy = strategy;
    this.priority = priority;
    this.maxReplans = maxReplans;
    Object.freeze(this);
  }
}

/** Which actions a constraint or objective sums over. */
export type ActionFilter = (action: ActionSpec) => boolean;

/** Options of {@link ConstraintSpec}. */
export interface ConstraintSpecOptions {
  /** The resource key summed over the plan's actions. */
  readonly key: string;
  readonly max?: number;
  readonly min?: number;
  /** Penalty per unit of violation. @defaultValue 1 */
  readonly weight?: number;
  /** Hard constraints make a plan infeasible; soft ones cost penalty. @defaultValue "hard" */
  readonly level?: "hard" | "soft";
  /** Label for explanations. @defaultValue the key */
  readonly name?: string;
  /** Sum only over actions this accepts. */
  readonly where?: ActionFilter;
}

const CONSTRAINT_SPEC_OPTIONS_KEYS = {
  key: true,
  max: true,
  min: true,
  weight: true,
  level: true,
  name: true,
  where: true,
} as const satisfies OptionKeys<ConstraintSpecOptions>;

/**
 * A bound on a resource summed over a plan, e.g. `usd <= 5`.
 *
 * @example
 * ```ts
 * new ConstraintSpec({ key: "usd", max: 5 });                        // hard budget
 * new ConstraintSpec({ key: "minutes", max: 30, level: "soft", weight: 2 });
 * ```
 */
export class ConstraintSpec {
  readonly key: string;
  readonly max: number | undefined;
  readonly min: number | undefined;
  readonly weight: number;
  readonly level: "hard" | "soft";
  readonly name: string;
  readonly where: ActionFilter | undefined;

  constructor(options: ConstraintSpecOptions) {
    checkOptionKeys(options, CONSTRAINT_SPEC_OPTIONS_KEYS, "ConstraintSpec (a goal's constraint)");
    const { key } = options;
    if (typeof key !== "string" || key === "") {
      throw new LangGoapError("INVALID_GOAL", `ConstraintSpec.key must be a non-empty string, got ${describeValue(key)}`);
    }
    const where = `constraint on "${key}"`;
    for (const bound of ["max", "min"] as const) {
      const v = options[bound];
      if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v))) {
        throw new LangGoapError("INVALID_GOAL", `${where}: ${bound} must be a finite number, got ${describeValue(v)}`, { key });
      }
    }
    if (options.max === undefined && options.min === undefined) {
      throw new LangGoapError("INVALID_GOAL", `${where}: give max, min or both`, { key });
    }
    if (options.max !== undefined && options.min !== undefined && options.min > options.max) {
      throw new LangGoapError("INVALID_GOAL", `${where}: min (${options.min}) is greater than max (${options.max})`, { key });
    }
    const weight = options.weight ?? 1;
    if (typeof weight !== "number" || !Number.isFinite(weight) || weight < 0) {
      throw new LangGoapError("INVALID_GOAL", `${where}: weight must be a finite number >= 0, got ${describeValue(weight)}`, { key });
    }
    const level = options.level ?? "hard";
    if (level !== "hard" && level !== "soft") {
      throw new LangGoapError("INVALID_GOAL", `${where}: level must be "hard" or "soft", got ${describeValue(level)}`, { key });
    }
    if (options.where !== undefined && typeof options.where !== "function") {
      throw new LangGoapError("INVALID_GOAL", `${where}: where must be a function of the action`, { key });
    }
    this.key = key;
    this.max = options.max;
    this.min = options.min;
    this.weight = weight;
    this.level = level;
    this.name = options.name ?? key;
    this.where = options.where;
    Object.freeze(this);
  }

  /** Penalty for a plan whose summed resource is `total` (0 when within bounds). */
  violation(total: number): number {
    if (this.max !== undefined && total > this.max) return total - this.max;
    if (this.min !== undefined && total < this.min) return this.min - total;
    return 0;
  }
}

/** An objective over a summed resource (or `"cost"` for total plan cost), or over a quality metric. */
export interface ObjectiveSpec {
  /** The resource summed (with a `metric`: the objective's label). */
  readonly key: string;
  readonly direction: ObjectiveDirection;
  /** Weight among objectives, used to break ties. @defaultValue 1 */
  readonly weight?: number;
  /** Label. @defaultValue the key */
  readonly name?: string;
  /** Sum only over actions this accepts. */
  readonly where?: ActionFilter;
  /** Measure the plan with this metric instead of summing `key` (e.g. `riskMetric(model)`); `where` does not apply. */
  readonly metric?: PlanQualityMetric;
}

/** Options of {@link SoftGoal}; `S` types the conditions (the default is the untyped world). */
export interface SoftGoalOptions<S extends WorldState = WorldState> {
  readonly conditions: ConditionsOf<S>;
  /** Reward when the plan's final state satisfies the conditions. @defaultValue 1 */
  readonly weight?: number;
  readonly name?: string;
}

const SOFT_GOAL_OPTIONS_KEYS = { conditions: true, weight: true, name: true } as const satisfies OptionKeys<SoftGoalOptions>;

/** A preference: conditions worth `weight` when a plan happens to achieve them. */
export class SoftGoal {
  readonly conditions: Conditions;
  readonly weight: number;
  readonly name: string;

  constructor(options: SoftGoalOptions) {
    checkOptionKeys(options, SOFT_GOAL_OPTIONS_KEYS, "SoftGoal (a goal's soft goal)");
    this.conditions = normalizeConditions(options.conditions, "soft goal conditions");
    const weight = options.weight ?? 1;
    if (typeof weight !== "number" || !Number.isFinite(weight) || weight < 0) {
      throw new LangGoapError("INVALID_GOAL", `SoftGoal.weight must be a finite number >= 0, got ${describeValue(weight)}`);
    }
    this.weight = weight;
    this.name = options.name ?? JSON.stringify(this.conditions);
    Object.freeze(this);
  }
}

/** A plan as quality metrics see it. */
export interface PlanTrajectory {
  readonly actions: readonly ActionSpec[];
  readonly expectedStates: readonly WorldState[];
  readonly totalCost: number;
  /** The state the first action starts from, when known. */
  readonly startState?: WorldState | undefined;
}

/** A trajectory metric, minimised: contributes `-weight * evaluate(plan)` to the soft score. */
export interface PlanQualityMetric {
  readonly name: string;
  readonly weight: number;
  evaluate(plan: PlanTrajectory): number;
}

/** Value of reaching a goal: a number or a function of the plan's final state. */
export type GoalValue<S extends WorldState = WorldState> = number | ((finalState: Readonly<S>) => number);

/**
 * Options of {@link GoalSpec}. With a typed world `S` (see `defineDomain`)
 * the conditions, soft goals and value function are checked against it;
 * the default is the untyped world.
 */
export interface GoalSpecOptions<S extends WorldState = WorldState> {
  readonly conditions?: ConditionsOf<S>;
  readonly policy?: GoalPolicy | GoalPolicyOptions;
  /** Objectives in priority order; a record form `{ usd: "minimize" }` is accepted too. */
  readonly objectives?: readonly ObjectiveSpec[] | Readonly<Record<string, ObjectiveDirection>>;
  readonly constraints?: readonly (ConstraintSpec | ConstraintSpecOptions)[];
  readonly softGoals?: readonly (SoftGoal | SoftGoalOptions<S>)[];
  readonly metrics?: readonly PlanQualityMetric[];
  /** Worth of achieving the goal (for best-value selection). @defaultValue 1 */
  readonly value?: GoalValue<S>;
  readonly name?: string;
}

const GOAL_SPEC_OPTIONS_KEYS = {
  conditions: true,
  policy: true,
  objectives: true,
  constraints: true,
  softGoals: true,
  metrics: true,
  value: true,
  name: true,
} as const satisfies OptionKeys<GoalSpecOptions>;

/**
 * What the agent wants: conditions to reach, how to pursue them, and the
 * budgets and preferences a plan is judged by.
 *
 * @example
 * ```ts
 * const goal = new GoalSpec({
 *   conditions: { house: { gte: 1 } },
 *   constraints: [{ key: "usd", max: 10 }],
 *   objectives: [{ key: "minutes", direction: "minimize" }],
 * });
 * ```
 *
 * `S` types the world the goal is judged in: a domain's `goal()` (see
 * `defineDomain`) checks the options against its facts and returns a
 * `GoalSpec<S>`. The runtime object is the same either way.
 */
export class GoalSpec<S extends WorldState = WorldState> {
  readonly conditions: Conditions;
  readonly policy: GoalPolicy;
  readonly objectives: readonly ObjectiveSpec[];
  readonly constraints: readonly ConstraintSpec[];
  readonly softGoals: readonly SoftGoal[];
  readonly metrics: readonly PlanQualityMetric[];
  readonly value: GoalValue;
  readonly name: string | undefined;

  /** Untyped on purpose, as `ActionSpec`'s: typed goals come from a domain's `goal()`. */
  constructor(options: GoalSpecOptions = {}) {
    checkOptionKeys(
      options,
      GOAL_SPEC_OPTIONS_KEYS,
      "new GoalSpec()",
      "Conditions go under conditions: new GoalSpec({ conditions: { ... } })",
    );
    if (typeof options !== "object" || options === null) {
      throw new LangGoapError("INVALID_GOAL", `GoalSpec: expected an options object, got ${describeValue(options)}`);
    }
    this.conditions = normalizeConditions(options.conditions, "goal conditions");
    this.policy = options.policy instanceof GoalPolicy ? options.policy : new GoalPolicy(options.policy ?? {});
    this.objectives = Object.freeze(normalizeObjectives(options.objectives));
    this.constraints = Object.freeze((options.constraints ?? []).map((c) => (c instanceof ConstraintSpec ? c : new ConstraintSpec(c))));
    this.softGoals = Object.freeze((options.softGoals ?? []).map((g) => (g instanceof SoftGoal ? g : new SoftGoal(g))));
    for (const m of options.metrics ?? []) {
      if (typeof m?.evaluate !== "function" || typeof m.name !== "string") {
        throw new LangGoapError(
          "INVALID_GOAL",
          `GoalSpec.metrics: each metric needs a name and an evaluate(plan) function, got ${describeValue(m)}`,
        );
      }
    }
    this.metrics = Object.freeze([...(options.metrics ?? [])]);
    const value = options.value ?? 1;
    if (typeof value !== "function" && (typeof value !== "number" || !Number.isFinite(value))) {
      throw new LangGoapError("INVALID_GOAL", `GoalSpec.value must be a finite number or a function, got ${describeValue(value)}`);
    }
    this.value = value;
    this.name = options.name;
    Object.freeze(this);
  }

  /** True when the goal holds in `state`. */
  isSatisfied(state: Readonly<S>): boolean {
    return satisfiesConditions(state, this.conditions);
  }

  /** True when plans must be refined by the optimizer (constraints, objectives, metrics or soft goals). */
  get needsOptimization(): boolean {
    return this.constraints.length > 0 || this.objectives.length > 0 || this.metrics.length > 0 || this.softGoals.length > 0;
  }

  /** The goal's value for a plan ending in `finalState`. */
  resolveValue(finalState: Readonly<S>): number {
    const v = typeof this.value === "function" ? this.value(finalState) : this.value;
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new LangGoapError("INVALID_GOAL", `goal value function returned ${describeValue(v)}; expected a finite number`);
    }
    return v;
  }

  /** A copy with some options replaced. */
  with(patch: GoalSpecOptions): GoalSpec<S> {
    // Not checked against `S`, as `ActionSpec.with`: a typed goal stays a `GoalSpec` in generic code.
    return new GoalSpec<S>({ ...this.toOptions(), ...patch });
  }

  /** The options that rebuild this goal (subclasses use it in their own `with`). */
  toOptions(): GoalSpecOptions {
    return {
      conditions: this.conditions,
      policy: this.policy,
      objectives: this.objectives,
      constraints: this.constraints,
      softGoals: this.softGoals,
      metrics: this.metrics,
      value: this.value,
      ...(this.name !== undefined ? { name: this.name } : {}),
    };
  }

  /** A readable label: the name, or the conditions as JSON. */
  get label(): string {
    return this.name ?? JSON.stringify(this.conditions);
  }

  toJSON(): Record<string, unknown> {
    return {
      ...(this.name !== undefined ? { name: this.name } : {}),
      conditions: this.conditions,
      policy: { ...this.policy },
      ...(this.objectives.length
        ? { objectives: this.objectives.map(({ where: _w, metric, ...o }) => ({ ...o, ...(metric ? { metric: metric.name } : {}) })) }
        : {}),
      ...(this.constraints.length ? { constraints: this.constraints.map(({ where: _w, ...c }) => c) } : {}),
      ...(this.softGoals.length ? { softGoals: this.softGoals.map((g) => ({ ...g })) } : {}),
      ...(typeof this.value === "number" && this.value !== 1 ? { value: this.value } : {}),
    };
  }
}

function normalizeObjectives(raw: GoalSpecOptions["objectives"]): ObjectiveSpec[] {
  if (raw === undefined) return [];
  const list: ObjectiveSpec[] = Array.isArray(raw)
    ? [...(raw as readonly ObjectiveSpec[])]
    : Object.entries(raw as Record<string, ObjectiveDirection>).map(([key, direction]) => ({ key, direction }));
  const seen = new Set<string>();
  return list.map((o) => {
    if (typeof o?.key !== "string" || o.key === "") {
      throw new LangGoapError("INVALID_GOAL", `objective key must be a non-empty string, got ${describeValue(o?.key)}`);
    }
    if (o.direction !== "minimize" && o.direction !== "maximize") {
      throw new LangGoapError(
        "INVALID_GOAL",
        `objective "${o.key}": direction must be "minimize" or "maximize", got ${describeValue(o.direction)}`,
      );
    }
    const weight = o.weight ?? 1;
    if (typeof weight !== "number" || !Number.isFinite(weight) || weight < 0) {
      throw new LangGoapError("INVALID_GOAL", `objective "${o.key}": weight must be a finite number >= 0, got ${describeValue(weight)}`);
    }
    if (o.metric !== undefined && (typeof o.metric?.evaluate !== "function" || typeof o.metric.name !== "string")) {
      throw new LangGoapError(
        "INVALID_GOAL",
        `objective "${o.key}": metric needs a name and an evaluate(plan) function, got ${describeValue(o.metric)}`,
      );
    }
    if (o.metric !== undefined && o.where !== undefined) {
      throw new LangGoapError(
        "INVALID_GOAL",
        `objective "${o.key}": a where filter cannot apply to a metric (the metric sees the whole plan)`,
      );
    }
    const name = o.name ?? o.key;
    if (seen.has(name)) throw new LangGoapError("INVALID_GOAL", `duplicate objective "${name}"`);
    seen.add(name);
    return Object.freeze({ ...o, weight, name });
  });
}

/**
 * A goal given as an object, as a typed domain's `goal()` takes it: its
 * conditions and, optionally, a name. A goal with more options (a policy,
 * constraints, objectives...) is a {@link GoalSpec}.
 */
export interface GoalObject<S extends WorldState = WorldState> {
  readonly conditions: ConditionsOf<S>;
  readonly name?: string;
}

/**
 * A goal as `plan()`, `invoke()` and every other taker of goals accept it:
 * a {@link GoalSpec}, bare conditions (`{ wood: { gte: 3 } }`), or a goal
 * object (`{ conditions: { wood: { gte: 3 } }, name: "stock" }`; an object
 * with its own `conditions` entry is read as one). `S` types the
 * conditions (the default is the untyped world).
 */
export type GoalLike<S extends WorldState = WorldState> = GoalSpec<S> | ConditionsOf<S> | GoalObject<S>;

/** Turns bare conditions or a goal object into a {@link GoalSpec}; a GoalSpec passes through. */
export function toGoalSpec(goal: GoalLike): GoalSpec {
  if (goal instanceof GoalSpec) return goal;
  if (typeof goal !== "object" || goal === null || Array.isArray(goal)) {
    throw new LangGoapError("INVALID_GOAL", `expected a GoalSpec or an object of conditions, got ${describeValue(goal)}`);
  }
  if (goal instanceof MultiGoal) {
    throw new LangGoapError("INVALID_GOAL", "a MultiGoal cannot be planned directly; plan each of its goals, or run it in a GoapGraph");
  }
  const object = goalObject(goal, "the goal");
  return object ? new GoalSpec(object as GoalSpecOptions) : new GoalSpec({ conditions: goal as Conditions });
}

/** Options of {@link MultiGoal.perEntity}: placeholder, shared goal options, value per entity, name. */
export type PerEntityOptions = PerEntityTemplateOptions<Omit<GoalSpecOptions, "conditions" | "name" | "value">, GoalValue>;

const PER_ENTITY_OPTIONS_KEYS = { placeholder: true, goal: true, value: true, name: true } as const satisfies OptionKeys<PerEntityOptions>;

/** How a {@link MultiGoal} combines its goals. */
export type MultiGoalMode = "sequential" | "any" | "best_value";

/** Options of {@link MultiGoal}. */
export interface MultiGoalOptions {
  readonly goals: readonly GoalLike[];
  /** @defaultValue "sequential" */
  readonly mode?: MultiGoalMode;
  readonly name?: string;
}

const MULTI_GOAL_OPTIONS_KEYS = { goals: true, mode: true, name: true } as const satisfies OptionKeys<MultiGoalOptions>;

/**
 * Several goals: reached one after another (`sequential`), the cheapest one
 * (`any`), or the one with the best value minus cost (`best_value`).
 *
 * @example
 * ```ts
 * new MultiGoal({ goals: [{ drafted: true }, { published: true }], mode: "sequential" });
 * ```
 */
export class MultiGoal {
  readonly goals: readonly GoalSpec[];
  readonly mode: MultiGoalMode;
  readonly name: string | undefined;

  constructor(options: MultiGoalOptions) {
    checkOptionKeys(options, MULTI_GOAL_OPTIONS_KEYS, "new MultiGoal()");
    if (!Array.isArray(options?.goals) || options.goals.length === 0) {
      throw new LangGoapError("INVALID_GOAL", "MultiGoal.goals must be a non-empty array");
    }
    const mode = options.mode ?? "sequential";
    if (!["sequential", "any", "best_value"].includes(mode)) {
      throw new LangGoapError("INVALID_GOAL", `MultiGoal.mode must be "sequential", "any" or "best_value", got ${describeValue(mode)}`);
    }
    this.goals = Object.freeze(
      options.goals.map((g, i) => {
        if (g instanceof MultiGoal) {
          throw new LangGoapError("INVALID_GOAL", `MultiGoal.goals[${i}] is a MultiGoal; nested MultiGoals are not supported`);
        }
        return toGoalSpec(g);
      }),
    );
    this.mode = mode;
    this.name = options.name;
    Object.freeze(this);
  }

  /**
   * One subgoal per entity: `template`'s placeholder (`{entity}`) replaced
   * by each id in keys and string values, combined with `mode` (every
   * entity in turn, the cheapest, or the best value). `entities` is a list
   * of ids, or `{ state, key }` to read them from a world-state collection
   * (an array of ids, or an object keyed by id).
   *
   * @example
   * ```ts
   * // Close every open ticket, one after another.
   * MultiGoal.perEntity({ state, key: "open_tickets" }, { "ticket_{entity}_closed": true }, "sequential");
   * // The ticket worth the most for its cost.
   * MultiGoal.perEntity(["T1", "T2"], { "ticket_{entity}_closed": true }, "best_value", { value: { T1: 5, T2: 8 } });
   * ```
   */
  static perEntity(
    entities: readonly EntityId[] | { readonly state: Readonly<WorldState>; readonly key: string },
    template: Conditions,
    mode: MultiGoalMode = "sequential",
    options: PerEntityOptions = {},
  ): MultiGoal {
    checkOptionKeys(options, PER_ENTITY_OPTIONS_KEYS, "MultiGoal.perEntity()");
    const ids = Array.isArray(entities)
      ? entities
      : entitiesIn((entities as { state: WorldState }).state, (entities as { key: string }).key);
    const goals = perEntityGoals(ids, template, options).map((goal) => new GoalSpec(goal));
    return new MultiGoal({ goals, mode, ...(options.name ? { name: options.name } : {}) });
  }

  toJSON(): Record<string, unknown> {
    return { mode: this.mode, goals: this.goals.map((g) => g.toJSON()), ...(this.name ? { name: this.name } : {}) };
  }
}
