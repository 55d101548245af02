import { z } from "zod";

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
/** @internal Conditions by fact name (a goal's bare form, preconditions). */
export const conditionsSchema = z.record(z.string(), conditionSchema);
const factSpecSchema = z
  .object({
    type: z.enum(["boolean", "number", "string"]),
    values: z.array(z.string()).min(1).optional(),
    min: z.number().optional(),
    max: z.number().optional(),
    description: z.string().optional(),
    synonyms: z.array(z.string()).optional(),
  })
  .strict()
  .refine((spec) => spec.min === undefined || spec.max === undefined || spec.min <= spec.max, {
    message: "min is greater than max",
    path: ["min"],
  });
/** @internal One action of a domain file. */
export const actionSchema = z
  .object({
    name: z.string().min(1),
    preconditions: conditionsSchema.optional(),
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
/** @internal A goal in its object form `{ conditions, policy?, ... }`. */
export const goalObjectSchema = z
  .object({
    name: z.string().optional(),
    conditions: conditionsSchema,
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
            conditions: conditionsSchema,
            weight: z.number().nonnegative().optional(),
            name: z.string().optional(),
          })
          .strict(),
      )
      .optional(),
    value: z.number().optional(),
  })
  .strict();

const domainFields = {
  facts: z.record(z.string(), factSpecSchema).optional(),
  state: z.record(z.string(), factSchema).optional(),
  goal: z.union([goalObjectSchema, conditionsSchema]).optional(),
  actions: z.array(actionSchema).min(1),
};

/**
 * The zod schema of a domain file (JSON or YAML). A goal with a
 * `conditions` key is the object form; otherwise its keys are conditions.
 */
export const domainSchema = z.object(domainFields).strict();

/**
 * @internal The domain without its goal and its actions' contents: the
 * loader checks those itself (the goal by its form, so errors name the full
 * path; each action quickly, falling back to {@link actionSchema} for the
 * message).
 */
export const domainHeadSchema = z.object({ ...domainFields, goal: z.unknown().optional(), actions: z.array(z.unknown()).min(1) }).strict();
