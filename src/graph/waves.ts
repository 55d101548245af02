import type { ActionSpec } from "../core/index.js";

function intersects(a: ReadonlySet<string>, b: Iterable<string>): boolean {
  for (const x of b) if (a.has(x)) return true;
  return false;
}

/**
 * True when `later` must wait for `earlier`: `earlier` writes a key that
 * `later` reads (a precondition) or also writes (running both on the same
 * snapshot would lose one write, e.g. two increments).
 */
export function dependsOn(earlier: ActionSpec, later: ActionSpec): boolean {
  return intersects(earlier.effectKeys, Object.keys(later.preconditions)) || intersects(earlier.effectKeys, later.effectKeys);
}

/**
 * For each plan step, the earlier steps it depends on (see {@link dependsOn}).
 *
 * @example
 * ```ts
 * planDependencies([research, write, illustrate]); // [[], [0], [0]]
 * ```
 */
export function planDependencies(actions: readonly ActionSpec[]): number[][] {
  return actions.map((later, j) => actions.slice(0, j).flatMap((earlier, i) => (dependsOn(earlier, later) ? [i] : [])));
}

/**
 * The next wave: steps from `start` on that can run together, each
 * independent of every step already in the wave; the wave stops at the
 * first step that depends on one of them, so plan order is kept.
 *
 * @example
 * ```ts
 * nextWave([fetchA, fetchB, merge], 0); // [0, 1]
 * ```
 */
export function nextWave(actions: readonly ActionSpec[], start: number): number[] {
  const wave = [start];
  for (let j = start + 1; j < actions.length; j++) {
    const candidate = actions[j] as ActionSpec;
    if (wave.some((i) => dependsOn(actions[i] as ActionSpec, candidate))) break;
    wave.push(j);
  }
  return wave;
}
