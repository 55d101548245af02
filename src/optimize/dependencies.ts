import type { ActionSpec } from "../core/action.js";
import { type Condition, isOperatorCondition, testCondition } from "../core/conditions.js";
import { type Effect, isOperatorEffect } from "../core/effects.js";
import type { WorldState } from "../core/facts.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { Plan } from "../planner/index.js";

/** Which orderings {@link buildDependencyGraph} keeps. */
export type DependencyMode = "producers" | "safe";

/** Options of {@link buildDependencyGraph}. */
export interface DependencyOptions {
  /**
   * `producers`: an action waits only for the nearest earlier producer of
   * each of its preconditions (LangGOAP's rule). `safe` adds the orderings
   * that keep a parallel run equivalent to the plan: actions writing the
   * same key keep their order, and an action that overwrites a key waits for
   * the earlier actions that read it.
   * @defaultValue "safe"
   */
  readonly mode?: DependencyMode;
}

/** For each step of a plan, the steps it must wait for (ascending indices). */
export type DependencyGraph = readonly (readonly number[])[];

/**
 * True when `action` can make `key` satisfy `condition`: judged on the
 * state right after it when the plan carries one, otherwise on its declared
 * effect (an assignment is tested; `inc`/`dec` can move a number into a
 * numeric range; a function effect that declares the key may write anything).
 */
function canProduce(action: ActionSpec, key: string, condition: Condition, after: WorldState | undefined): boolean {
  if (!action.effectKeys.has(key)) return false;
  if (after !== undefined) return testCondition(after[key], condition);
  const effects = action.staticEffects;
  if (effects === undefined) return true;
  const effect = effects[key] as Effect;
  if (!isOperatorEffect(effect)) return testCondition(effect, condition);
  if (effect.set !== undefined) return testCondition(effect.set, condition);
  if (!isOperatorCondition(condition)) return typeof condition === "number";
  if (effect.inc !== undefined) return condition.gt !== undefined || condition.gte !== undefined || condition.eq !== undefined;
  return condition.lt !== undefined || condition.lte !== undefined || condition.eq !== undefined;
}

const DEPENDENCY_OPTIONS_KEYS = { mode: true } as const satisfies OptionKeys<DependencyOptions>;

/**
 * The precedence graph of a plan: step `j` depends on the nearest earlier
 * step whose effects make each of `j`'s preconditions true (a
 * precondition nobody earlier produces held at the start and adds no
 * edge). In the default `safe` mode, write-after-write and
 * write-after-read orderings are added too, so that running independent
 * steps in parallel can never change what the plan does.
 *
 * @example
 * ```ts
 * // fetch -> (parseA, parseB) -> merge
 * buildDependencyGraph(plan); // [[], [0], [0], [1, 2]]
 * ```
 */
export function buildDependencyGraph(plan: Plan, options: DependencyOptions = {}): DependencyGraph {
  checkOptionKeys(options, DEPENDENCY_OPTIONS_KEYS, "buildDependencyGraph()");
  const mode = options.mode ?? "safe";
  const { actions } = plan;
  const states = plan.expectedStates.length === actions.length ? plan.expectedStates : undefined;
  const graph: Set<number>[] = actions.map(() => new Set<number>());
  for (let j = 0; j < actions.length; j++) {
    const action = actions[j] as ActionSpec;
    for (const [key, condition] of Object.entries(action.preconditions)) {
      for (let i = j - 1; i >= 0; i--) {
        if (canProduce(actions[i] as ActionSpec, key, condition, states?.[i])) {
          graph[j]?.add(i);
          break;
        }
      }
    }
    if (mode === "producers") continue;
    for (const key of action.effectKeys) {
      let lastWriter = -1;
      for (let i = j - 1; i >= 0; i--) {
        if ((actions[i] as ActionSpec).effectKeys.has(key)) {
          lastWriter = i;
          break;
        }
      }
      if (lastWriter >= 0) graph[j]?.add(lastWriter);
      // Readers before the last writer already precede it, hence this step.
      for (let i = Math.max(lastWriter + 1, 0); i < j; i++) {
        if (key in (actions[i] as ActionSpec).preconditions) graph[j]?.add(i);
      }
    }
  }
  return Object.freeze(graph.map((set) => Object.freeze([...set].sort((a, b) => a - b))));
}

/** Earliest start of each step and the makespan when nothing limits parallelism. */
export interface CriticalPath {
  readonly earliestStart: readonly number[];
  readonly makespan: number;
}

/**
 * Longest-path start times over a dependency graph whose edges point to
 * earlier steps (so index order is a topological order).
 *
 * @example
 * ```ts
 * criticalPath([2, 3, 1], [[], [0], [0]]).makespan; // 5
 * ```
 */
export function criticalPath(durations: readonly number[], predecessors: DependencyGraph): CriticalPath {
  const earliestStart = durations.map(() => 0);
  let makespan = 0;
  for (let j = 0; j < durations.length; j++) {
    let start = 0;
    for (const i of predecessors[j] ?? []) start = Math.max(start, (earliestStart[i] as number) + (durations[i] as number));
    earliestStart[j] = start;
    makespan = Math.max(makespan, start + (durations[j] as number));
  }
  return { earliestStart: Object.freeze(earliestStart), makespan };
}
