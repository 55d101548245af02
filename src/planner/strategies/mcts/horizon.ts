import { GOAL_REWARD } from "./evaluate.js";
import { actionValue, type DecisionNode, type Edge } from "./node.js";

/** The best action of each state for each number of steps left, after {@link settleWithinHorizon}. @internal */
export interface HorizonPolicy {
  /** The horizon asked for. */
  readonly horizon: number;
  /** Layers computed (steps left 1..layers); fewer than `horizon` only when values stopped moving. */
  readonly layers: number;
  /** True when the layers stopped moving before the horizon: every further layer is the same. */
  readonly converged: boolean;
  /** The action to take in `node` with `stepsLeft` actions left, or undefined (no action left, no tried action, or none counted). */
  choose(node: DecisionNode, stepsLeft: number): Edge | undefined;
}

/**
 * Finite-horizon value iteration over the search graph: with `k` actions
 * left, a state is worth its best action's discounted average over its
 * outcomes' values with `k - 1` left; the goal is worth its return and a
 * dead end its (negative) return whenever reached, any other state nothing
 * once no action is left (a goal reached after the horizon is worth
 * nothing, and so is a dead end). A state not searched yet keeps its
 * estimate while actions are left.
 *
 * Layers are computed from 0 steps left up to `horizon`, at most
 * `maxUpdates` action updates in all; when a layer equals the one before
 * (within `tolerance`) every later one would too, and the computation
 * stops early. Leaves every tried edge and expanded state with its value at
 * the full horizon, so the statistics tell the same story as the policy.
 * Returns null, changing nothing, when the budget runs out before the
 * horizon: a policy that looks fewer steps ahead than it has would count a
 * reachable goal as worth nothing, worse than ignoring the limit.
 * @internal
 */
export function settleWithinHorizon(
  table: ReadonlyMap<string, DecisionNode>,
  options: { readonly horizon: number; readonly discount: number; readonly deadEndReturn: number },
  maxUpdates = 300_000,
  tolerance = 1e-12,
): HorizonPolicy | null {
  const all = [...table.values()];
  const index = new Map(all.map((node, i) => [node, i]));
  const inner = all.filter((node) => node.terminal === null && node.edges.some((edge) => edge.visits > 0));
  const innerSet = new Set(inner);
  let edges = 0;
  for (const node of inner) edges += node.edges.length;
  const layers = Math.min(options.horizon, Math.floor(maxUpdates / Math.max(1, edges)));
  if (layers < 1) return null;
  // No action left: only what was already reached counts.
  let values = Float64Array.from(all, (node) =>
    node.terminal === "goal" ? GOAL_REWARD : node.terminal === "dead-end" ? options.deadEndReturn : 0,
  );
  let before = values;
  // best[(k - 1) * inner.length + j]: the index in inner[j].edges of its best action with k steps left, -1 for none.
  const best = new Int32Array(layers * inner.length).fill(-1);
  const valueIn = (layer: Float64Array) => (node: DecisionNode) => layer[index.get(node) as number] as number;
  let done = 0;
  let converged = false;
  while (done < layers) {
    const read = valueIn(values);
    // With actions left, a state with no tried action keeps its estimate (a leaf of the search).
    const next = Float64Array.from(all, (node, i) => (node.terminal === null && !innerSet.has(node) ? node.value : (values[i] as number)));
    let moved = 0;
    for (let j = 0; j < inner.length; j++) {
      const node = inner[j] as DecisionNode;
      let top = Number.NEGATIVE_INFINITY;
      for (let e = 0; e < node.edges.length; e++) {
        const edge = node.edges[e] as Edge;
        if (edge.visits === 0) continue;
        const q = actionValue(edge, options.discount, read);
        if (q > top) {
          top = q;
          best[done * inner.length + j] = e;
        }
      }
      const i = index.get(node) as number;
      moved = Math.max(moved, Math.abs(top - (values[i] as number)));
      next[i] = top;
    }
    done++;
    before = values;
    values = next;
    // Leaves change between the first two layers only; after that, a layer equal to the last repeats forever.
    if (done > 1 && moved < tolerance) {
      converged = true;
      break;
    }
  }
  if (!converged && done < options.horizon) return null;
  // The statistics at the full horizon (the last layer computed stands for every later one).
  const readBefore = valueIn(before);
  for (const node of inner) {
    for (const edge of node.edges) if (edge.visits > 0) edge.value = actionValue(edge, options.discount, readBefore);
    node.value = values[index.get(node) as number] as number;
  }
  const slot = new Map(inner.map((node, j) => [node, j]));
  return {
    horizon: options.horizon,
    layers: done,
    converged,
    choose(node, stepsLeft) {
      const j = slot.get(node);
      if (j === undefined || stepsLeft < 1) return undefined;
      const layer = Math.min(stepsLeft, done) - 1;
      const e = best[layer * inner.length + j] as number;
      return e < 0 ? undefined : node.edges[e];
    },
  };
}
