import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { ActionSpec, validateActions } from "./action.js";
import { type Condition, type Conditions, formatCondition, isNumericCondition, isOperatorCondition } from "./conditions.js";
import { type Effect, isOperatorEffect } from "./effects.js";
import { describeValue, LangGoapError } from "./errors.js";
import type { Fact, FactCatalog, FactSpec, WorldState } from "./facts.js";
import { GoalSpec, type GoalSpecOptions } from "./goal.js";

const factSchema = z.union([z.boolean(), z.number().refine(Number.isFinite, "must be finite"), z.string(), z.null()]);
const conditionSchema = z.union([
  factSchema,
  z
    .object({
      eq: factSchema.optional(),
      ne: factSchema.optional(),
      gt: z.number().optional(),
      gte: z.number().optional(),
      lt: z.number().optional(),
      lte: z.number().optional(),
      in: z.array(factSchema).min(1).optional(),
    })
    .strict(),
]);
const effectSchema = z.union([
  factSchema,
  z.object({ inc: z.number() }).strict(),
  z.object({ dec: z.number() }).strict(),
  z.object({ set: factSchema }).strict(),
]);
const factSpecSchema = z
  .object({
    type: z.enum(["boolean", "number", "string"]),
    values: z.array(z.string()).min(1).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    description: z.string().optional(),
    synonyms: z.array(z.string()).optional(),
  })
  .strict();
const actionSchema = z
  .object({
    name: z.string().min(1),
    preconditions: z.record(z.string(), conditionSchema).optional(),
    effects: z.record(z.string(), effectSchema).optional(),
    cost: z.number().nonnegative().optional(),
    resources: z.record(z.string(), z.number()).optional(),
    durationMs: z.number().nonnegative().optional(),
    description: z.string().optional(),
    canRerun: z.boolean().optional(),
    readOnly: z.boolean().optional(),
    maxRetries: z.number().int().nonnegative().optional(),
    utility: z.number().optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();
const goalObjectSchema = z
  .object({
    name: z.string().optional(),
    conditions: z.record(z.string(), conditionSchema),
    policy: z
      .object({
        replanStrategy: z.enum(["on_deviation", "every_action", "never"]).optional(),
        priority: z.number().optional(),
        maxReplans: z.number().int().nonnegative().optional(),
      })
      .strict()
      .optional(),
    constraints: z
      .array(
        z
          .object({
            key: z.string().min(1),
            max: z.number().optional(),
            min: z.number().optional(),
            weight: z.number().nonnegative().optional(),
            level: z.enum(["hard", "soft"]).optional(),
            name: z.string().optional(),
          })
          .strict(),
      )
      .optional(),
    objectives: z
      .array(
        z
          .object({
            key: z.string().min(1),
            direction: z.enum(["minimize", "maximize"]),
            weight: z.number().nonnegative().optional(),
            name: z.string().optional(),
          })
          .strict(),
      )
      .optional(),
    softGoals: z
      .array(
        z
          .object({
            conditions: z.record(z.string(), conditionSchema),
            weight: z.number().nonnegative().optional(),
            name: z.string().optional(),
          })
          .strict(),
      )
      .optional(),
    value: z.number().optional(),
  })
  .strict();

/** The zod schema of a domain file (JSON or YAML). */
export const domainSchema = z
  .object({
    facts: z.record(z.string(), factSpecSchema).optional(),
    state: z.record(z.string(), factSchema).optional(),
    goal: z.union([goalObjectSchema, z.record(z.string(), conditionSchema)]).optional(),
    actions: z.array(actionSchema).min(1),
  })
  .strict();

/** What {@link loadDomain} returns. */
export interface Domain {
  readonly actions: readonly ActionSpec[];
  readonly state: WorldState;
  readonly goal: GoalSpec | undefined;
  readonly facts: FactCatalog | undefined;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "$";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : `.${String(p)}`;
  return out;
}

/**
 * Loads a domain from JSON or YAML text, or from an already-parsed object,
 * validating it with zod. Errors name the JSON path and what was expected.
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
export function loadDomain(source: string | unknown, options: { sourceName?: string } = {}): Domain {
  const label = options.sourceName ? `${options.sourceName}: ` : "";
  let data: unknown = source;
  if (typeof source === "string") {
    try {
      data = parseYaml(source);
    } catch (error) {
      const pos = (error as { linePos?: { line: number; col: number }[] }).linePos?.[0];
      throw new LangGoapError(
        "INVALID_DOMAIN",
        `${label}not valid JSON or YAML${pos ? ` (line ${pos.line}, column ${pos.col})` : ""}: ${(error as Error).message.split("\n")[0]}`,
        { path: "$", source: options.sourceName },
        { cause: error },
      );
    }
  }
  const parsed = domainSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    const path = formatPath(issue.path);
    throw new LangGoapError("INVALID_DOMAIN", `${label}${path}: ${issue.message}`, {
      path,
      source: options.sourceName,
      issues: parsed.error.issues.map((i) => ({ path: formatPath(i.path), message: i.message })),
    });
  }
  const raw = parsed.data;
  const wrap = <T>(path: string, build: () => T): T => {
    try {
      return build();
    } catch (error) {
      if (error instanceof LangGoapError) {
        throw new LangGoapError(
          "INVALID_DOMAIN",
          `${label}${path}: ${error.message}`,
          { ...error.details, path, source: options.sourceName },
          { cause: error },
        );
      }
      throw error;
    }
  };
  const actions = wrap("$.actions", () =>
    validateActions(raw.actions.map((a, i) => wrap(`$.actions[${i}]`, () => new ActionSpec(a as never)))),
  );
  const goalIsObject =
    raw.goal !== undefined &&
    "conditions" in raw.goal &&
    typeof raw.goal.conditions === "object" &&
    raw.goal.conditions !== null &&
    !Array.isArray(raw.goal.conditions);
  const goal =
    raw.goal === undefined
      ? undefined
      : wrap("$.goal", () =>
          goalIsObject ? new GoalSpec(raw.goal as GoalSpecOptions) : new GoalSpec({ conditions: raw.goal as Conditions }),
        );
  const domain: Domain = { actions, state: { ...(raw.state ?? {}) }, goal, facts: raw.facts as FactCatalog | undefined };
  if (domain.facts) {
    try {
      validateDomain(domain, { goalPath: goalIsObject ? "$.goal.conditions" : "$.goal" });
    } catch (error) {
      // The message already starts with the JSON path; keep the code (UNKNOWN_FACT stays UNKNOWN_FACT).
      if (error instanceof LangGoapError) {
        throw new LangGoapError(error.code, `${label}${error.message}`, { ...error.details, source: options.sourceName }, { cause: error });
      }
      throw error;
    }
  }
  return domain;
}

/**
 * Checks actions, state and goal against declared facts: every key must be
 * declared, values must have the declared type (and be allowed values), and
 * numeric comparisons and `inc`/`dec` only apply to number facts.
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
  const lookup = (key: string, base: string, what: string): FactSpec => {
    const spec = facts[key];
    if (!spec)
      fail("UNKNOWN_FACT", pathOf(base, key), what, `unknown fact "${key}"; declared facts are [${known.join(", ")}]`, {
        key,
        allowed: known,
      });
    return spec as FactSpec;
  };
  const checkValue = (key: string, value: unknown, base: string, what: string): void => {
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
  };
  const checkConditions = (conditions: Conditions, base: string, what: string): void => {
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
        for (const v of [cond.eq, cond.ne, ...(cond.in ?? [])]) if (v !== undefined) checkValue(key, v, base, what);
      } else {
        checkValue(key, cond, base, what);
      }
    }
  };
  for (const [key, value] of Object.entries(domain.state ?? {})) checkValue(key, value as Fact, "$.state", "state");
  if (domain.goal) checkConditions(domain.goal.conditions, options.goalPath ?? "$.goal.conditions", "goal");
  domain.actions.forEach((action, i) => {
    const base = `$.actions[${i}]`;
    const what = `action "${action.name}"`;
    checkConditions(action.preconditions, `${base}.preconditions`, `${what} preconditions`);
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
