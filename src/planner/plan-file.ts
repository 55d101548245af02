import type { ActionSpec } from "../core/action.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import { type Fact, factOf, isFact, type WorldState } from "../core/facts.js";
import { type ScoreJson, scoreFromJson, scoreToJson } from "../core/score.js";
import { Plan, type PlanMetadata } from "./plan.js";

/** A plan as a file keeps it: action names (re-bound on load), the states, the cost and the score. */
export interface SerializedPlan {
  readonly format: "langgoap.plan";
  readonly version: 1;
  readonly actions: readonly string[];
  /** The state the plan starts from, when the plan knows it. */
  readonly startState?: WorldState;
  /** The planning facts expected after each action. */
  readonly expectedStates: readonly WorldState[];
  readonly totalCost: number;
  readonly score: ScoreJson;
  readonly metadata: Readonly<Record<string, unknown>>;
}

/** Options of {@link deserializePlan}. */
export interface DeserializePlanOptions {
  /**
   * Replay the plan from its start state with the live actions: every
   * precondition must hold and every expected fact must match, so a plan
   * saved against other actions is refused instead of run.
   * @defaultValue true when the plan has a start state
   */
  readonly verify?: boolean;
}

function facts(state: Readonly<WorldState> | undefined): WorldState {
  const out: WorldState = {};
  if (!state) return out;
  for (const [key, value] of Object.entries(state))
    if (isFact(value) && !(typeof value === "number" && !Number.isFinite(value))) out[key] = value;
  return out;
}

/** A JSON copy that fails loudly on what JSON cannot hold (cycles), and drops functions. */
function jsonCopy<T>(value: unknown, what: string): T {
  try {
    return JSON.parse(JSON.stringify(value) ?? "null") as T;
  } catch (error) {
    throw new LangGoapError("INVALID_PLAN", `serializePlan: ${what} is not JSON: ${(error as Error).message}`);
  }
}

/**
 * A plan as plain JSON (see {@link deserializePlan} to restore it).
 *
 * @example
 * ```ts
 * const text = JSON.stringify(serializePlan(found));
 * const again = deserializePlan(JSON.parse(text), actions); // same actions, states, cost and score
 * ```
 */
export function serializePlan(plan: Plan): SerializedPlan {
  return {
    format: "langgoap.plan",
    version: 1,
    actions: plan.actionNames,
    ...(plan.startState ? { startState: facts(plan.startState) } : {}),
    expectedStates: plan.expectedStates.map(facts),
    totalCost: plan.totalCost,
    score: scoreToJson(plan.score),
    metadata: jsonCopy<Record<string, unknown>>(plan.metadata, "the plan's metadata") ?? {},
  };
}

function bad(message: string, path: string): never {
  throw new LangGoapError("INVALID_PLAN", `deserializePlan: ${path}: ${message}`, { path });
}

function checkState(value: unknown, path: string): WorldState {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    bad(`expected an object of facts, got ${describeValue(value)}`, path);
  for (const [key, fact] of Object.entries(value as Record<string, unknown>)) {
    if (!isFact(fact)) bad(`expected a fact (boolean, number, string or null), got ${describeValue(fact)}`, `${path}.${key}`);
  }
  return value as WorldState;
}

/**
 * Restores a plan saved with {@link serializePlan}, re-binding each action by
 * name from `actions`. Malformed data, an unknown action name, or (with
 * `verify`) a plan the live actions do not replay is a coded
 * `INVALID_PLAN` error naming the place.
 */
export function deserializePlan(json: unknown, actions: readonly ActionSpec[], options: DeserializePlanOptions = {}): Plan {
  if (typeof json !== "object" || json === null || Array.isArray(json)) bad(`expected a plan object, got ${describeValue(json)}`, "$");
  const data = json as Record<string, unknown>;
  if (data.format !== "langgoap.plan") bad(`expected format "langgoap.plan", got ${describeValue(data.format)}`, "$.format");
  if (data.version !== 1) bad(`expected version 1, got ${describeValue(data.version)}`, "$.version");
  if (!Array.isArray(data.actions) || !data.actions.every((n) => typeof n === "string")) {
    bad(`expected an array of action names, got ${describeValue(data.actions)}`, "$.actions");
  }
  const names = data.actions as string[];
  if (!Array.isArray(data.expectedStates) || data.expectedStates.length !== names.length) {
    bad(`expected one state per action (${names.length}), got ${describeValue(data.expectedStates)}`, "$.expectedStates");
  }
  const expectedStates = (data.expectedStates as unknown[]).map((s, i) => checkState(s, `$.expectedStates[${i}]`));
  const startState = data.startState === undefined ? undefined : checkState(data.startState, "$.startState");
  if (typeof data.totalCost !== "number" || !Number.isFinite(data.totalCost) || data.totalCost < 0) {
    bad(`expected a finite cost >= 0, got ${describeValue(data.totalCost)}`, "$.totalCost");
  }
  const metadata = data.metadata ?? {};
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata))
    bad(`expected an object, got ${describeValue(metadata)}`, "$.metadata");
  let score: ReturnType<typeof scoreFromJson>;
  try {
    score = scoreFromJson(data.score);
  } catch (error) {
    bad((error as Error).message.replace(/^scoreFromJson: /, ""), "$.score");
  }
  const byName = new Map(actions.map((a) => [a.name, a]));
  const bound = names.map(
    (name, i) =>
      byName.get(name) ?? bad(`unknown action "${name}"; known: ${[...byName.keys()].join(", ") || "(none)"}`, `$.actions[${i}]`),
  );
  if (options.verify ?? startState !== undefined) {
    if (!startState) bad("cannot verify a plan saved without its start state", "$.startState");
    verifyReplay(bound, startState, expectedStates);
  }
  return new Plan({
    actions: bound,
    expectedStates,
    ...(startState ? { startState } : {}),
    totalCost: data.totalCost as number,
    score,
    metadata: metadata as Partial<PlanMetadata>,
  });
}

function verifyReplay(actions: readonly ActionSpec[], start: Readonly<WorldState>, expected: readonly WorldState[]): void {
  let state: WorldState = { ...start };
  for (const [i, action] of actions.entries()) {
    if (!action.isApplicable(state)) bad(`action "${action.name}" cannot run here: its preconditions do not hold`, `$.actions[${i}]`);
    state = action.apply(state);
    for (const [key, fact] of Object.entries(expected[i] as WorldState)) {
      const actual: Fact | undefined = factOf(state, key) as Fact | undefined;
      if (actual !== fact) {
        bad(
          `after "${action.name}", ${key} is ${describeValue(actual)} with the live actions, the file says ${describeValue(fact)}`,
          `$.expectedStates[${i}].${key}`,
        );
      }
    }
  }
}
