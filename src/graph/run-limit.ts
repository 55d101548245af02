import { type GoapState, runRecordCount } from "./state.js";

/**
 * A run's superstep allowance beyond what its plan needs: a run ends
 * `terminated` (reason `recursion_limit`) once it has taken this many
 * supersteps more than twice its current plan's length (each action counts
 * as an executor and an observer superstep, also when it went straight on to
 * the next step without an observer), so a plan of any length runs to
 * its end while a run that loops without progress stops with its history.
 */
export const DEFAULT_GOAP_RECURSION_LIMIT = 10_000;

/**
 * LangGraph's own superstep limit on compiled GOAP graphs: none in
 * practice, as the observer bounds each run ({@link runLimitReached}).
 */
export const COMPILED_RECURSION_LIMIT = Number.MAX_SAFE_INTEGER;

/**
 * @internal The reason a run has outgrown its superstep allowance, or
 * null. Supersteps are counted from the state (two per executed record,
 * one per planning round), so the count survives checkpoints and resumes.
 */
export function runLimitReached(
  state: Pick<GoapState, "executionHistory" | "historyBefore" | "replanCount" | "currentSubgoalIndex" | "plan">,
  allowance: number,
): string | null {
  const used = 2 * runRecordCount(state) + state.replanCount + state.currentSubgoalIndex + 1;
  const allowed = allowance + 2 * (state.plan?.actions.length ?? 0);
  if (used <= allowed) return null;
  return `recursion_limit: the run took about ${used} supersteps, over its allowance of ${allowance} beyond twice its plan's length`;
}
