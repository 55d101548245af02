import type { ActionSpec, GoalSpec, WorldState } from "../../src/core/index.js";

/**
 * A deliberately naive uniform-cost search over plain objects, used as the
 * ground truth for optimality. Tracks `canRerun: false` actions per path.
 */
export function referenceCost(start: WorldState, goal: GoalSpec, actions: readonly ActionSpec[], limit = 200_000): number | null {
  type Node = { state: WorldState; used: string[]; g: number };
  const key = (n: Node) =>
    JSON.stringify([
      Object.keys(n.state)
        .sort()
        .map((k) => [k, n.state[k]]),
      [...n.used].sort(),
    ]);
  const open: Node[] = [{ state: start, used: [], g: 0 }];
  const best = new Map<string, number>([[key(open[0]!), 0]]);
  let steps = 0;
  while (open.length > 0) {
    open.sort((a, b) => a.g - b.g);
    const node = open.shift()!;
    if (node.g > (best.get(key(node)) ?? Number.POSITIVE_INFINITY)) continue;
    if (goal.isSatisfied(node.state)) return node.g;
    if (++steps > limit) throw new Error("reference search limit reached");
    for (const a of actions) {
      if (!a.canRerun && node.used.includes(a.name)) continue;
      if (!a.isApplicable(node.state)) continue;
      const next: Node = {
        state: a.apply(node.state),
        used: a.canRerun ? node.used : [...node.used, a.name],
        g: node.g + a.getCost(node.state),
      };
      const k = key(next);
      if (next.g < (best.get(k) ?? Number.POSITIVE_INFINITY)) {
        best.set(k, next.g);
        open.push(next);
      }
    }
  }
  return null;
}
