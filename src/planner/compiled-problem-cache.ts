/**
 * Compiled problems kept for reuse: planning the same actions toward the same
 * goal again (as per-frame planners do) only re-encodes the start state. An
 * entry also holds what its searches build lazily and reuse: the parts
 * heuristics keep (LM-cut's graph, the operator-counting program), the
 * relevance analysis and search arrays.
 * @internal
 */

import type { ActionSpec } from "../core/action.js";
import type { WorldState } from "../core/facts.js";
import type { SearchGoal } from "../core/search-goal.js";
import { compileSteps } from "./compile.js";
import type { CompiledProblem } from "./compiled-problem.js";
import { floatDerivedSteps } from "./float-index.js";
import type { HeuristicContext } from "./heuristics/heuristic.js";
import { heuristicContext } from "./heuristics/registry.js";
import { type RelaxedModel, relaxedModelSteps } from "./heuristics/relaxed-model.js";
import type { Pace } from "./pace.js";
import { relevanceOf, relevantEffectMasks } from "./relevance.js";
import { type BitLayout, bitLayoutOf } from "./search-bits.js";
import { type SearchSetup, SearchWorkspace } from "./search-setup.js";

/** A compiled domain kept for reuse: planning the same actions and goal again only re-encodes the start. */
export interface CompiledEntry {
  readonly actions: readonly ActionSpec[];
  readonly goalKey: string;
  readonly p: CompiledProblem;
  readonly model: RelaxedModel;
  readonly layout: BitLayout | null;
  /** Relevance analysis for the boolean engine: computed at the first search that wants it; `null` when it prunes nothing. */
  relevantBits?: SearchSetup["relevantBits"] | null;
  /** Relevance analysis for the float engine: computed at the first search that wants it; `null` when it prunes nothing. */
  relevantFloat?: SearchSetup["relevantFloat"] | null;
  /** Arrays reused by this problem's searches. */
  readonly workspace: SearchWorkspace;
  /** What heuristics build for this problem and keep for its later searches (see `HeuristicContext.kept`). */
  readonly heuristics: HeuristicContext;
  /** Interned values when it was compiled: only values interned since (new strings in start states) count against the cap. */
  readonly compiledValues: number;
  inUse: boolean;
}

const compiledCache = new WeakMap<ActionSpec, CompiledEntry[]>();
const ENTRIES_PER_DOMAIN = 8;
/** Values interned after compiling beyond which a cached problem is dropped (keys with unbounded string values). */
const MAX_INTERNED_VALUES = 4096;

/** Goal keys by conditions object: a goal's conditions are frozen, so its key never changes (one JSON per goal, not per plan). */
const goalKeys = new WeakMap<object, string>();

function goalKeyOf(conditions: SearchGoal["conditions"]): string {
  let key = goalKeys.get(conditions);
  if (key === undefined) {
    key = JSON.stringify(conditions);
    if (Object.isFrozen(conditions)) goalKeys.set(conditions, key);
  }
  return key;
}

function sameActions(a: readonly ActionSpec[], b: readonly ActionSpec[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A compiled problem for these (sorted) actions and goal, rebound to `start`:
 * a cached one not in use, or a new one compiled in slices and cached. The
 * caller owns it until {@link releaseCompiled}.
 */
export function* acquireCompiled(
  start: Readonly<WorldState>,
  goal: SearchGoal,
  sorted: readonly ActionSpec[],
  pace: Pace,
): Generator<void, CompiledEntry, void> {
  const goalKey = goalKeyOf(goal.conditions);
  const head = sorted[0];
  const list = head ? compiledCache.get(head) : undefined;
  if (list) {
    // A copy: the list may change while this call yields.
    for (const entry of [...list]) {
      // A cost or effect function may itself plan over the same domain: never share an entry that is in use.
      if (entry.inUse || entry.goalKey !== goalKey || !sameActions(entry.actions, sorted)) continue;
      // Taken while the start is encoded in slices: another planning call may run between two of them.
      entry.inUse = true;
      let bound = false;
      try {
        bound = yield* entry.p.rebindStartSteps(start, pace);
      } finally {
        if (!bound) entry.inUse = false;
      }
      if (bound) {
        entry.model.rebindStart(entry.p.start);
        return entry;
      }
    }
  }
  const p = yield* compileSteps(start, goal, sorted, pace);
  const model = yield* relaxedModelSteps(p, p.start, pace);
  yield* pace.check();
  const layout = bitLayoutOf(p);
  yield* pace.check();
  const workspace = new SearchWorkspace();
  // The float engine's index, here in slices rather than at its first search in one go.
  if (layout === null) workspace.floatDerived = yield* floatDerivedSteps(p, pace);
  const entry: CompiledEntry = {
    actions: sorted,
    goalKey,
    p,
    model,
    layout,
    heuristics: heuristicContext(p, model),
    workspace,
    compiledValues: p.valueCount(),
    inUse: true,
  };
  if (head) {
    const entries = list ?? [];
    entries.unshift(entry);
    if (entries.length > ENTRIES_PER_DOMAIN) entries.pop();
    compiledCache.set(head, entries);
  }
  return entry;
}

/** Hands an entry back for reuse, or drops it when start states have interned too many new values into it. */
export function releaseCompiled(entry: CompiledEntry): void {
  entry.inUse = false;
  // A large domain interns many values from the start (two per boolean fact): only growth since then is unbounded.
  if (entry.p.valueCount() - entry.compiledValues > MAX_INTERNED_VALUES) {
    const list = entry.actions[0] ? compiledCache.get(entry.actions[0]) : undefined;
    const i = list?.indexOf(entry) ?? -1;
    if (list && i >= 0) list.splice(i, 1);
  }
}

/** The boolean engine's relevance masks, computed once; `null` when relevance prunes nothing or the domain is numeric. */
export function relevantBitsOf(compiled: CompiledEntry): SearchSetup["relevantBits"] | null {
  if (compiled.relevantBits === undefined) {
    const relevance = compiled.layout ? relevanceOf(compiled.p) : null;
    if (relevance && compiled.layout) {
      const { clear, set } = relevantEffectMasks(compiled.layout, relevance);
      compiled.relevantBits = { action: relevance.action, effClear: clear, effSet: set };
    } else compiled.relevantBits = null;
  }
  return compiled.relevantBits;
}

/** The float engine's relevant actions and slots, computed once; `null` when relevance prunes nothing or the domain is boolean. */
export function relevantFloatOf(compiled: CompiledEntry): SearchSetup["relevantFloat"] | null {
  if (compiled.relevantFloat === undefined) {
    const relevance = compiled.layout ? null : relevanceOf(compiled.p);
    compiled.relevantFloat = relevance ? { action: relevance.action, slot: relevance.slot } : null;
  }
  return compiled.relevantFloat;
}
