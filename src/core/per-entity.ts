import type { Condition, Conditions } from "./conditions.js";
import { describeValue, LangGoapError } from "./errors.js";
import type { WorldState } from "./facts.js";

/** An entity's id as it appears in fact names: a string or an integer. */
export type EntityId = string | number;

/**
 * Options of `MultiGoal.perEntity` over goal options `G` and a goal value
 * `V`: `goal.ts` fills them in as `PerEntityOptions`, so this file needs
 * nothing from it (no import cycle).
 */
export interface PerEntityTemplateOptions<G extends object, V> {
  /** The text replaced by each entity's id in keys and string values. @defaultValue "{entity}" */
  readonly placeholder?: string;
  /** Everything a subgoal has besides its conditions (policy, constraints, ...), shared by all. */
  readonly goal?: G;
  /** Each entity's worth (for `best_value`): one value for all, or a record by entity id (missing ids get 1). @defaultValue 1 */
  readonly value?: V | Readonly<Record<string, V>>;
  /** Names subgoals `${name}[${id}]`. @defaultValue "per-entity" */
  readonly name?: string;
}

const ID = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * The entity ids a world-state collection holds: an array of ids, or an
 * object whose own keys are the ids (`{ T1: {...}, T2: {...} }`).
 */
export function entitiesIn(state: Readonly<WorldState>, key: string): EntityId[] {
  const collection = Object.hasOwn(state, key) ? state[key] : undefined;
  if (Array.isArray(collection)) return collection as EntityId[];
  if (typeof collection === "object" && collection !== null) return Object.keys(collection);
  throw new LangGoapError(
    "INVALID_GOAL",
    `MultiGoal.perEntity: world-state key "${key}" must hold an array of entity ids or an object keyed by id, got ${describeValue(collection)}`,
    { key },
  );
}

function fill(template: string, placeholder: string, id: string): string {
  return template.split(placeholder).join(id);
}

/** @internal One subgoal's options per entity, the template's placeholder replaced by the entity's id. */
export function perEntityGoals<G extends object, V>(
  entities: readonly EntityId[],
  template: Conditions,
  options: PerEntityTemplateOptions<G, V> = {},
): (Partial<G> & { conditions: Record<string, Condition>; name: string; value?: V })[] {
  const placeholder = options.placeholder ?? "{entity}";
  if (typeof placeholder !== "string" || placeholder === "") {
    throw new LangGoapError(
      "INVALID_GOAL",
      `MultiGoal.perEntity: placeholder must be a non-empty string, got ${describeValue(placeholder)}`,
    );
  }
  if (!Array.isArray(entities) || entities.length === 0) {
    throw new LangGoapError(
      "INVALID_GOAL",
      `MultiGoal.perEntity: expected a non-empty array of entity ids, got ${describeValue(entities)}`,
    );
  }
  const seen = new Set<string>();
  const ids = entities.map((entity, i) => {
    const id = typeof entity === "number" && Number.isInteger(entity) ? String(entity) : entity;
    if (typeof id !== "string" || !ID.test(id)) {
      throw new LangGoapError(
        "INVALID_GOAL",
        `MultiGoal.perEntity: entity ids must be integers or 1-64 letters, digits and _ . : -, got ${describeValue(entity)} at index ${i}`,
        { index: i },
      );
    }
    if (seen.has(id)) throw new LangGoapError("INVALID_GOAL", `MultiGoal.perEntity: entity "${id}" appears twice`, { entity: id });
    seen.add(id);
    return id;
  });
  if (typeof template !== "object" || template === null || Array.isArray(template)) {
    throw new LangGoapError(
      "INVALID_GOAL",
      `MultiGoal.perEntity: the template must be an object of conditions, got ${describeValue(template)}`,
    );
  }
  const entries = Object.entries(template);
  const mentions = entries.some(([key, condition]) => key.includes(placeholder) || JSON.stringify(condition).includes(placeholder));
  if (!mentions) {
    throw new LangGoapError(
      "INVALID_GOAL",
      `MultiGoal.perEntity: the template ${describeValue(template)} never mentions "${placeholder}", so every entity would get the same goal`,
    );
  }
  const name = options.name ?? "per-entity";
  const shared: Partial<G> = options.goal ?? {};
  return ids.map((id) => {
    const conditions: Record<string, Condition> = {};
    for (const [key, condition] of entries) {
      conditions[fill(key, placeholder, id)] = substitute(condition, placeholder, id);
    }
    const value = valueFor(options.value, id);
    return { ...shared, conditions, name: `${name}[${id}]`, ...(value !== undefined ? { value } : {}) };
  });
}

/** A goal value is a number or a function, so an object is the record by entity id. */
function valueFor<V>(value: V | Readonly<Record<string, V>> | undefined, id: string): V | undefined {
  if (value === undefined || typeof value === "number" || typeof value === "function") return value as V | undefined;
  if (typeof value === "object" && value !== null) return Object.hasOwn(value, id) ? (value as Readonly<Record<string, V>>)[id] : undefined;
  return value as V;
}

function substitute(condition: Condition, placeholder: string, id: string): Condition {
  if (typeof condition === "string") return fill(condition, placeholder, id);
  if (typeof condition !== "object" || condition === null) return condition;
  const out: Record<string, unknown> = {};
  for (const [op, operand] of Object.entries(condition)) {
    if (typeof operand === "string") out[op] = fill(operand, placeholder, id);
    else if (Array.isArray(operand)) out[op] = operand.map((v) => (typeof v === "string" ? fill(v, placeholder, id) : v));
    else out[op] = operand;
  }
  return out as Condition;
}
