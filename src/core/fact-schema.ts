import type { output, ZodObject, ZodType } from "zod";
import { describeValue, LangGoapError } from "./errors.js";
import type { FactCatalog, FactSpec, FactType } from "./facts.js";
import { isPlainRecord } from "./names.js";

/** One fact of a plain facts definition: its type's name, or a full {@link FactSpec}. */
export type FactDeclaration = FactType | FactSpec;

/**
 * The facts of a typed domain, defined once: a zod object
 * (`z.object({ wood: z.number() })`) or a plain record of fact → type
 * (`{ wood: "number", mood: { type: "string", values: ["calm", "angry"] } }`).
 */
export type FactsDefinition = ZodObject | Readonly<Record<string, FactDeclaration>>;

type ValueOfDeclaration<D> = D extends "boolean"
  ? boolean
  : D extends "number"
    ? number
    : D extends "string"
      ? string
      : D extends { readonly type: "string"; readonly values: readonly (infer V extends string)[] }
        ? V
        : D extends { readonly type: infer T }
          ? ValueOfDeclaration<T>
          : never;

/**
 * The world-state type a facts definition declares: zod's output type for a
 * zod object, the declared value types for a plain record.
 *
 * @example
 * ```ts
 * type A = FactsOf<typeof facts>;                         // facts = z.object({ wood: z.number() }) → { wood: number }
 * type B = FactsOf<{ wood: "number"; has_axe: "boolean" }>; // { wood: number; has_axe: boolean }
 * ```
 */
export type FactsOf<D extends FactsDefinition> = D extends ZodType ? output<D> : { -readonly [K in keyof D]: ValueOfDeclaration<D[K]> };

/** A facts definition compiled for run time: its catalog and its state check. */
export interface CompiledFacts {
  readonly catalog: FactCatalog;
  /** The state checked (and, for zod, parsed: defaults filled in) or a coded error naming the fact. */
  check(value: unknown, where: string): Record<string, unknown>;
}

function isZodObject(value: unknown): value is ZodObject {
  return typeof (value as ZodObject | undefined)?.safeParse === "function" && isPlainRecord((value as ZodObject).shape ?? null);
}

/**
 * Compiles a facts definition (what `defineDomain` does with its `facts`):
 * refuses a malformed one with a coded error (`INVALID_DOMAIN`), derives the
 * {@link FactCatalog} that `validateDomain` and goal interpreters read
 * (fields that hold no fact, such as arrays, are left out), and checks
 * world states against it.
 *
 * @example
 * ```ts
 * const { catalog, check } = compileFacts(z.object({ wood: z.number().min(0), mood: z.enum(["calm", "angry"]) }));
 * catalog.mood;                           // { type: "string", values: ["calm", "angry"] }
 * check({ wood: -1, mood: "calm" }, "start"); // throws INVALID_STATE: start: fact "wood": Too small...
 * ```
 */
export function compileFacts(definition: FactsDefinition): CompiledFacts {
  if (isZodObject(definition)) return compileZodFacts(definition);
  if (!isPlainRecord(definition)) {
    throw new LangGoapError(
      "INVALID_DOMAIN",
      `defineDomain: facts must be a zod object or a record of fact → "boolean" | "number" | "string", got ${describeValue(definition)}`,
    );
  }
  const catalog: Record<string, FactSpec> = {};
  for (const [key, raw] of Object.entries(definition)) {
    const spec: unknown = typeof raw === "string" ? { type: raw } : raw;
    const type = isPlainRecord(spec) ? spec.type : undefined;
    if (type !== "boolean" && type !== "number" && type !== "string") {
      throw new LangGoapError(
        "INVALID_DOMAIN",
        `defineDomain: fact "${key}" must be declared "boolean", "number", "string" or { type, ... }, got ${describeValue(raw)}`,
        { key },
      );
    }
    catalog[key] = Object.freeze({ ...(spec as FactSpec) });
  }
  Object.freeze(catalog);
  return {
    catalog,
    check(value, where) {
      if (!isPlainRecord(value)) throw stateError(where, `expected an object of facts, got ${describeValue(value)}`);
      for (const [key, spec] of Object.entries(catalog)) {
        const fact = Object.hasOwn(value, key) ? value[key] : undefined;
        const problem = declaredValueProblem(fact, spec);
        if (problem !== undefined) throw stateError(where, `fact "${key}" ${problem}, got ${describeValue(fact)}`, key);
      }
      return value;
    },
  };
}

function declaredValueProblem(value: unknown, spec: FactSpec): string | undefined {
  if (spec.type === "number") {
    if (typeof value !== "number" || !Number.isFinite(value)) return "must be a finite number";
    if (spec.min !== undefined && value < spec.min) return `must be >= ${spec.min}`;
    if (spec.max !== undefined && value > spec.max) return `must be <= ${spec.max}`;
    return undefined;
  }
  if (typeof value !== spec.type) return `must be a ${spec.type}`;
  if (spec.values !== undefined && !spec.values.includes(value as string)) return `must be one of ${spec.values.join(", ")}`;
  return undefined;
}

function stateError(where: string, message: string, key?: string): LangGoapError {
  return new LangGoapError("INVALID_STATE", `${where}: ${message}`, key === undefined ? {} : { key });
}

/** Zod's def, as far as the catalog reads it. */
interface ZodDef {
  readonly type: string;
  readonly innerType?: { readonly _zod: { readonly def: ZodDef } };
  readonly entries?: Readonly<Record<string, unknown>>;
}

function compileZodFacts(schema: ZodObject): CompiledFacts {
  const catalog: Record<string, FactSpec> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const spec = zodFactSpec(field as ZodType);
    if (spec !== undefined) catalog[key] = spec;
  }
  Object.freeze(catalog);
  return {
    catalog,
    check(value, where) {
      if (!isPlainRecord(value)) throw stateError(where, `expected an object of facts, got ${describeValue(value)}`);
      const parsed = schema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const key = issue?.path.map(String).join(".") ?? "";
        throw stateError(where, `fact "${key}": ${issue?.message ?? "invalid"}`, key);
      }
      // Keys the schema does not name are carried (execution keeps any JSON), as an untyped state would.
      return { ...value, ...(parsed.data as Record<string, unknown>) };
    },
  };
}

/** The catalog entry of a zod field, or `undefined` for a field that holds no plannable fact (an array, an object). */
function zodFactSpec(field: ZodType): FactSpec | undefined {
  let def = (field as unknown as { _zod: { def: ZodDef } })._zod.def;
  // Optional, nullable and defaulted facts are facts of their inner type.
  while (def.innerType !== undefined && (def.type === "optional" || def.type === "nullable" || def.type === "default")) {
    def = def.innerType._zod.def;
  }
  const description = field.description === undefined ? {} : { description: field.description };
  switch (def.type) {
    case "boolean":
      return Object.freeze({ type: "boolean", ...description });
    case "number": {
      const { minValue, maxValue } = unwrapNumber(field);
      return Object.freeze({
        type: "number",
        ...(Number.isFinite(minValue) ? { min: minValue as number } : {}),
        ...(Number.isFinite(maxValue) ? { max: maxValue as number } : {}),
        ...description,
      });
    }
    case "string":
      return Object.freeze({ type: "string", ...description });
    case "enum": {
      const values = Object.values(def.entries ?? {}).filter((v): v is string => typeof v === "string");
      return Object.freeze({ type: "string", values: Object.freeze(values), ...description });
    }
    default:
      return undefined;
  }
}

function unwrapNumber(field: ZodType): { minValue?: number | null; maxValue?: number | null } {
  let current = field as unknown as { minValue?: number | null; maxValue?: number | null; _zod: { def: ZodDef } };
  while (current._zod.def.innerType !== undefined) current = current._zod.def.innerType as typeof current;
  return current;
}
