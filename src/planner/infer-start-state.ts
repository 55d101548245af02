import { type ActionSpec, validateActions } from "../core/action.js";
import { type Condition, isOperatorCondition } from "../core/conditions.js";
import { type Effect, isOperatorEffect } from "../core/effects.js";
import type { Fact, FactCatalog, WorldState } from "../core/facts.js";
import { type GoalLike, toGoalSpec } from "../core/goal.js";

/** Options of {@link inferStartState}. */
export interface InferStartStateOptions {
  /** The goal whose facts also need a start value. */
  readonly goal?: GoalLike;
  /** Facts the caller knows; they are kept as given and never inferred. @defaultValue {} */
  readonly given?: Readonly<WorldState>;
  /** Declared facts (a domain file's `facts`): their types and bounds decide the defaults first. */
  readonly facts?: FactCatalog;
}

/** What {@link inferStartState} found. */
export interface InferredStartState {
  /** `given` plus every inferred fact. */
  readonly state: WorldState;
  /** The facts that were inferred, with their values. */
  readonly inferred: Readonly<Record<string, Fact>>;
  /**
   * Facts actions or the goal mention that could not be given a default:
   * strings (no value is a safe guess), facts used as both booleans and
   * numbers, and facts only a function effect writes. Give them yourself.
   */
  readonly undetermined: readonly string[];
}

type Kind = "boolean" | "number" | "string" | "null" | "unknown";

function kindOfFact(value: Fact | undefined): Kind {
  if (value === null) return "null";
  if (typeof value === "boolean") return "boolean";
  if (typeof value === "number") return "number";
  if (typeof value === "string") return "string";
  return "unknown";
}

function kindsOfCondition(condition: Condition): Kind[] {
  if (!isOperatorCondition(condition)) return [kindOfFact(condition)];
  const kinds: Kind[] = [];
  for (const [op, operand] of Object.entries(condition)) {
    if (op === "in") kinds.push(...(operand as readonly Fact[]).map(kindOfFact));
    else if (op === "eq" || op === "ne") kinds.push(kindOfFact(operand as Fact));
    else kinds.push("number");
  }
  return kinds;
}

function kindsOfEffect(effect: Effect): Kind[] {
  if (!isOperatorEffect(effect)) return [kindOfFact(effect)];
  if (effect.set !== undefined) return [kindOfFact(effect.set)];
  return ["number"];
}

/**
 * The start state that the actions (and the goal) imply for the facts the
 * caller did not give, under the closed-world assumption planners use: a
 * boolean fact nobody mentioned is `false`, a number is `0` (or its declared
 * `min` when 0 is out of bounds). Strings, facts used with two types and
 * facts only function effects write cannot be guessed: they are listed in
 * `undetermined` and left out, so the caller sees what is missing instead
 * of a plan built on a wrong guess. Unlike LangGOAP's version (booleans
 * from effects only), preconditions, goal conditions, numbers and declared
 * facts count too.
 *
 * @example
 * ```ts
 * const { state, undetermined } = inferStartState(actions, { goal: { done: true }, given: { wood: 2 } });
 * // state: { wood: 2, has_data: false, has_result: false, done: false }; undetermined: []
 * ```
 */
export function inferStartState(actions: readonly ActionSpec[], options: InferStartStateOptions = {}): InferredStartState {
  const checked = validateActions(actions);
  const given = options.given ?? {};
  const kinds = new Map<string, Set<Kind>>();
  const note = (key: string, found: readonly Kind[]) => {
    const set = kinds.get(key) ?? new Set<Kind>();
    for (const kind of found) set.add(kind);
    kinds.set(key, set);
  };
  const conditions = [...checked.map((a) => a.preconditions), ...(options.goal ? [toGoalSpec(options.goal).conditions] : [])];
  for (const set of conditions) for (const [key, condition] of Object.entries(set)) note(key, kindsOfCondition(condition));
  for (const action of checked) {
    const effects = action.staticEffects;
    if (effects) for (const [key, effect] of Object.entries(effects)) note(key, kindsOfEffect(effect));
    else for (const key of action.effectKeys) note(key, ["unknown"]);
  }

  const state: WorldState = { ...given };
  const inferred: Record<string, Fact> = {};
  const undetermined: string[] = [];
  for (const [key, found] of [...kinds.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (Object.hasOwn(given, key)) continue;
    const value = defaultFor(key, found, options.facts);
    if (value === undefined) undetermined.push(key);
    else {
      inferred[key] = value;
      state[key] = value;
    }
  }
  return { state, inferred, undetermined };
}

function defaultFor(key: string, found: ReadonlySet<Kind>, facts: FactCatalog | undefined): Fact | undefined {
  const declared = facts && Object.hasOwn(facts, key) ? facts[key] : undefined;
  if (declared) {
    if (declared.type === "boolean") return false;
    if (declared.type === "number") {
      const min = declared.min ?? Number.NEGATIVE_INFINITY;
      const max = declared.max ?? Number.POSITIVE_INFINITY;
      return min <= 0 && 0 <= max ? 0 : Number.isFinite(min) ? min : undefined;
    }
    return undefined;
  }
  // `null` comparisons ("eq: null") say nothing about the type.
  const types = [...found].filter((k) => k !== "null");
  if (types.length !== 1) return undefined;
  if (types[0] === "boolean") return false;
  if (types[0] === "number") return 0;
  return undefined;
}
