import { z } from "zod";
import type { FactInfo, FactInventory } from "./fact-inventory.js";

/** A resource bound the model read from the request ("under $5" → `{ key: "usd", max: 5 }`). */
export interface InterpretedConstraint {
  readonly key: string;
  readonly max?: number;
  readonly min?: number;
  /** @defaultValue 1 */
  readonly weight?: number;
  /** "soft" for wishes ("ideally", "preferably"). @defaultValue "hard" */
  readonly level?: "hard" | "soft";
}

/** Something to minimise or maximise: `"cost"` or a resource key. */
export interface InterpretedObjective {
  readonly key: string;
  readonly direction: "minimize" | "maximize";
}

/** The structured answer a chat model gives for a request, before it becomes a `GoalSpec`. */
export interface InterpretedGoal {
  readonly conditions: Readonly<Record<string, unknown>>;
  readonly constraints?: readonly InterpretedConstraint[];
  readonly objectives?: readonly InterpretedObjective[];
  readonly reasoning?: string;
}

const nonEmpty = (value: Record<string, unknown>): boolean => Object.values(value).some((v) => v !== undefined);

function numberSchema(fact: FactInfo): z.ZodNumber {
  let schema = z.number();
  if (fact.min !== undefined) schema = schema.min(fact.min);
  if (fact.max !== undefined) schema = schema.max(fact.max);
  return schema;
}

function valueSchemas(fact: FactInfo): z.ZodType[] {
  const out: z.ZodType[] = [];
  if (fact.types.has("boolean")) out.push(z.boolean());
  if (fact.types.has("number")) {
    const n = numberSchema(fact);
    out.push(n);
    out.push(
      z
        .strictObject({ gt: n.optional(), gte: n.optional(), lt: n.optional(), lte: n.optional(), eq: n.optional(), ne: n.optional() })
        .refine(nonEmpty, { message: "give at least one of gt, gte, lt, lte, eq, ne" }),
    );
  }
  if (fact.types.has("string")) {
    const s = fact.values.length > 0 ? z.enum(fact.values as [string, ...string[]]) : z.string();
    out.push(s);
    out.push(z.strictObject({ in: z.array(s).min(1).optional(), ne: s.optional() }).refine(nonEmpty, { message: "give in or ne" }));
  }
  if (out.length === 0) out.push(z.boolean(), z.number(), z.string());
  return out;
}

function factSchema(fact: FactInfo): z.ZodType {
  const options = valueSchemas(fact);
  const schema = options.length === 1 ? (options[0] as z.ZodType) : z.union(options as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  const words = [fact.description, fact.synonyms.length ? `also called: ${fact.synonyms.join(", ")}` : undefined].filter(Boolean);
  return words.length ? schema.describe(words.join("; ")) : schema;
}

/**
 * Builds the zod schema a chat model must answer with: `conditions` keys are
 * exactly the known facts (an unknown key is a validation error), typed per
 * fact (booleans, enums for string facts, numbers with comparison
 * operators); constraints and objectives name only declared resources (and
 * `"cost"` for objectives).
 *
 * @example
 * ```ts
 * const schema = buildGoalSchema(collectFacts(actions), ["usd"]);
 * schema.safeParse({ conditions: { is_hungry: false } }).success; // true
 * ```
 */
export function buildGoalSchema(facts: FactInventory, resourceKeys: readonly string[]): z.ZodType<InterpretedGoal> {
  const shape: Record<string, z.ZodType> = {};
  for (const fact of facts.values()) shape[fact.key] = factSchema(fact).optional();
  const conditions = z
    .strictObject(shape)
    .describe(
      "Facts that must hold once the request is satisfied. Only the listed keys are allowed; omit facts the request does not need.",
    );
  const objectiveKeys = ["cost", ...resourceKeys.filter((k) => k !== "cost")] as [string, ...string[]];
  const objectives = z
    .array(z.object({ key: z.enum(objectiveKeys), direction: z.enum(["minimize", "maximize"]) }))
    .describe("Only when the user asks for the cheapest, fastest, least or most of something.");
  const fields: Record<string, z.ZodType> = {
    conditions,
    objectives: objectives.optional(),
    reasoning: z.string().optional().describe("One sentence: why these conditions."),
  };
  if (resourceKeys.length > 0) {
    fields.constraints = z
      .array(
        z.object({
          key: z.enum(resourceKeys as [string, ...string[]]),
          max: z.number().optional(),
          min: z.number().optional(),
          weight: z.number().min(0).optional(),
          level: z.enum(["hard", "soft"]).optional(),
        }),
      )
      .optional()
      .describe('Only limits the user states ("under $5"); level "soft" for "ideally" or "preferably".');
  }
  return z.object(fields).describe("A goal for the planner") as unknown as z.ZodType<InterpretedGoal>;
}
