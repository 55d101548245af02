import {
  type ActionSpec,
  factOf,
  LangGoapError,
  type ScoreJson,
  SimpleScore,
  scoreFromJson,
  scoreToJson,
  type WorldState,
} from "../core/index.js";
import { Plan } from "../planner/index.js";
import { sameJson, toJsonValue } from "./json.js";

/** A score as JSON. */
export type ScoreData = ScoreJson;

/**
 * A plan as graph state keeps it: action names instead of actions, expected
 * states cut to the planning keys, and JSON metadata. Actions are re-bound
 * by name from the graph's action list, so a plan restored from a checkpoint
 * runs in a fresh graph instance.
 */
export interface PlanData {
  readonly actions: readonly string[];
  /** The planning-relevant part of the state expected after each action. */
  readonly expectedStates: readonly WorldState[];
  /** The planning-relevant part of the state the plan starts from (absent in plans saved by older versions). */
  readonly startState?: WorldState;
  readonly totalCost: number;
  readonly score: ScoreData;
  readonly metadata: Readonly<Record<string, unknown>>;
}

function pick(state: Readonly<WorldState>, keys: readonly string[]): WorldState {
  const out: WorldState = {};
  for (const key of keys) if (factOf(state, key) !== undefined) out[key] = state[key];
  return out;
}

/** The checkpoint-safe form of `plan`, keeping only `keys` of each expected state (and of `start`, the state it was made from). */
export function planToData(plan: Plan, keys: readonly string[], start?: Readonly<WorldState>): PlanData {
  return {
    actions: plan.actionNames,
    expectedStates: plan.expectedStates.map((s) => toJsonValue<WorldState>(pick(s, keys))),
    ...(start ? { startState: toJsonValue<WorldState>(pick(start, keys)) } : {}),
    totalCost: plan.totalCost,
    score: scoreToJson(plan.score),
    metadata: toJsonValue<Record<string, unknown>>(plan.metadata) ?? {},
  };
}

/**
 * Rebuilds a {@link Plan} from its data, re-binding each action by name.
 * An unknown name is an error naming it and the known actions.
 */
export function planFromData(data: PlanData, actionsByName: ReadonlyMap<string, ActionSpec>): Plan {
  const actions = data.actions.map((name) => bindAction(name, actionsByName));
  return new Plan({
    actions,
    expectedStates: data.expectedStates,
    totalCost: data.totalCost,
    score: scoreFromJson(data.score, new SimpleScore(data.totalCost)),
    metadata: data.metadata as Plan["metadata"],
  });
}

/** The live action called `name`. */
export function bindAction(name: string, actionsByName: ReadonlyMap<string, ActionSpec>): ActionSpec {
  const action = actionsByName.get(name);
  if (action) return action;
  throw new LangGoapError(
    "UNKNOWN_ACTION",
    `the plan in graph state names action "${name}", which this graph does not have; known actions: [${[...actionsByName.keys()].join(", ")}]`,
    { action: name },
  );
}

/**
 * @internal True when `world` differs on `keys` from what `plan` expects
 * before step `step` (after step `step - 1`; the start state for step 0).
 * Unknown expectations (a step out of range, an old plan without a start
 * state) never count as a deviation.
 */
export function deviatesFromPlan(world: Readonly<WorldState>, plan: PlanData, step: number, keys: readonly string[]): boolean {
  const expected =
    step === 0 ? plan.startState : step > 0 && step <= plan.expectedStates.length ? plan.expectedStates[step - 1] : undefined;
  if (!expected) return false;
  return keys.some((key) => !sameJson(world[key], expected[key]));
}
