import type { ActionSpec } from "../../../core/action.js";
import type { WorldState } from "../../../core/facts.js";
import { type BudgetExhaustion, budgetExhaustion } from "../../budget.js";
import { Plan } from "../../plan.js";
import type { ExtractionSource } from "./extract.js";
import type { HorizonPolicy } from "./horizon.js";
import { type DecisionNode, recommendedEdge } from "./node.js";

/**
 * Why an MCTS search stopped iterating, in `plan.metadata.stopReason`:
 * `"iterations"` (the iteration budget ran out: the same seed gives the same
 * plan on any machine), `"terminal"` (the start is a dead end or the goal:
 * nothing left to search), `"time"` (`wallClockMs` ended the iterations or
 * exact mode's exploration of the graph: the plan depends on the machine's
 * speed), `"signal"` (the caller's `AbortSignal` fired).
 */
export type MctsStopReason = "iterations" | "terminal" | "time" | "signal";

/**
 * True when `table` proves the goal unreachable from every state in it:
 * no state meets the goal, every applicable action of every state was
 * tried, and every outcome of every try is in the graph (under a sampling
 * model only when the model's full distribution was laid out). @internal
 */
export function exploredWithoutGoal(table: ReadonlyMap<string, DecisionNode>, stochastic: boolean): boolean {
  for (const node of table.values()) {
    if (node.terminal === "goal" || node.untried.length > 0) return false;
    if (stochastic && node.edges.some((edge) => edge.probabilities === null)) return false;
  }
  return true;
}

/** The figures of a search that ran out of iterations or time without finding a path to the goal. @internal */
export function iterationBudget(
  outOfTime: boolean,
  iterations: number,
  wallClockMs: number,
  done: number,
  states: number,
  elapsedMs: number,
): BudgetExhaustion {
  const figures = budgetExhaustion(
    outOfTime ? "time" : "expansions",
    { maxNodes: Number.POSITIVE_INFINITY, maxExpansions: iterations, timeBudgetMs: wallClockMs },
    { nodesExpanded: done, nodesStored: states, elapsedMs },
  );
  const which = outOfTime ? `its time budget (wallClockMs ${wallClockMs})` : `its iteration budget (iterations ${iterations})`;
  return {
    ...figures,
    message: `MCTS stopped by ${which} after ${done} iterations and ${states} states in its graph (${Math.round(elapsedMs)} ms) without finding a path to the goal; the goal may still be reachable: raise iterations or wallClockMs, or plan with A*`,
  };
}

/**
 * The plan MCTS found, with what the search learned in its metadata (the
 * root's recommended action's value, how the plan was read, why the search
 * stopped, exact mode's sweeps and horizon). @internal
 */
export function buildPlan(
  strategy: string,
  backup: "bellman" | "mean",
  start: Readonly<WorldState>,
  path: { actions: ActionSpec[]; states: WorldState[]; reachesGoal: boolean; source: ExtractionSource },
  facts: {
    iterations: number;
    nodesGenerated: number;
    elapsed: number;
    reusedTree: boolean;
    graphSize: number;
    root: DecisionNode;
    /** Value-iteration sweeps after the search (exact mode). */
    sweeps: number;
    /** Whether exact mode explored every state and action. */
    closed: boolean;
    stopReason: MctsStopReason;
    /** The finite-horizon policy that chose the actions, when a horizon was known and the graph small enough. */
    policy: HorizonPolicy | undefined;
    /** The horizon known to the search (option or context), when the value iteration ran. */
    horizon: number | undefined;
  },
): Plan {
  let totalCost = 0;
  let before: Readonly<WorldState> = start;
  path.actions.forEach((action, i) => {
    totalCost += action.getCost(before);
    before = path.states[i] as WorldState;
  });
  const best = facts.policy ? facts.policy.choose(facts.root, facts.policy.horizon) : recommendedEdge(facts.root.edges, backup);
  return new Plan({
    actions: path.actions,
    expectedStates: path.states,
    startState: { ...start },
    totalCost,
    metadata: {
      strategy,
      nodesExpanded: facts.iterations,
      nodesGenerated: facts.nodesGenerated,
      planningTimeMs: facts.elapsed,
      iterations: facts.iterations,
      rootVisits: facts.root.visits,
      expectedReturn: best?.value ?? 0,
      extraction: path.source,
      partial: !path.reachesGoal,
      reusedTree: facts.reusedTree,
      graphSize: facts.graphSize,
      stopReason: facts.stopReason,
      ...(facts.sweeps > 0 ? { valueIterationSweeps: facts.sweeps, exploredEveryState: facts.closed } : {}),
      ...(facts.horizon !== undefined ? { horizon: facts.horizon, horizonLayers: facts.policy?.layers ?? 0 } : {}),
    },
  });
}
