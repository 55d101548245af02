import type { ActionSpec } from "../core/action.js";
import { type Condition, testCondition } from "../core/conditions.js";
import type { WorldState } from "../core/facts.js";

/**
 * @internal The causal links drawn between plan steps: step `j` depends on
 * the nearest earlier step that writes a key `j`'s preconditions read and
 * leaves it satisfying the precondition (judged on the plan's expected
 * state after that step). A precondition no earlier step produces held at
 * the start and adds no link. Without expected states, the nearest earlier
 * writer of the key counts. Returns the sorted predecessors of every step.
 *
 * This is the "producers" reading of `buildDependencyGraph` in
 * `langgoap/optimize`, kept here because viz sits below optimize.
 *
 * @example
 * ```ts
 * planDependencies([goToTree, chopWood, goToCampfire, cookFood], states);
 * // [[], [0], [], [1, 2]]
 * ```
 */
export function planDependencies(actions: readonly ActionSpec[], expectedStates: readonly WorldState[] = []): number[][] {
  const states = expectedStates.length === actions.length ? expectedStates : undefined;
  return actions.map((action, j) => {
    const predecessors = new Set<number>();
    for (const [key, condition] of Object.entries(action.preconditions)) {
      for (let i = j - 1; i >= 0; i--) {
        if (!(actions[i] as ActionSpec).effectKeys.has(key)) continue;
        if (states && !testCondition((states[i] as WorldState)[key], condition as Condition)) continue;
        predecessors.add(i);
        break;
      }
    }
    return [...predecessors].sort((a, b) => a - b);
  });
}
