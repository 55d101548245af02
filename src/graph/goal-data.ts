import {
  type ConditionsOf,
  type GoalLike,
  type GoalObject,
  GoalSpec,
  LangGoapError,
  MultiGoal,
  type MultiGoalMode,
  toGoalSpec,
  type WorldState,
} from "../core/index.js";
import { stableJson, toJsonValue } from "./json.js";

/** A single goal as graph state keeps it: plain JSON plus the names of parts that were functions. */
export interface GoalSpecData {
  readonly kind: "GoalSpec";
  /** `GoalSpec.toJSON()`: conditions, policy, objectives, constraints, soft goals, numeric value, name. */
  readonly spec: Readonly<Record<string, unknown>>;
  /** Parts that were functions and are not in `spec` (e.g. `value`, `metrics`, `constraints[0].where`). */
  readonly dynamic: readonly string[];
}

/** A {@link MultiGoal} as graph state keeps it. */
export interface MultiGoalData {
  readonly kind: "MultiGoal";
  readonly mode: MultiGoalMode;
  readonly name?: string;
  readonly goals: readonly GoalSpecData[];
}

/** A goal in graph state: checkpoint-safe JSON, re-bound to live objects by {@link GoalRegistry}. */
export type GoalData = GoalSpecData | MultiGoalData;

/**
 * What the `goal` channel accepts: a goal (`GoalSpec`, `MultiGoal`), bare
 * conditions, a goal object `{ conditions, name? }`, or goal data from a
 * checkpoint. `S` types the conditions (see `defineDomain`);
 * the default is the untyped world.
 */
export type GoalInput<S extends WorldState = WorldState> = GoalSpec<S> | MultiGoal | ConditionsOf<S> | GoalObject<S> | GoalData;

/** True for values shaped like {@link GoalData}. */
export function isGoalData(value: unknown): value is GoalData {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  if (v.kind === "GoalSpec") return typeof v.spec === "object" && v.spec !== null && Array.isArray(v.dynamic);
  if (v.kind === "MultiGoal") return typeof v.mode === "string" && Array.isArray(v.goals);
  return false;
}

function specData(goal: GoalSpec): GoalSpecData {
  const dynamic: string[] = [];
  if (typeof goal.value === "function") dynamic.push("value");
  if (goal.metrics.length > 0) dynamic.push("metrics");
  goal.constraints.forEach((c, i) => {
    if (c.where) dynamic.push(`constraints[${i}].where`);
  });
  goal.objectives.forEach((o, i) => {
    if (o.where) dynamic.push(`objectives[${i}].where`);
  });
  return { kind: "GoalSpec", spec: toJsonValue(goal.toJSON()), dynamic };
}

/** The checkpoint-safe form of a goal (no registry involved). */
export function goalToData(goal: GoalSpec | MultiGoal): GoalData {
  if (goal instanceof MultiGoal) {
    return { kind: "MultiGoal", mode: goal.mode, ...(goal.name ? { name: goal.name } : {}), goals: goal.goals.map(specData) };
  }
  return specData(goal);
}

const REGISTRY_CAPACITY = 512;

/**
 * Turns goals into checkpoint-safe {@link GoalData} and back. Goals seen by
 * this registry (or pinned at construction) come back as the very objects
 * given, functions included; others are rebuilt from their JSON, and a goal
 * whose functions were lost is an error that says how to re-bind it.
 *
 * @example
 * ```ts
 * const registry = new GoalRegistry();
 * const data = registry.toData(new GoalSpec({ conditions: { done: true } }));
 * registry.restore(data).conditions; // { done: true }
 * ```
 */
export class GoalRegistry {
  readonly #live = new Map<string, GoalSpec | MultiGoal>();
  readonly #pinned = new Set<string>();
  /**
   * The last answer of `restore` by data object, valid while no goal was
   * stored since (`#generation`): every node of every step restores the
   * run's one goal object, and hashing it each time was most of the cost.
   */
  readonly #restored = new WeakMap<GoalData, { readonly live: GoalSpec | MultiGoal; readonly generation: number }>();
  #generation = 0;

  /** @param pinned goals with function parts that runs restored from checkpoints may carry. */
  constructor(pinned: readonly (GoalSpec | MultiGoal)[] = []) {
    for (const goal of pinned) {
      if (!(goal instanceof GoalSpec) && !(goal instanceof MultiGoal)) {
        throw new LangGoapError("INVALID_OPTION", "GoapGraph option goals: each entry must be a GoalSpec or a MultiGoal");
      }
      this.#pinned.add(this.#remember(goal));
    }
  }

  /** The data for `goal`, remembering the live object. */
  toData(goal: GoalInput): GoalData {
    if (isGoalData(goal)) {
      this.restore(goal); // validates now rather than deep inside a node
      return goal;
    }
    const live = goal instanceof GoalSpec || goal instanceof MultiGoal ? goal : toGoalSpec(goal as GoalLike);
    const data = goalToData(live);
    this.#store(stableJson(data), live);
    return data;
  }

  /** The live goal for `data`: the remembered object, or one rebuilt from JSON. */
  restore(data: GoalData): GoalSpec | MultiGoal {
    const known = this.#restored.get(data);
    if (known && known.generation === this.#generation) return known.live;
    const key = stableJson(data);
    let live = this.#live.get(key);
    if (!live) {
      live = data.kind === "MultiGoal" ? this.#rebuildMulti(data) : this.#rebuildSpec(data);
      this.#store(key, live);
    }
    this.#restored.set(data, { live, generation: this.#generation });
    return live;
  }

  #remember(goal: GoalSpec | MultiGoal): string {
    const key = stableJson(goalToData(goal));
    this.#store(key, goal);
    return key;
  }

  #store(key: string, goal: GoalSpec | MultiGoal): void {
    this.#generation++;
    this.#live.delete(key);
    this.#live.set(key, goal);
    if (this.#live.size <= REGISTRY_CAPACITY) return;
    for (const oldest of this.#live.keys()) {
      if (this.#pinned.has(oldest)) continue;
      this.#live.delete(oldest);
      break;
    }
  }

  #rebuildSpec(data: GoalSpecData): GoalSpec {
    if (data.dynamic.length > 0) {
      const label = typeof data.spec.name === "string" ? data.spec.name : JSON.stringify(data.spec.conditions);
      throw new LangGoapError(
        "INVALID_STATE",
        `goal ${label} comes from a checkpoint but its ${data.dynamic.join(", ")} ${data.dynamic.length > 1 ? "were functions" : "was a function"}, ` +
          "which checkpoints cannot hold; pass the goal to new GoapGraph(actions, { goals: [goal] }) so it can be re-bound",
        { goal: data.spec, dynamic: data.dynamic },
      );
    }
    return new GoalSpec(data.spec as ConstructorParameters<typeof GoalSpec>[0]);
  }

  #rebuildMulti(data: MultiGoalData): MultiGoal {
    return new MultiGoal({
      goals: data.goals.map((g) => this.#rebuildSpec(g)),
      mode: data.mode,
      ...(data.name ? { name: data.name } : {}),
    });
  }
}
