/**
 * @internal A domain as a worker receives it: its actions' planning data
 * and a content key (SHA-256 of that data, in declaration order, which the
 * planner's tie-breaking depends on). Equal domains built separately share
 * a key, so a worker compiles each one once.
 */
import { createHash } from "node:crypto";
import { type ActionSpec, describeValue, LangGoapError } from "../core/index.js";
import type { ActionData } from "./wire.js";

export interface DomainPayload {
  readonly key: string;
  readonly data: readonly ActionData[];
  /** The caller's specs by name, to rebuild plans with them. */
  readonly byName: ReadonlyMap<string, ActionSpec>;
}

const dataOf = new WeakMap<ActionSpec, { readonly data: ActionData; readonly json: string }>();
const payloadOf = new WeakMap<readonly ActionSpec[], DomainPayload>();

/** Why an action cannot be planned in a worker, or null when it can. */
export function unserializableReason(action: ActionSpec): string | null {
  if (action.hasDynamicEffects) return `action "${action.name}" has an effect function`;
  if (action.hasDynamicCost) return `action "${action.name}" has a cost function`;
  return null;
}

function actionData(action: ActionSpec): { readonly data: ActionData; readonly json: string } {
  let entry = dataOf.get(action);
  if (entry === undefined) {
    const reason = unserializableReason(action);
    if (reason !== null) {
      throw new LangGoapError(
        "NOT_SERIALIZABLE",
        `PlannerPool: ${reason}; functions cannot cross to a worker thread. Plan this domain in-thread (planDetailedAsync), or create the pool with { unserializable: "in-thread" }`,
        { action: action.name },
      );
    }
    const data: ActionData = {
      name: action.name,
      preconditions: action.preconditions,
      effects: action.staticEffects ?? {},
      cost: action.cost as number,
      canRerun: action.canRerun,
    };
    entry = { data, json: JSON.stringify(data) };
    dataOf.set(action, entry);
  }
  return entry;
}

/**
 * The payload of `actions`. Frozen arrays are remembered by identity; other
 * arrays are read again on every call, since the caller may change them.
 */
export function domainPayload(actions: readonly ActionSpec[]): DomainPayload {
  const remembered = payloadOf.get(actions);
  if (remembered) return remembered;
  if (!Array.isArray(actions)) {
    throw new LangGoapError("INVALID_ACTION", `PlannerPool: expected an array of ActionSpec, got ${describeValue(actions)}`);
  }
  const hash = createHash("sha256");
  const data: ActionData[] = [];
  const byName = new Map<string, ActionSpec>();
  for (const action of actions) {
    if (typeof action?.hasDynamicEffects !== "boolean") {
      throw new LangGoapError("INVALID_ACTION", `PlannerPool: expected an ActionSpec, got ${describeValue(action)}`);
    }
    const entry = actionData(action);
    data.push(entry.data);
    byName.set(action.name, action);
    hash.update(entry.json).update("\n");
  }
  const payload: DomainPayload = { key: hash.digest("hex"), data, byName };
  if (Object.isFrozen(actions)) payloadOf.set(actions, payload);
  return payload;
}
