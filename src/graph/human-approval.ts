import { GraphValueError, interrupt } from "@langchain/langgraph";
import { type ZodType, z } from "zod";
import { type ActionSpec, LangGoapError, type WorldState } from "../core/index.js";
import { notJsonPart, toJsonValue } from "./json.js";
import type { ActionFailureKind } from "./state.js";

/** Interrupt payload for `requireHumanApproval: true`. Resume with `true`, `false` or `{ approved, reason? }`. */
export interface ApprovalRequest {
  readonly type: "goap_action_approval";
  readonly action: string;
  readonly preconditions: unknown;
  readonly effects: unknown;
  readonly worldState: WorldState;
}

/** Interrupt payload for a zod-schema `requireHumanApproval`. Resume with the form's value. */
export interface FormRequest {
  readonly type: "goap_action_form";
  readonly action: string;
  /** JSON Schema of the expected answer (absent when the schema cannot be expressed in JSON Schema). */
  readonly formSchema: unknown;
  readonly preconditions: unknown;
  readonly worldState: WorldState;
}

/** What the executor may send to a human. */
export type HumanRequest = ApprovalRequest | FormRequest;

/** A resume value for an {@link ApprovalRequest}. */
export type ApprovalResponse = boolean | { readonly approved: boolean; readonly reason?: string };

/** The human's answer, read. */
export type HumanDecision =
  | { readonly approved: true; readonly input?: unknown }
  | { readonly approved: false; readonly failure: ActionFailureKind; readonly error: string; readonly input?: unknown };

function formSchemaOf(schema: ZodType): unknown {
  try {
    return z.toJSONSchema(schema);
  } catch {
    return undefined;
  }
}

/** @internal True for LangGraph's error of an `interrupt()` in a graph compiled without a checkpointer. */
export function isMissingCheckpointer(error: unknown): boolean {
  return error instanceof GraphValueError && (error as { lc_error_code?: string }).lc_error_code === "MISSING_CHECKPOINTER";
}

/**
 * @internal The error for an `interrupt()` that cannot pause the run: a
 * configuration mistake, reported at once (never an action failure to retry).
 */
export function missingCheckpointerError(action: ActionSpec, what: string, cause: unknown): LangGoapError {
  return new LangGoapError(
    "INVALID_OPTION",
    `action "${action.name}" ${what}, which pauses the run: compile with a checkpointer ` +
      "(graph.compile({ checkpointer: new MemorySaver() })) and pass a thread_id",
    { action: action.name },
    { cause },
  );
}

/** LangGraph's `interrupt()` (or the answer already given, `preset`), with the missing-checkpointer error explained in GOAP terms. */
function ask(action: ActionSpec, request: HumanRequest, preset: PresetAnswer | undefined): unknown {
  if (preset) return preset.answer;
  try {
    return interrupt(request);
  } catch (error) {
    if (isMissingCheckpointer(error)) throw missingCheckpointerError(action, "asks for human approval", error);
    throw error;
  }
}

/** @internal An answer recorded before a crash, used instead of asking again. */
export interface PresetAnswer {
  readonly answer: unknown;
}

function readApproval(answer: unknown): HumanDecision {
  if (answer === true) return { approved: true, input: true };
  if (answer === false)
    return { approved: false, failure: "approval_denied", error: "human_approval_denied: denied by operator", input: false };
  if (typeof answer === "object" && answer !== null && typeof (answer as { approved?: unknown }).approved === "boolean") {
    const { approved, reason } = answer as { approved: boolean; reason?: unknown };
    if (approved) return { approved: true, input: answer };
    const why = typeof reason === "string" && reason !== "" ? reason : "denied by operator";
    return { approved: false, failure: "approval_denied", error: `human_approval_denied: ${why}`, input: answer };
  }
  return {
    approved: false,
    failure: "approval_denied",
    error: `human_approval_denied: unrecognised answer ${JSON.stringify(answer) ?? String(answer)}; expected true, false or { approved, reason? }`,
    input: answer ?? null,
  };
}

/**
 * The refusal of an answer that is not JSON (a BigInt, a cycle, NaN, an
 * unreadable Proxy...): it would go into the state, which no checkpoint
 * could then hold. Null for a JSON answer.
 */
function notJson(action: ActionSpec, answer: unknown): HumanDecision | null {
  const bad = notJsonPart(answer);
  if (!bad) return null;
  return {
    approved: false,
    failure: "invalid_value",
    error: `human_answer_invalid: the answer about action "${action.name}" is not JSON at "${bad.path || "(root)"}": ${bad.reason}`,
  };
}

/**
 * @internal The answers that still stand for `actions` in `state`: a
 * human's decision about an action covers its retries, so an action that
 * was answered, whose latest run in the history failed, and whose failures
 * still count toward `maxRetries` (it was not blacklisted since) runs on
 * that answer without asking again. The human is asked anew when the
 * action is needed again after it succeeded, when the blacklist fallback
 * lets it back in (its failure count starts over), when a sequential goal
 * moves to its next subgoal, and in every new run (and, erring towards
 * asking, when its last run has left the state's history window).
 */
export function standingAnswers(
  actions: readonly ActionSpec[],
  state: {
    readonly humanInput: Readonly<Record<string, unknown>>;
    readonly actionFailureCounts: Readonly<Record<string, number>>;
    readonly executionHistory: readonly { readonly actionName: string; readonly success: boolean }[];
  },
): Record<string, unknown> {
  const standing: Record<string, unknown> = {};
  for (const action of actions) {
    const name = action.name;
    if (action.requireHumanApproval === false || !Object.hasOwn(state.humanInput, name)) continue;
    if (!Object.hasOwn(state.actionFailureCounts, name) || !((state.actionFailureCounts[name] ?? 0) > 0)) continue;
    const history = state.executionHistory;
    let i = history.length - 1;
    while (i >= 0 && history[i]?.actionName !== name) i--;
    if (i >= 0 && history[i]?.success === false) standing[name] = state.humanInput[name];
  }
  return standing;
}

/**
 * Asks a human about `action` through LangGraph's `interrupt()` when the
 * action requires it; returns at once for actions that do not. On the
 * first pass the graph pauses here; when resumed (`Command({ resume })`) the
 * node runs again and this returns the answer. Only `true` or
 * `{ approved: true }` approve; a form answer must pass the action's zod
 * schema, and its parsed value is returned as `input`. A `preset` answer
 * (one a crashed invocation already acted on) is read instead of asking.
 */
export function askHuman(action: ActionSpec, worldState: Readonly<WorldState>, preset?: PresetAnswer): HumanDecision {
  const requirement = action.requireHumanApproval;
  if (requirement === false) return { approved: true };
  if (requirement === true) {
    const request: ApprovalRequest = {
      type: "goap_action_approval",
      action: action.name,
      preconditions: toJsonValue(action.preconditions),
      effects: toJsonValue(action.toJSON().effects),
      worldState: toJsonValue(worldState),
    };
    const answer = ask(action, request, preset);
    return notJson(action, answer) ?? readApproval(answer);
  }
  const request: FormRequest = {
    type: "goap_action_form",
    action: action.name,
    formSchema: formSchemaOf(requirement),
    preconditions: toJsonValue(action.preconditions),
    worldState: toJsonValue(worldState),
  };
  const answer = ask(action, request, preset);
  const refused = notJson(action, answer);
  if (refused) return refused;
  const parsed = requirement.safeParse(answer);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`).join("; ");
    return { approved: false, failure: "form_invalid", error: `human_form_invalid: ${issues}`, input: toJsonValue(answer) ?? null };
  }
  return { approved: true, input: toJsonValue(parsed.data) };
}
