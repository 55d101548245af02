import type { z } from "zod";
import { ActionSpec, actionFromOwnedData, validateActions } from "./action.js";
import { isActionShape } from "./action-shape.js";
import { type Condition, type Conditions, formatCondition, isNumericCondition, isOperatorCondition } from "./conditions.js";
import { actionSchema, conditionsSchema, domainHeadSchema, goalObjectSchema } from "./domain-schema.js";
import { checkJsonData, type DataFormat, formatOfName, parseDataText } from "./domain-text.js";
import { type Effect, isOperatorEffect } from "./effects.js";
import { describeValue, LangGoapError } from "./errors.js";
import { applyFactBounds, boundViolation, impossibleRange } from "./fact-bounds.js";
import type { Fact, FactCatalog, FactSpec, WorldState } from "./facts.js";
import { GoalSpec, type GoalSpecOptions } from "./goal.js";
import { checkFactName, isPlainRecord, unsafeNameReason } from "./names.js";
import { checkOptionKeys, type OptionKeys } from "./option-keys.js";

export { domainSchema } from "./domain-schema.js";

/** What {@link loadDomain} returns. */
export interface Domain {
  readonly actions: readonly ActionSpec[];
  readonly state: WorldState;
  readonly goal: GoalSpec | undefined;
  readonly facts: FactCatalog | undefined;
}

/** Options of {@link loadDomain}. */
export interface LoadDomainOptions {
  /** The file name, prefixed to error messages; a `.json` name also means strict JSON. */
  readonly sourceName?: string;
  /**
   * How text is parsed. `json` is strict JSON, `yaml` is YAML.
   * @defaultValue from `sourceName`'s extension, else `"auto"` (JSON when the text parses as JSON, otherwise YAML)
   */
  readonly format?: DataFormat;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "$";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `.${String(p)}`;
  return out;
}

/** Runs `schema` on `value` for its error only (its output would drop `__proto__` keys); throws with the full JSON path. */
function schemaCheck(schema: z.ZodType, value: unknown, at: readonly PropertyKey[], label: string, source: string | undefined): void {
  const parsed = schema.safeParse(value);
  if (parsed.success) return;
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  const path = formatPath([...at, ...issue.path]);
  throw new LangGoapError("INVALID_DOMAIN", `${label}${path}: ${issue.message}`, {
    path,
    source,
    issues: parsed.error.issues.map((i) => ({ path: formatPath([...at, ...i.path]), message: i.message })),
  });
}

/** Re-throws a LangGoapError from building part of the domain as INVALID_DOMAIN prefixed with its JSON path. */
function atPath(error: unknown, path: string, label: string, source: string | undefined): never {
  if (error instanceof LangGoapError) {
    throw new LangGoapError("INVALID_DOMAIN", `${label}${path}: ${error.message}`, { ...error.details, path, source }, { cause: error });
  }
  throw error;
}

interface DomainData {
  readonly facts?: Record<string, unknown>;
  readonly state?: Record<string, unknown>;
  readonly goal?: unknown;
  readonly actions: readonly unknown[];
}

/** `owned`: the list was parsed here from text, so its objects can be frozen in place. */
function buildActions(list: readonly unknown[], owned: boolean, label: string, source: string | undefined): readonly ActionSpec[] {
  const actions = new Array<ActionSpec>(list.length);
  let i = 0;
  try {
    for (; i < list.length; i++) {
      const raw = list[i];
      if (!isActionShape(raw)) schemaCheck(actionSchema, raw, ["actions", i], label, source);
      actions[i] = owned ? actionFromOwnedData(raw as never) : new ActionSpec(raw as never);
    }
  } catch (error) {
    if (error instanceof LangGoapError && error.code === "INVALID_DOMAIN") throw error;
    atPath(error, `$.actions[${i}]`, label, source);
  }
  try {
    return validateActions(actions);
  } catch (error) {
    return atPath(error, "$.actions", label, source);
  }
}

/** What to say when the parsed source is not a mapping: an empty file, a scalar, a list, or a file name given as text. */
function notADomain(data: unknown, source: unknown, label: string, name: string | undefined): LangGoapError {
  const details = { path: "$", source: name, reason: "not_a_domain" };
  if (typeof source === "string" && typeof data === "string" && looksLikeFilePath(source)) {
    return new LangGoapError(
      "INVALID_DOMAIN",
      `${label}loadDomain takes the text of a domain (or a parsed object), not a file name: got ${describeValue(source.trim())}; read the file with loadDomainFile(path) from "langgoap/node"`,
      { ...details, reason: "file_name_given" },
    );
  }
  const what =
    data === null || data === undefined
      ? typeof source === "string"
        ? "an empty document (no text, only comments, `null` or `~`)"
        : describeValue(data)
      : Array.isArray(data)
        ? "a list"
        : describeValue(data);
  return new LangGoapError(
    "INVALID_DOMAIN",
    `${label}$: expected a domain (a mapping with "actions", and optionally "state", "goal", "facts"), got ${what}`,
    details,
  );
}

/** A one-line text ending in .yaml, .yml or .json: a file name, not a domain. */
function looksLikeFilePath(text: string): boolean {
  return /^[^\n{}[\]]*\.(ya?ml|json)$/i.test(text.trim());
}

/** @internal The options `loadDomain` and `loadDomainFile` know. */
export const LOAD_DOMAIN_OPTIONS_KEYS = { sourceName: true, format: true } as const satisfies OptionKeys<LoadDomainOptions>;

/**
 * Loads a domain from JSON or YAML text, or from an already-parsed object.
 * Errors name the JSON path and what was expected. A `.json` source (by
 * `sourceName` or `format`) is strict JSON; YAML refuses unknown tags; both
 * are JSON data nested at most {@link MAX_NESTING_DEPTH} levels. Fact names
 * must be safe (no `__proto__`, `constructor`, `prototype`, control or
 * invisible characters). Declared facts are enforced: keys, types, allowed
 * values, and `min`/`max` in the state, goal and effects (see
 * {@link applyFactBounds}). Loads a million actions in seconds: a quick
 * shape check per action, zod only to word an error.
 *
 * @example
 * ```ts
 * const { actions, state, goal } = loadDomain(`
 * state: { wood: 0 }
 * goal: { wood: { gte: 4 } }
 * actions:
 *   - { name: chop, effects: { wood: { inc: 2 } }, cost: 2 }
 * `);
 * ```
 */
export function loadDomain(source: string | unknown, options: LoadDomainOptions = {}): Domain {
  checkOptionKeys(options, LOAD_DOMAIN_OPTIONS_KEYS, "loadDomain()");
  const name = options.sourceName;
  const label = name ? `${name}: ` : "";
  let data: unknown;
  if (typeof source === "string") {
    data = parseDataText(source, { format: options.format ?? formatOfName(name), label });
  } else {
    checkJsonData(source, "INVALID_DOMAIN", label);
    data = source;
  }
  if (!isPlainRecord(data)) throw notADomain(data, source, label, name);
  const raw = data as unknown as DomainData;
  const goalIsObject = isPlainRecord(raw.goal) && Object.hasOwn(raw.goal, "conditions");
  const goalPath = goalIsObject ? "$.goal.conditions" : "$.goal";
  // Names first: zod's records drop a __proto__ key, and its messages about a reserved key's value miss the point.
  if (isPlainRecord(data)) {
    const named: [string, unknown][] = [
      ["$.facts", raw.facts],
      ["$.state", raw.state],
      [goalPath, goalIsObject ? (raw.goal as { conditions: unknown }).conditions : raw.goal],
    ];
    for (const [path, record] of named) {
      if (!isPlainRecord(record)) continue;
      for (const key of Object.keys(record)) {
        const reason = unsafeNameReason(key);
        if (reason !== undefined) {
          throw new LangGoapError("INVALID_DOMAIN", `${label}${path}: fact name ${describeValue(key)} ${reason}`, {
            path,
            key,
            source: name,
            reason: "bad_fact_name",
          });
        }
      }
    }
  }
  schemaCheck(domainHeadSchema, data, [], label, name);
  let goal: GoalSpec | undefined;
  if (raw.goal !== undefined) {
    schemaCheck(goalIsObject ? goalObjectSchema : conditionsSchema, raw.goal, ["goal"], label, name);
    try {
      goal = goalIsObject ? new GoalSpec(raw.goal as GoalSpecOptions) : new GoalSpec({ conditions: raw.goal as Conditions });
    } catch (error) {
      atPath(error, error instanceof LangGoapError && error.code === "INVALID_CONDITION" ? goalPath : "$.goal", label, name);
    }
  }
  let actions = buildActions(raw.actions, typeof source === "string", label, name);
  const facts = raw.facts as FactCatalog | undefined;
  const state: WorldState = { ...(raw.state ?? {}) };
  if (facts) {
    try {
      validateDomain({ actions, state, goal, facts }, { goalPath });
    } catch (error) {
      // The message already starts with the JSON path; keep the code (UNKNOWN_FACT stays UNKNOWN_FACT).
      if (error instanceof LangGoapError) {
        throw new LangGoapError(error.code, `${label}${error.message}`, { ...error.details, source: name }, { cause: error });
      }
      throw error;
    }
    actions = Object.freeze(applyFactBounds(actions, facts));
  }
  return { actions, state, goal, facts };
}

/**
 * Checks actions, state and goal against declared facts: every key must be
 * declared, values must have the declared type (and be allowed values, and
 * within `min`/`max`), numeric comparisons and `inc`/`dec` only apply to
 * number facts, and a goal's comparison must be able to hold inside the
 * bounds.
 */
export function validateDomain(
  domain: {
    readonly actions: readonly ActionSpec[];
    readonly facts?: FactCatalog | undefined;
    readonly state?: WorldState | undefined;
    readonly goal?: GoalSpec | undefined;
  },
  options: {
    /** JSON path of the goal's conditions in the source. @defaultValue "$.goal.conditions" */
    readonly goalPath?: string;
  } = {},
): void {
  validateActions(domain.actions);
  const facts = domain.facts;
  if (!facts) return;
  const known = Object.keys(facts);
  const pathOf = (base: string, key: string) => (/^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`);
  const fail = (
    code: "UNKNOWN_FACT" | "INVALID_DOMAIN",
    path: string,
    what: string,
    message: string,
    details: Record<string, unknown>,
  ): never => {
    throw new LangGoapError(code, `${path} (${what}): ${message}`, { ...details, path, reason: message });
  };
  for (const key of known) checkFactName(key, "$.facts", "INVALID_DOMAIN");
  const lookup = (key: string, base: string, what: string): FactSpec => {
    // Own properties only: a fact named "toString" is not declared by Object.prototype.
    const spec = Object.hasOwn(facts, key) ? facts[key] : undefined;
    if (!spec)
      fail("UNKNOWN_FACT", pathOf(base, key), what, `unknown fact "${key}"; declared facts are [${known.join(", ")}]`, {
        key,
        allowed: known,
      });
    return spec as FactSpec;
  };
  const checkValue = (key: string, value: unknown, base: string, what: string, inBounds = true): void => {
    const spec = lookup(key, base, what);
    if (value === null) return;
    if (typeof value !== spec.type) {
      fail("INVALID_DOMAIN", pathOf(base, key), what, `fact "${key}" is a ${spec.type}, got ${describeValue(value)}`, { key });
    }
    if (spec.type === "string" && spec.values && !spec.values.includes(value as string)) {
      fail(
        "INVALID_DOMAIN",
        pathOf(base, key),
        what,
        `fact "${key}" must be one of [${spec.values.join(", ")}], got ${describeValue(value)}`,
        { key },
      );
    }
    const outOfBounds = inBounds ? boundViolation(key, value, spec) : undefined;
    if (outOfBounds) fail("INVALID_DOMAIN", pathOf(base, key), what, outOfBounds, { key, value, min: spec.min, max: spec.max });
  };
  const checkConditions = (conditions: Conditions, base: string, what: string, isGoal: boolean): void => {
    for (const [key, cond] of Object.entries(conditions) as [string, Condition][]) {
      const spec = lookup(key, base, what);
      if (isNumericCondition(cond) && spec.type !== "number") {
        fail(
          "INVALID_DOMAIN",
          pathOf(base, key),
          what,
          `"${formatCondition(key, cond)}" compares numbers but fact "${key}" is a ${spec.type}`,
          { key },
        );
      }
      if (isOperatorCondition(cond)) {
        // `ne` only names a value to avoid, so it may lie outside the bounds.
        if (cond.ne !== undefined) checkValue(key, cond.ne, base, what, false);
        for (const v of [cond.eq, ...(cond.in ?? [])]) if (v !== undefined) checkValue(key, v, base, what);
        const never = isGoal ? impossibleRange(key, cond, spec) : undefined;
        if (never) {
          fail("INVALID_DOMAIN", pathOf(base, key), what, `"${formatCondition(key, cond)}" ${never}`, {
            key,
            min: spec.min,
            max: spec.max,
          });
        }
      } else {
        checkValue(key, cond, base, what);
      }
    }
  };
  for (const [key, value] of Object.entries(domain.state ?? {})) checkValue(key, value as Fact, "$.state", "state");
  if (domain.goal) checkConditions(domain.goal.conditions, options.goalPath ?? "$.goal.conditions", "goal", true);
  domain.actions.forEach((action, i) => {
    const base = `$.actions[${i}]`;
    const what = `action "${action.name}"`;
    checkConditions(action.preconditions, `${base}.preconditions`, `${what} preconditions`, false);
    const effects = action.staticEffects;
    if (!effects) {
      for (const key of action.effectKeys) lookup(key, `${base}.effectKeys`, `${what} effectKeys`);
      return;
    }
    for (const [key, effect] of Object.entries(effects) as [string, Effect][]) {
      const spec = lookup(key, `${base}.effects`, `${what} effects`);
      if (isOperatorEffect(effect)) {
        if (effect.set !== undefined) checkValue(key, effect.set, `${base}.effects`, `${what} effects`);
        else if (spec.type !== "number") {
          fail(
            "INVALID_DOMAIN",
            pathOf(`${base}.effects`, key),
            `${what} effects`,
            `"${effect.inc !== undefined ? "inc" : "dec"}" changes a number but fact "${key}" is a ${spec.type}`,
            { key, action: action.name },
          );
        }
      } else {
        checkValue(key, effect, `${base}.effects`, `${what} effects`);
      }
    }
  });
}
