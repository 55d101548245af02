import type { GoapState, GoapStateUpdate } from "./state.js";

/**
 * @internal Actions out of the current (sub)goal for good: blacklisted
 * although a fallback already let them back in once (or although their
 * failure is one no fallback forgives).
 */
export function exhaustedActions(state: Pick<GoapState, "blacklistedActions" | "readmittedActions">): ReadonlySet<string> {
  const readmitted = new Set(state.readmittedActions);
  return new Set(state.blacklistedActions.filter((name) => readmitted.has(name)));
}

/**
 * @internal The update of a planning round whose plan needed blacklisted
 * actions: the blacklist and failure counts start over, as they always
 * have, so the readmitted actions get their retries once more; they are
 * remembered in `readmittedActions`, so a second blacklisting is final.
 * Exhausted actions stay blacklisted with their counts.
 */
export function fallbackUpdate(state: GoapState, exhausted: ReadonlySet<string>): GoapStateUpdate {
  const counts: Record<string, number> = {};
  for (const name of exhausted) counts[name] = state.actionFailureCounts[name] ?? 0;
  const readmitted = [...new Set([...state.readmittedActions, ...state.blacklistedActions])];
  return { blacklistedActions: [...exhausted], actionFailureCounts: counts, readmittedActions: readmitted };
}

/**
 * @internal Why a run ends when only exhausted actions lead to the goal,
 * naming each with its failures in this run and the last error, e.g.
 * `action_exhausted: "deploy" failed 2 times (last: cluster down), and no plan avoids it`.
 */
export function exhaustionReason(names: readonly string[], state: Pick<GoapState, "executionHistory">): string {
  const parts = names.map((name) => {
    const failures = state.executionHistory.filter((r) => r.actionName === name && !r.success);
    const last = failures[failures.length - 1]?.error ?? "unknown error";
    return `"${name}" failed ${failures.length} time${failures.length === 1 ? "" : "s"} (last: ${last})`;
  });
  return `action_exhausted: ${parts.join("; ")}, and no plan avoids ${names.length === 1 ? "it" : "them"}`;
}
