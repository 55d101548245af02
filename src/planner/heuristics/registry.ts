/**
 * The registered heuristics, as Fast Downward's plugins: `HeuristicName`,
 * the option check, the CLI's list and the search's laziness and
 * admissibility all come from here. To add a heuristic, declare it in a
 * file of this folder with `defineHeuristic` and list it below.
 * @internal
 */
import type { CompiledProblem } from "../compiled-problem.js";
import { goalCount } from "./goal-count.js";
import { hadd } from "./hadd.js";
import type { Heuristic, HeuristicContext, HeuristicPlugin } from "./heuristic.js";
import { hff } from "./hff.js";
import { hmax } from "./hmax.js";
import { lmcut } from "./lmcut.js";
import { opcount } from "./opcount.js";
import type { RelaxedModel } from "./relaxed-model.js";
import { zero } from "./zero.js";

/** Every heuristic, in the order option errors list them. */
export const HEURISTICS = Object.freeze([zero, goalCount, hmax, hadd, hff, lmcut, opcount] as const);

/**
 * The name of a registered heuristic: the heuristics of the A* planner.
 * `hmax`, `lmcut` (landmark cuts: sums disjoint landmarks, far fewer
 * states on large problems, dearer per state), `opcount` and `zero` are
 * admissible; `hadd`, `hff` and `goal-count` trade optimality for speed.
 */
export type HeuristicName = (typeof HEURISTICS)[number]["name"];

/** The registered names, in {@link HEURISTICS} order. */
export const HEURISTIC_NAMES: readonly HeuristicName[] = Object.freeze(HEURISTICS.map((h) => h.name));

// Looked up by every plan (admissibility decides pruning): a map, not a search of the list.
const BY_NAME: ReadonlyMap<string, HeuristicPlugin<HeuristicName>> = new Map(HEURISTICS.map((h) => [h.name, h]));

/** True when `name` names a registered heuristic. */
export function isHeuristicName(name: unknown): name is HeuristicName {
  return typeof name === "string" && BY_NAME.has(name);
}

/** The registered heuristic `name` (a registered name: options are checked before). */
export function heuristicNamed(name: HeuristicName): HeuristicPlugin<HeuristicName> {
  const plugin = BY_NAME.get(name);
  if (!plugin) throw new Error(`internal error: no heuristic named ${String(name)}`);
  return plugin;
}

/** Builds heuristic `name` in `context`, with the plugin's declared properties. */
export function heuristicIn(name: HeuristicName, context: HeuristicContext): Heuristic {
  const plugin = heuristicNamed(name);
  return { ...plugin.create(context), name: plugin.name, lazy: plugin.lazy, provesDeadEnds: plugin.provesDeadEnds };
}

/** A context whose kept parts live as long as the context (for callers without a compiled-problem cache). */
export function heuristicContext(p: CompiledProblem, model: RelaxedModel, parts = new Map<string, unknown>()): HeuristicContext {
  return {
    p,
    model,
    kept<T>(key: string, build: () => T): T {
      if (!parts.has(key)) parts.set(key, build());
      return parts.get(key) as T;
    },
  };
}

/** Builds heuristic `name` for `p` on its own (tests, explanations): nothing is shared with other searches. */
export function createHeuristic(name: HeuristicName, p: CompiledProblem, model: RelaxedModel): Heuristic {
  return heuristicIn(name, heuristicContext(p, model));
}
