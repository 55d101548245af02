import { type ActionSpec, validateActions } from "../core/action.js";
import { describeValue, LangGoapError } from "../core/errors.js";
import type { WorldState } from "../core/facts.js";
import { type GoalLike, type GoalSpec, toGoalSpec } from "../core/goal.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { type HeuristicName, Plan, planDetailed, replayPlan } from "../planner/index.js";
import { MinHeap } from "./min-heap.js";
import { type Path, pathFrom, spurSearch, stateKey } from "./spur-search.js";
import { TraceOrder } from "./trace-order.js";

/** Options of {@link enumeratePlans}. */
export interface EnumerateOptions {
  /** How many plans to return. @defaultValue 5 */
  readonly count?: number;
  /**
   * When two plans count as the same: `sequence` (same actions in the same
   * order) or `actions` (same multiset of actions). In `actions` mode the
   * search only visits plans in a canonical order of independent actions,
   * so the reorderings of a plan (exponentially many in parallel projects)
   * are never enumerated; plans are returned in that canonical order.
   * @defaultValue "sequence"
   */
  readonly distinct?: "sequence" | "actions";
  /** Actions never used. */
  readonly blacklisted?: Iterable<string>;
  /** Heuristic of the inner A* searches; keep an admissible one for exact k-best order. @defaultValue "hmax" */
  readonly heuristic?: HeuristicName;
  /** The optimal plan, when already known (saves one search). */
  readonly primary?: Plan;
  /** Stop after this many inner A* searches (and 20 times as many search nodes): a deterministic bound. @defaultValue 5000 */
  readonly maxSearches?: number;
  readonly signal?: AbortSignal;
}

/** A subset of plans: those extending `depth` steps of `root` whose next action is not banned. */
interface Cell {
  readonly root: Path;
  readonly depth: number;
  readonly banned: ReadonlySet<string>;
}

interface Candidate {
  readonly path: Path;
  readonly cell: Cell;
  readonly seq: number;
}

const ENUMERATE_OPTIONS_KEYS = {
  count: true,
  distinct: true,
  blacklisted: true,
  heuristic: true,
  primary: true,
  maxSearches: true,
  signal: true,
} as const satisfies OptionKeys<EnumerateOptions>;

/**
 * The k cheapest distinct plans, cheapest first, by Lawler's partitioning
 * of the plan space (the scheme behind Yen's k-shortest paths): the
 * plans of a "cell" share a fixed prefix and may not continue with a set of
 * banned actions; the best plan of a cell is found by an A* search from
 * the end of the prefix whose heuristic is the exact cost-to-go computed by
 * the planner (see `spur-search.ts`). When a plan is taken, its cell splits into disjoint cells (ban
 * its next action at the same depth; fix one more step of it at each later
 * depth), so every plan lives in exactly one cell and plans come out in
 * non-decreasing cost — exact with an admissible heuristic.
 *
 * Plans end when the goal first holds and never revisit a state (a loop
 * is pointless): as in Yen's algorithm, a cell's search may not enter the
 * states of its fixed prefix (see `spur-search.ts`).
 *
 * @example
 * ```ts
 * const plans = enumeratePlans(start, goal, actions, { count: 3 });
 * plans.map((p) => p.totalCost); // [4, 5, 5]
 * ```
 */
export function enumeratePlans(
  start: Readonly<WorldState>,
  goal: GoalLike,
  actions: readonly ActionSpec[],
  options: EnumerateOptions = {},
): Plan[] {
  checkOptionKeys(options, ENUMERATE_OPTIONS_KEYS, "enumeratePlans()");
  const spec = toGoalSpec(goal);
  const count = options.count ?? 5;
  if (!Number.isInteger(count) || count < 0) {
    throw new LangGoapError("INVALID_OPTION", `enumeratePlans: count must be an integer >= 0, got ${describeValue(count)}`);
  }
  const maxSearches = options.maxSearches ?? 5000;
  if (!Number.isInteger(maxSearches) || maxSearches < 1) {
    throw new LangGoapError("INVALID_OPTION", `enumeratePlans: maxSearches must be an integer >= 1, got ${describeValue(maxSearches)}`);
  }
  const distinct = options.distinct ?? "sequence";
  if (distinct !== "sequence" && distinct !== "actions") {
    throw new LangGoapError("INVALID_OPTION", `enumeratePlans: distinct must be "sequence" or "actions", got ${describeValue(distinct)}`);
  }
  const banned = new Set(options.blacklisted ?? []);
  const usable = validateActions(actions).filter((a) => !banned.has(a.name));
  const heuristic = options.heuristic ?? "hmax";
  // In "actions" mode plans are searched in normal form, so reorderings of independent actions never come up.
  const order = distinct === "actions" ? new TraceOrder(usable) : undefined;
  if (count === 0) return [];
  if (spec.isSatisfied(start)) return [toPlan(start, [], spec, 1)];

  let searches = 0;
  const memo = new Map<string, Path | null>();
  /** Optimal completion from `state` with the once-only actions in `used` spent. */
  const complete = (state: WorldState, used: ReadonlySet<string>): Path | null | undefined => {
    const key = `${stateKey(state)}|${[...used].sort().join(",")}`;
    if (memo.has(key)) return memo.get(key);
    if (searches >= maxSearches || options.signal?.aborted) return undefined;
    searches++;
    const pool = used.size ? usable.filter((a) => !used.has(a.name)) : usable;
    const found = planDetailed(state, spec, pool, { heuristic, blacklistFallback: false }).plan;
    const path = found ? pathFrom(state, found.actions) : null;
    memo.set(key, path);
    return path;
  };

  /** The cheapest plan of a cell, or null when it is empty; undefined when the search budget ran out. */
  const bestOf = (cell: Cell): Path | null | undefined => {
    const rootStates = [{ ...start }, ...cell.root.states.slice(0, cell.depth)];
    const prefix: Path = {
      actions: cell.root.actions.slice(0, cell.depth),
      states: cell.root.states.slice(0, cell.depth),
      stepCosts: cell.root.stepCosts.slice(0, cell.depth),
      cost: cell.root.stepCosts.slice(0, cell.depth).reduce((a, b) => a + b, 0),
    };
    const spur = spurSearch({
      from: rootStates[cell.depth] as WorldState,
      goal: spec,
      actions: usable,
      forbidden: new Set(rootStates.map(stateKey)),
      bannedFirst: cell.banned,
      used: new Set(prefix.actions.flatMap((a) => (a.canRerun ? [] : [a.name]))),
      complete,
      prefix: prefix.actions,
      ...(order ? { order } : {}),
      maxNodes: maxSearches * 20,
    });
    if (!spur) return spur;
    return {
      actions: [...prefix.actions, ...spur.actions],
      states: [...prefix.states, ...spur.states],
      stepCosts: [...prefix.stepCosts, ...spur.stepCosts],
      cost: prefix.cost + spur.cost,
    };
  };

  const given = options.primary && replayPlan(start, options.primary.actions, spec).valid ? options.primary.actions : null;
  const primary = given ? pathFrom(start, order ? order.normalForm(given) : given) : null;
  const first = primary ?? bestOf({ root: { actions: [], states: [], stepCosts: [], cost: 0 }, depth: 0, banned: new Set() });
  if (!first) return [];
  const heap = new MinHeap<Candidate>((a, b) => a.path.cost < b.path.cost || (a.path.cost === b.path.cost && a.seq < b.seq));
  let seq = 0;
  heap.push({ path: first, cell: { root: first, depth: 0, banned: new Set() }, seq: seq++ });
  const reported: Plan[] = [];
  const classes = new Set<string>();

  while (reported.length < count && heap.size > 0) {
    const { path, cell } = heap.pop() as Candidate;
    const identity =
      distinct === "sequence"
        ? path.actions.map((a) => a.name).join("\u0000")
        : path.actions
            .map((a) => a.name)
            .sort()
            .join("\u0000");
    if (!classes.has(identity)) {
      classes.add(identity);
      reported.push(toPlan(start, path.actions, spec, reported.length + 1));
    }
    const children: Cell[] = [
      { root: path, depth: cell.depth, banned: new Set([...cell.banned, (path.actions[cell.depth] as ActionSpec).name]) },
    ];
    for (let depth = cell.depth + 1; depth < path.actions.length; depth++) {
      children.push({ root: path, depth, banned: new Set([(path.actions[depth] as ActionSpec).name]) });
    }
    for (const child of children) {
      const best = bestOf(child);
      if (best === undefined) return reported; // search budget spent or aborted
      if (best) heap.push({ path: best, cell: child, seq: seq++ });
    }
  }
  return reported;
}

function toPlan(start: Readonly<WorldState>, actions: readonly ActionSpec[], goal: GoalSpec, rank: number): Plan {
  const replay = replayPlan(start, actions, goal);
  return new Plan({
    actions,
    expectedStates: replay.states,
    startState: { ...start },
    totalCost: replay.totalCost,
    metadata: { strategy: "k-best", rank },
  });
}
