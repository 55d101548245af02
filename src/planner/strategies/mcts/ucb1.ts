/** What UCB1 and backpropagation read and write on a node. */
export interface NodeStatistics {
  visits: number;
  /** Running mean of the returns seen through this node. */
  value: number;
}

/**
 * UCB1 (Kocsis & Szepesvári): the mean return plus an exploration bonus,
 * `mean + c·sqrt(ln N / n)` with `N` the parent's visits and `n` the
 * child's. An unvisited child scores +Infinity so every child is tried
 * once. The mean is used as is (LangGOAP divides it by the visits again,
 * which penalises well-explored children; that is a bug we do not copy).
 *
 * @example
 * ```ts
 * ucb1({ visits: 10, value: 0.5 }, 100, Math.SQRT2); // 0.5 + 1.414·sqrt(ln 100 / 10) ≈ 1.46
 * ```
 */
export function ucb1(child: Readonly<NodeStatistics>, parentVisits: number, c: number): number {
  if (child.visits === 0) return Number.POSITIVE_INFINITY;
  if (parentVisits <= 1) return child.value;
  return child.value + c * Math.sqrt(Math.log(parentVisits) / child.visits);
}

/**
 * Adds one return to a node's running mean.
 *
 * @example
 * ```ts
 * const stats = { visits: 1, value: 1 };
 * recordReturn(stats, 0); // stats: { visits: 2, value: 0.5 }
 * ```
 */
export function recordReturn(node: NodeStatistics, reward: number): void {
  node.visits += 1;
  node.value += (reward - node.value) / node.visits;
}
