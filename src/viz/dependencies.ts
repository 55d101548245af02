import type { ActionSpec } from "../core/index.js";

/**
 * The causal links of a plan: step `j` depends on step `i` when `i` is the
 * last step before `j` that writes a key `j`'s preconditions read. Steps
 * with no such writer depend only on the start state. Returned as the
 * sorted predecessor indices of every step.
 *
 * Reading "last writer" rather than "last writer of the exact value" keeps
 * operator conditions (`wood >= 3` after two `inc` effects) and function
 * effects linked too: any earlier write may be what made the condition true.
 *
 * @example
 * ```ts
 * planDependencies([goToTree, chopWood, goToCampfire, cookFood]);
 * // [[], [0], [], [1, 2]]
 * ```
 */
export function planDependencies(actions: readonly ActionSpec[]): number[][] {
  const lastWriter = new Map<string, number>();
  return actions.map((action, j) => {
    const predecessors = new Set<number>();
    for (const key of Object.keys(action.preconditions)) {
      const writer = lastWriter.get(key);
      if (writer !== undefined) predecessors.add(writer);
    }
    for (const key of action.effectKeys) lastWriter.set(key, j);
    return [...predecessors].sort((a, b) => a - b);
  });
}
