import type { z } from "zod";
import { type Conditions, ConstraintSpec, GoalSpec, LangGoapError } from "../core/index.js";
import { describeFactType, type FactInventory } from "./fact-inventory.js";
import type { InterpretedGoal } from "./goal-schema.js";

/** Why an answer was rejected, in words a model (and a person) can act on. */
export interface AnswerProblem {
  readonly message: string;
  /** Condition keys that are not known facts. */
  readonly unknownFacts: readonly string[];
}

/** The outcome of checking one answer: a goal, or what is wrong with it. */
export type AnswerCheck =
  | { readonly ok: true; readonly interpreted: InterpretedGoal; readonly goal: GoalSpec }
  | { readonly ok: false; readonly problem: AnswerProblem };

function formatIssues(issues: readonly z.core.$ZodIssue[], facts: FactInventory): AnswerProblem {
  const unknownFacts: string[] = [];
  const lines: string[] = [];
  for (const issue of issues) {
    const path = issue.path.map(String);
    if (issue.code === "unrecognized_keys" && path.length === 1 && path[0] === "conditions") {
      unknownFacts.push(...issue.keys);
      lines.push(`unknown fact${issue.keys.length > 1 ? "s" : ""} ${issue.keys.map((k) => `"${k}"`).join(", ")} in conditions`);
      continue;
    }
    const fact = path[0] === "conditions" && path[1] !== undefined ? facts.get(path[1]) : undefined;
    const where = path.length ? path.join(".") : "answer";
    lines.push(fact ? `${where}: ${issue.message}; expected ${describeFactType(fact)}` : `${where}: ${issue.message}`);
  }
  return { message: lines.join("; "), unknownFacts };
}

/**
 * Turns a validated answer into a {@link GoalSpec}. Empty conditions are an
 * error: a goal that asks for nothing is a refusal or a misunderstanding.
 *
 * @example
 * ```ts
 * interpretedToGoalSpec({ conditions: { is_hungry: false } }).conditions; // { is_hungry: false }
 * ```
 */
export function interpretedToGoalSpec(interpreted: InterpretedGoal): GoalSpec {
  const conditions = Object.fromEntries(Object.entries(interpreted.conditions).filter(([, v]) => v !== undefined && v !== null));
  if (Object.keys(conditions).length === 0) {
    throw new LangGoapError("INTERPRETER_ERROR", "the answer has no conditions; a goal must require at least one fact", {
      reasoning: interpreted.reasoning,
    });
  }
  return new GoalSpec({
    conditions: conditions as Conditions,
    constraints: (interpreted.constraints ?? []).map((c) => new ConstraintSpec(c)),
    objectives: (interpreted.objectives ?? []).map((o) => ({ key: o.key, direction: o.direction })),
  });
}

/**
 * Validates a model's answer against the goal schema and converts it. Never
 * throws for a bad answer: the problem comes back so the caller can ask the
 * model again.
 *
 * @example
 * ```ts
 * const check = checkAnswer(interpreter.schema, { conditions: { is_thirsty: true } }, interpreter.facts);
 * if (!check.ok) check.problem.unknownFacts; // ["is_thirsty"]
 * ```
 */
export function checkAnswer(schema: z.ZodType<InterpretedGoal>, answer: unknown, facts: FactInventory): AnswerCheck {
  if (answer === undefined || answer === null) {
    return { ok: false, problem: { message: "the model gave no structured answer (no tool call or JSON object)", unknownFacts: [] } };
  }
  const parsed = schema.safeParse(answer);
  if (!parsed.success) return { ok: false, problem: formatIssues(parsed.error.issues, facts) };
  try {
    return { ok: true, interpreted: parsed.data, goal: interpretedToGoalSpec(parsed.data) };
  } catch (error) {
    if (!(error instanceof LangGoapError)) throw error;
    return { ok: false, problem: { message: error.message, unknownFacts: [] } };
  }
}
