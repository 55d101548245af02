import type { ActionSpec } from "../core/index.js";
import { GoapExecutor } from "./executor.js";
import { nextWave } from "./waves.js";

/**
 * An executor that runs the next group of mutually independent plan steps
 * concurrently. Steps are independent when neither writes what a later one
 * reads or writes (see `dependsOn`). Each action runs on a snapshot of the
 * wave-start state; results merge in plan order. Guards and human approvals
 * for the whole wave come first, and one failure aborts the wave (siblings
 * see their `signal` abort; their finished work is kept).
 *
 * @example
 * ```ts
 * const graph = new GoapGraph(actions, { parallel: true });
 * ```
 */
export class ParallelGoapExecutor extends GoapExecutor {
  protected override selectWave(actions: readonly ActionSpec[], start: number): number[] {
    return nextWave(actions, start);
  }
}
