import type { ActionSpec } from "../../../core/action.js";
import type { WeightedState } from "./analysis.js";
import { spendAction } from "./evaluate.js";
import { actionValue, type DecisionNode, Edge, nodeValue } from "./node.js";
import type { MctsSearch } from "./search.js";

// Exact mode's work on the whole search graph, after the sampled iterations.

/**
 * Exact mode on a small problem: tries every untried action of every
 * state in `search`'s graph and lays out its outcomes, breadth first. Returns
 * `"closed"` when no state is left unexplored (value iteration over the
 * graph is then the exact optimum, whatever the sampled iterations
 * visited), `"full"` when the graph holds `maxNodes` states (or the model
 * lists no outcomes), and `"paused"` when `sliceEnd` (a
 * `performance.now()` time) passes: call again to go on. @internal
 */
export function closeGraph(search: MctsSearch, maxNodes: number, sliceEnd: number): "closed" | "full" | "paused" {
  const queue = [...search.table.values()];
  const queued = new Set(queue);
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i] as DecisionNode;
    if (node.terminal !== null) continue;
    while (node.untried.length > 0) {
      if (search.table.size >= maxNodes) return "full";
      if (performance.now() > sliceEnd) return "paused";
      const options = search.settings.analyze(node.state, node.spent);
      const index = options.outcomes ? options.actions.indexOf(node.untried[node.untried.length - 1] as ActionSpec) : -1;
      if (!options.outcomes || index < 0) return "full";
      const distribution = options.outcomes[index] as readonly WeightedState[];
      const action = node.untried.pop() as ActionSpec;
      const edge = new Edge(node, action);
      node.edges.push(edge);
      const spent = spendAction(node.spent, action);
      search.layOut(edge, distribution, spent, search.settings.keyOf((distribution[0] as WeightedState).state, spent));
      // Counted as tried, so value iteration reads it.
      edge.visits = 1;
      for (const outcome of edge.outcomes.values()) {
        if (queued.has(outcome)) continue;
        queued.add(outcome);
        queue.push(outcome);
      }
    }
  }
  return "closed";
}

/**
 * Value iteration over the explored graph: Bellman updates of every tried
 * action and every expanded state until values move less than
 * `tolerance`, or `maxSweeps` sweeps. A sampled backup refreshes only the
 * states on one path, so values elsewhere go stale; a few sweeps make
 * them agree before the root's action is chosen. Returns the sweeps made.
 * @internal
 */
export function settleGraph(
  table: ReadonlyMap<string, DecisionNode>,
  discount: number,
  maxSweeps: number,
  tolerance = 1e-6,
  maxUpdates = 300_000,
): number {
  const nodes = [...table.values()].filter((node) => node.terminal === null && node.edges.length > 0);
  let edges = 0;
  for (const node of nodes) edges += node.edges.length;
  const sweeps = Math.min(maxSweeps, Math.floor(maxUpdates / Math.max(1, edges)));
  for (let sweep = 1; sweep <= sweeps; sweep++) {
    let moved = 0;
    for (const node of nodes) {
      let best = Number.NEGATIVE_INFINITY;
      for (const edge of node.edges) {
        if (edge.visits === 0) continue;
        edge.value = actionValue(edge, discount, nodeValue);
        if (edge.value > best) best = edge.value;
      }
      if (best === Number.NEGATIVE_INFINITY) continue;
      moved = Math.max(moved, Math.abs(best - node.value));
      node.value = best;
    }
    if (moved < tolerance) return sweep;
  }
  return sweeps;
}
