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
 * What one plan step changes in the planning-relevant state: the keys it
 * sets (to their new values) and, rarely, the keys it leaves without a value.
 */
export interface PlanStepChange {
  readonly set: WorldState;
  readonly unset?: readonly string[];
}

/**
 * A plan as graph state keeps it: action names instead of actions, what
 * each step is expected to change (cut to the planning keys), and JSON
 * metadata. Actions are re-bound by name from the graph's action list, so a
 * plan restored from a checkpoint runs in a fresh graph instance.
 *
 * Expected states are kept as per-step changes from `startState`, so a
 * plan's size grows with its length and what it changes, not with length ×
 * state size (checkpoints rewrite it at every step). Read whole expected
 * states with {@link expectedStatesOf}.
 */
export interface PlanData {
  readonly actions: readonly string[];
  /** What each step changes, in order, starting from `startState` (or from `{}` when there is none). */
  readonly expectedChanges?: readonly PlanStepChange[];
  /** Whole expected states after each step: plans saved by earlier versions; new plans keep `expectedChanges`. */
  readonly expectedStates?: readonly WorldState[];
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

/** What changes on `keys` from `before` (none: no facts) to `after`, in the order of `keys`. */
function changeBetween(before: Readonly<WorldState> | undefined, after: Readonly<WorldState>, keys: readonly string[]): PlanStepChange {
  const set: WorldState = {};
  const unset: string[] = [];
  for (const key of keys) {
    const next = factOf(after, key);
    const previous = before ? factOf(before, key) : undefined;
    if (next === undefined) {
      if (previous !== undefined) unset.push(key);
    } else if (previous === undefined || !sameJson(previous, next)) set[key] = next as WorldState[string];
  }
  return unset.length > 0 ? { set, unset } : { set };
}

/**
 * The checkpoint-safe form of `plan`, keeping only `keys` of each expected
 * state (and of `start`, the state it was made from). Steps are compared on
 * the facts as they are, key by key (state values are JSON already), and
 * only what changes is copied to JSON: a long plan over a large state costs
 * its length times the keys, not a JSON round trip of every whole state.
 */
export function planToData(plan: Plan, keys: readonly string[], start?: Readonly<WorldState>): PlanData {
  const startState = start ? toJsonValue<WorldState>(pick(start, keys)) : undefined;
  let before: Readonly<WorldState> | undefined = start;
  const expectedChanges = plan.expectedStates.map((state) => {
    const change = changeBetween(before, state, keys);
    before = state;
    return toJsonValue<PlanStepChange>(change);
  });
  return {
    actions: plan.actionNames,
    expectedChanges,
    ...(startState ? { startState } : {}),
    totalCost: plan.totalCost,
    score: scoreToJson(plan.score),
    metadata: toJsonValue<Record<string, unknown>>(plan.metadata) ?? {},
  };
}

const expandedStates = new WeakMap<PlanData, readonly WorldState[]>();

/**
 * The planning-relevant state expected after each step of `data`, whichever
 * form it was saved in (computed once per plan object).
 *
 * @example
 * ```ts
 * expectedStatesOf(result.plan!); // [{ wood: 2 }, { wood: 4 }, { wood: 4, house: true }]
 * ```
 */
export function expectedStatesOf(data: PlanData): readonly WorldState[] {
  if (data.expectedStates) return data.expectedStates;
  const cached = expandedStates.get(data);
  if (cached) return cached;
  let state: WorldState = { ...(data.startState ?? {}) };
  const states = (data.expectedChanges ?? []).map((change) => {
    state = { ...state, ...change.set };
    for (const key of change.unset ?? []) delete state[key];
    return state;
  });
  expandedStates.set(data, states);
  return states;
}

/**
 * Rebuilds a {@link Plan} from its data, re-binding each action by name.
 * An unknown name is an error naming it and the known actions.
 */
export function planFromData(data: PlanData, actionsByName: ReadonlyMap<string, ActionSpec>): Plan {
  const actions = data.actions.map((name) => bindAction(name, actionsByName));
  return new Plan({
    actions,
    expectedStates: expectedStatesOf(data),
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
  const states = step > 0 ? expectedStatesOf(plan) : [];
  const expected = step === 0 ? plan.startState : step <= states.length ? states[step - 1] : undefined;
  if (!expected) return false;
  return keys.some((key) => !sameJson(world[key], expected[key]));
}
