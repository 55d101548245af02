import { z } from "zod";
import type { ActionFailureKind, GoapStatus } from "./state.js";

const STATUSES = [
  "executing",
  "awaiting_human",
  "goal_achieved",
  "partially_achieved",
  "failed",
  "no_plan",
  "denied",
  "budget_exhausted",
  "aborted",
  "error",
  "action_failed",
  "terminated",
] as const;
const FAILURES = [
  "error",
  "guard_blocked",
  "approval_denied",
  "form_invalid",
  "validation_failed",
  "aborted",
  "no_action",
  "timeout",
  "invalid_output",
  "invalid_value",
  "crashed",
] as const;
// Both lists name every member of their union: a new status or failure kind fails type-checking here until it is added.
const _everyStatus: Record<GoapStatus, true> = Object.fromEntries(STATUSES.map((s) => [s, true])) as Record<
  (typeof STATUSES)[number],
  true
>;
const _everyFailure: Record<ActionFailureKind, true> = Object.fromEntries(FAILURES.map((f) => [f, true])) as Record<
  (typeof FAILURES)[number],
  true
>;

const FACT_VALUES = "Facts are booleans, numbers, strings or null; other JSON values ride along for actions but are not planned over.";

/**
 * What a client sends to start a served GOAP run: the goal and the world it
 * starts from. Declared on served graphs (see `compileServedGraph`) so the
 * LangGraph API server and Studio show this form instead of the run's
 * internal state, and answer schema requests without parsing TypeScript.
 *
 * @example
 * ```ts
 * GOAP_RUN_INPUT_SCHEMA.parse({ goal: { published: true }, worldState: { topic: "GOAP" } });
 * ```
 */
export const GOAP_RUN_INPUT_SCHEMA = z
  .object({
    goal: z
      .record(z.string(), z.unknown())
      .describe('Goal conditions: a fact equals a value, {"published": true}, or compares, {"wood": {"gte": 3}} (eq ne gt gte lt lte in).'),
    worldState: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        `The facts the run starts from, e.g. {"topic": "GOAP"}; it replaces the thread's world. Left out, the run starts from the world the thread's last run left. ${FACT_VALUES}`,
      ),
  })
  .describe("Start a GOAP run: plan for the goal from this world state, execute, replan on deviation.");

const ACTION_RESULT = z
  .object({
    actionName: z.string(),
    success: z.boolean(),
    error: z.string().nullable(),
    failure: z.enum(FAILURES).nullable().describe("Why the action failed (null when it succeeded)."),
    attempts: z.number(),
    durationMs: z.number(),
    stateBefore: z.record(z.string(), z.unknown()),
    stateAfter: z.record(z.string(), z.unknown()),
  })
  .describe("One executed (or refused) action.");

const PLAN = z
  .object({
    actions: z.array(z.string()).describe("Action names in execution order."),
    totalCost: z.number(),
    expectedChanges: z
      .array(z.object({ set: z.record(z.string(), z.unknown()), unset: z.array(z.string()).optional() }))
      .optional()
      .describe("What each step is expected to change, from startState."),
    expectedStates: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .describe("Whole expected states (plans saved by earlier versions)."),
    startState: z.record(z.string(), z.unknown()).optional(),
    score: z.record(z.string(), z.unknown()),
    metadata: z.record(z.string(), z.unknown()),
  })
  .nullable()
  .describe("The current plan (null before planning or when there is none).");

/**
 * What a served GOAP run returns: where it stands, the world it produced,
 * its current plan and every action it executed. The thread's full state
 * (replan counts, explanations, ...) stays readable through the server's
 * state endpoints.
 *
 * @example
 * ```ts
 * Object.keys(GOAP_RUN_OUTPUT_SCHEMA.shape); // ["status", "worldState", "plan", "executionHistory"]
 * ```
 */
export const GOAP_RUN_OUTPUT_SCHEMA = z
  .object({
    status: z.enum(STATUSES).describe("Where the run stands: goal_achieved, no_plan, failed, error and terminated end it."),
    worldState: z.record(z.string(), z.unknown()).describe("The world after the last executed action."),
    plan: PLAN,
    executionHistory: z.array(ACTION_RESULT).describe("Every executed action, in order."),
  })
  .describe("The outcome of a GOAP run.");
