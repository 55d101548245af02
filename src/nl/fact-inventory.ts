import {
  type ActionSpec,
  type Condition,
  type Effect,
  type Fact,
  type FactCatalog,
  type FactType,
  isOperatorCondition,
  isOperatorEffect,
} from "../core/index.js";

/** What the interpreters know about one fact. */
export interface FactInfo {
  readonly key: string;
  /** Declared or inferred types; empty when nothing says (a function effect's key). */
  readonly types: ReadonlySet<FactType>;
  /** Allowed string values (declared, or every string the actions mention). */
  readonly values: readonly string[];
  readonly min?: number;
  readonly max?: number;
  readonly description?: string;
  readonly synonyms: readonly string[];
  /** Values actions assign to this fact, with the actions that assign them. */
  readonly produced: ReadonlyMap<Fact, readonly ActionSpec[]>;
  /** Actions that raise (`inc`) or lower (`dec`) this number. */
  readonly increasedBy: readonly ActionSpec[];
  readonly decreasedBy: readonly ActionSpec[];
  /** True when some action writes this fact. */
  readonly producible: boolean;
}

/** Every fact a goal may mention, in a stable order (catalog first, then as actions mention them). */
export type FactInventory = ReadonlyMap<string, FactInfo>;

interface MutableFact {
  types: Set<FactType>;
  values: Set<string>;
  produced: Map<Fact, ActionSpec[]>;
  increasedBy: ActionSpec[];
  decreasedBy: ActionSpec[];
  producible: boolean;
}

function typeOf(value: Fact): FactType | undefined {
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return "number";
  if (typeof value === "string") return "string";
  return undefined;
}

function noteValue(fact: MutableFact, value: Fact): void {
  const type = typeOf(value);
  if (type) fact.types.add(type);
  if (typeof value === "string") fact.values.add(value);
}

function noteCondition(fact: MutableFact, condition: Condition): void {
  if (!isOperatorCondition(condition)) {
    noteValue(fact, condition);
    return;
  }
  if (condition.gt !== undefined || condition.gte !== undefined || condition.lt !== undefined || condition.lte !== undefined) {
    fact.types.add("number");
  }
  for (const v of [condition.eq, condition.ne, ...(condition.in ?? [])]) if (v !== undefined) noteValue(fact, v);
}

function noteEffect(fact: MutableFact, effect: Effect, action: ActionSpec): void {
  fact.producible = true;
  if (isOperatorEffect(effect) && effect.set === undefined) {
    fact.types.add("number");
    (effect.inc !== undefined ? fact.increasedBy : fact.decreasedBy).push(action);
    return;
  }
  const value = isOperatorEffect(effect) ? (effect.set as Fact) : effect;
  noteValue(fact, value);
  const list = fact.produced.get(value) ?? [];
  list.push(action);
  fact.produced.set(value, list);
}

/**
 * Collects the facts a goal may mention: every key an action requires or
 * writes, plus every declared fact. Declarations win over inference; without
 * one, a fact's type and string values come from the values actions use.
 *
 * @example
 * ```ts
 * const facts = collectFacts([eat], { is_hungry: { type: "boolean", synonyms: ["starving"] } });
 * facts.get("is_hungry")?.types; // Set { "boolean" }
 * ```
 */
export function collectFacts(actions: readonly ActionSpec[], catalog: FactCatalog = {}): FactInventory {
  const found = new Map<string, MutableFact>();
  const get = (key: string): MutableFact => {
    let fact = found.get(key);
    if (!fact) {
      fact = { types: new Set(), values: new Set(), produced: new Map(), increasedBy: [], decreasedBy: [], producible: false };
      found.set(key, fact);
    }
    return fact;
  };
  for (const key of Object.keys(catalog)) get(key);
  for (const action of actions) {
    for (const [key, condition] of Object.entries(action.preconditions)) noteCondition(get(key), condition);
    const effects = action.staticEffects;
    if (effects) {
      for (const [key, effect] of Object.entries(effects)) noteEffect(get(key), effect, action);
    } else {
      for (const key of action.effectKeys) get(key).producible = true;
    }
  }
  const inventory = new Map<string, FactInfo>();
  for (const [key, fact] of found) {
    const spec = catalog[key];
    inventory.set(
      key,
      Object.freeze({
        key,
        types: spec ? new Set<FactType>([spec.type]) : fact.types,
        values: spec?.values ? [...spec.values] : [...fact.values].sort(),
        ...(spec?.min !== undefined ? { min: spec.min } : {}),
        ...(spec?.max !== undefined ? { max: spec.max } : {}),
        ...(spec?.description !== undefined ? { description: spec.description } : {}),
        synonyms: [...(spec?.synonyms ?? [])],
        produced: fact.produced,
        increasedBy: fact.increasedBy,
        decreasedBy: fact.decreasedBy,
        producible: fact.producible,
      }),
    );
  }
  return inventory;
}

/**
 * How a fact is listed in prompts and errors.
 *
 * @example
 * ```ts
 * describeFactType(facts.get("location")!); // 'location ("camp" | "forest")'
 * ```
 */
export function describeFactType(fact: FactInfo): string {
  const parts: string[] = [];
  for (const type of ["boolean", "number", "string"] as const) {
    if (!fact.types.has(type)) continue;
    if (type === "string" && fact.values.length > 0) parts.push(fact.values.map((v) => JSON.stringify(v)).join(" | "));
    else if (type === "number" && (fact.min !== undefined || fact.max !== undefined)) {
      parts.push(`number in [${fact.min ?? "-inf"}, ${fact.max ?? "inf"}]`);
    } else parts.push(type);
  }
  return `${fact.key} (${parts.length ? parts.join(" or ") : "boolean, number or string"})`;
}

/**
 * Sorted resource keys the actions declare (what constraints and objectives can sum).
 *
 * @example
 * ```ts
 * collectResourceKeys([new ActionSpec({ name: "search", resources: { usd: 0.01 } })]); // ["usd"]
 * ```
 */
export function collectResourceKeys(actions: readonly ActionSpec[]): string[] {
  const keys = new Set<string>();
  for (const action of actions) for (const key of Object.keys(action.resources ?? {})) keys.add(key);
  return [...keys].sort();
}
