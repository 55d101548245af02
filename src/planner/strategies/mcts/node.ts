import type { ActionSpec } from "../../../core/action.js";
import type { WorldState } from "../../../core/facts.js";

/** Why a decision node ends the search below it. */
export type TerminalKind = "goal" | "dead-end";

/**
 * A state in the search graph, where the agent chooses an action. States
 * are shared (a transposition table): every path reaching the same state
 * meets the same node, so its statistics pool all that was learned about
 * it. `value` estimates the discounted return from it: the running mean of
 * returns (mean backups) or its best action's value (Bellman backups).
 * @internal
 */
export class DecisionNode {
  readonly kind = "decision" as const;
  /** Actions tried from here. */
  readonly edges: Edge[] = [];
  visits = 0;
  value = 0;

  constructor(
    readonly id: number,
    readonly state: WorldState,
    readonly key: string,
    /** Names of `canRerun: false` actions already used on the way here. */
    readonly spent: ReadonlySet<string>,
    /** Applicable actions not tried yet. */
    public untried: ActionSpec[],
    public terminal: TerminalKind | null,
  ) {}
}

/**
 * An action taken in a decision node, with its own statistics (so UCB1
 * ranks actions of this state, whoever else reaches their outcomes). Its
 * outcomes are the states it led to: one under a deterministic model, one
 * per sampled outcome under a stochastic one (a chance node).
 * @internal
 */
export class Edge {
  readonly kind = "edge" as const;
  readonly outcomes = new Map<string, DecisionNode>();
  /** Times each outcome (by state key) was followed. */
  readonly counts = new Map<string, number>();
  /** The model's probability of each outcome (by state key), when the model gives a distribution. */
  probabilities: Map<string, number> | null = null;
  visits = 0;
  value = 0;

  constructor(
    readonly from: DecisionNode,
    readonly action: ActionSpec,
  ) {}
}

/** A node's current value. @internal */
export const nodeValue = (node: DecisionNode): number => node.value;

/**
 * An action's value: the discounted average of its outcomes' values
 * (`outcomeValue`), weighted by the model's probabilities when it gives them
 * all (exact), else by how often each outcome occurred; an action with no
 * outcome followed yet keeps its own value.
 * @internal
 */
export function actionValue(edge: Edge, discount: number, outcomeValue: (node: DecisionNode) => number): number {
  let expected = 0;
  let total = 0;
  const weights = edge.probabilities;
  if (weights !== null && weights.size === edge.outcomes.size) {
    for (const [key, probability] of weights) expected += probability * outcomeValue(edge.outcomes.get(key) as DecisionNode);
    return discount * expected;
  }
  for (const [key, count] of edge.counts) {
    const weight = weights?.get(key) ?? count;
    expected += weight * outcomeValue(edge.outcomes.get(key) as DecisionNode);
    total += weight;
  }
  return total > 0 ? (discount * expected) / total : edge.value;
}

/**
 * The action to recommend: under mean backups the most-visited edge (the
 * Kocsis–Szepesvári "robust child"; ties to the higher mean), under
 * Bellman backups the highest value (ties to more visits). Unvisited
 * edges are never recommended.
 * @internal
 */
export function recommendedEdge(edges: readonly Edge[], backup: "bellman" | "mean"): Edge | undefined {
  let best: Edge | undefined;
  for (const edge of edges) {
    if (edge.visits === 0) continue;
    if (best === undefined) best = edge;
    else if (
      backup === "mean"
        ? edge.visits > best.visits || (edge.visits === best.visits && edge.value > best.value)
        : edge.value > best.value || (edge.value === best.value && edge.visits > best.visits)
    )
      best = edge;
  }
  return best;
}

/**
 * Scales every visit count of a search graph by `decay` (rounded), keeping
 * the means: old evidence still guides the next search but weighs less than
 * new (Soemers & Winands, tree reuse with decay).
 * @internal
 */
export function decayGraph(nodes: Iterable<DecisionNode>, decay: number): void {
  for (const node of nodes) {
    node.visits = Math.round(node.visits * decay);
    for (const edge of node.edges) {
      edge.visits = Math.round(edge.visits * decay);
      // Outcome frequencies keep their proportions (a count never drops to 0: the outcome was seen).
      for (const [key, count] of edge.counts) edge.counts.set(key, Math.max(1, Math.round(count * decay)));
    }
  }
}
