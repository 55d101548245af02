/**
 * The planner's one A* loop, after Fast Downward's `eager_search.cc`: the
 * node store, root seeding, the clock and pop prologue (slices, budgets,
 * abort signal, why it stopped), recorded expansions and inserting or
 * improving a child are written here once. A state representation
 * (packed bits in search-bits.ts, Float64 rows in search-float.ts)
 * supplies the rest: its rows, goal test, successors and hashes.
 *
 * Heuristic values are computed lazily for every heuristic but the eager
 * ones (blind search): a child is queued with its parent's estimate minus
 * the step cost (a lower bound for consistent heuristics such as hmax), or
 * a better bound from the parent's evaluation (LM-cut's landmarks), and
 * evaluated only when it reaches the front of the open list.
 *
 * Everything per expansion lives in typed arrays and closure variables, so
 * the loop allocates nothing; ticks of the clock count pops and successor
 * calls, and time only decides when the loop stops or pauses.
 * @internal
 */
import type { WorldState } from "../core/facts.js";
import { callTracer } from "../core/tracer.js";
import { type BudgetLimit, nodeLimit } from "./budget.js";
import { EVALUATION_PAUSED } from "./heuristics/heuristic.js";
import { CLOCK_ABORTED, CLOCK_GO, CLOCK_PAUSE, SearchClock } from "./search-clock.js";
import {
  bytesPerNode,
  finishedRun,
  finishSearch,
  pathOf,
  type SearchOutcome,
  type SearchRun,
  type SearchSetup,
  timeUp,
} from "./search-setup.js";
import type { NodeStore, RowArray } from "./search-store.js";
import { StateTable } from "./search-table.js";
import type { SearchRecord, SearchStatus } from "./types.js";

/** {@link StateRepresentation.next}: the expansion has no more successors. */
export const NO_MORE = -1;
/** {@link StateRepresentation.next}: candidates were looked at without making a child yet; call again. */
export const NOT_YET = -2;

/** What a state representation supplies to {@link startSearch}. */
export interface StateRepresentation<R extends RowArray> {
  /** Where the rows live: `width` numbers per node, node `n`'s at `nodes.at(n)` in `nodes.rows(n)`. */
  readonly nodes: NodeStore<R>;
  /** Bytes of one row, for the default node budget. */
  readonly rowBytes: number;
  /** The Float64 row heuristics read, as last set by {@link rowOf}. */
  row: Float64Array;
  /** The hash of the row {@link next} wrote last. */
  childHash: number;
  /**
   * True when a row is one number and its hash is that number: {@link next} then leaves the row unwritten, the state
   * table compares hashes only, and the loop writes the row when it stores the child (most children are duplicates).
   */
  readonly hashIsRow?: boolean;
  /** Writes the start state as node 0 and returns its hash. */
  seedRoot(): number;
  isGoal(node: number): boolean;
  sameRow(a: number, b: number): boolean;
  /** Makes node `node`'s row readable as Float64 in {@link row} and returns its offset there. */
  rowOf(node: number): number;
  /** Node `node`'s world state, a new object. */
  decode(node: number): WorldState;
  /** Starts generating the successors of `node`. */
  expand(node: number): void;
  /** The state being expanded, decoded once per expansion (cost and effect functions read it). */
  expandingState(): WorldState;
  /**
   * Writes the next successor of the expansion as node `child` (scratch
   * until the loop stores it; see {@link hashIsRow}), sets {@link childHash} and returns its action;
   * or {@link NO_MORE}, or {@link NOT_YET} after a bounded amount of work
   * that made no child (the loop reads its clock between calls).
   */
  next(child: number): number;
}

/** Starts A* over representation `rep`; the returned run searches in slices (see {@link SearchRun}). */
export function startSearch<R extends RowArray>(setup: SearchSetup, rep: StateRepresentation<R>): SearchRun {
  const { p, h, weight, tracer, goal, workspace } = setup;
  const actions = p.actions;
  const lazy = h.lazy;
  const UNEVALUATED = -1;
  const expansions: SearchRecord[] | undefined = setup.record ? [] : undefined;
  const nodes = rep.nodes;
  const hashIsRow = rep.hashIsRow === true;
  const maxNodes = nodeLimit(setup.maxNodes, setup.defaultNodes, bytesPerNode(rep.rowBytes));
  // Node arrays never grow past the node budget plus the scratch row a child is written to before its lookup: the
  // budget is checked at each new child, since one expansion of a wide domain makes thousands of wide children.
  nodes.begin(Number.isFinite(maxNodes) ? maxNodes + 2 : Number.POSITIVE_INFINITY);
  const clock = new SearchClock(setup.deadline, setup.signal);
  let parent = nodes.parent;
  let via = nodes.via;
  let gOf = nodes.gOf;
  let hOf = nodes.hOf;
  let hashOf = nodes.hashOf;
  let version = nodes.version;
  const table = new StateTable(workspace.takeTable(), hashOf, rep);
  // Blind search queues by cost alone where costs are small integers (bucket-open-list.ts), in the heap's order.
  const open = workspace.takeOpenFor(p, !lazy);
  const reload = (): void => {
    parent = nodes.parent;
    via = nodes.via;
    gOf = nodes.gOf;
    hOf = nodes.hOf;
    hashOf = nodes.hashOf;
    table.hashOf = hashOf;
    version = nodes.version;
  };
  const release = (): void => {
    workspace.keepNodes(nodes);
    workspace.keepTable(table.array);
    workspace.keepOpen(open);
  };

  // A heuristic that can bound a child from its parent's evaluation (LM-cut's landmarks) keys children by it, while
  // the parent it evaluated last is the one being expanded; 0 otherwise.
  let lastEvaluated = -1;
  const childBound = (expanding: number, action: number): number =>
    h.childEstimate !== undefined && lastEvaluated === expanding ? h.childEstimate(action) : 0;
  h.beginSearch?.(setup.deadline);
  const evaluate = (node: number): number => {
    const offset = rep.rowOf(node);
    lastEvaluated = node;
    return h.evaluateNode
      ? h.evaluateNode(rep.row, offset, node, parent[node] as number, via[node] as number)
      : h.evaluate(rep.row, offset);
  };

  const rootHash = rep.seedRoot();
  parent[0] = -1;
  via[0] = -1;
  gOf[0] = 0;
  hashOf[0] = rootHash;
  table.addRoot();
  /**
   * The loop's counters and the expansion in progress, kept here between slices: within a slice `step` works on local
   * copies (a variable an inner function shares lives in memory, and these change at every child).
   */
  const progress = { count: 1, expanded: 0, generated: 1, ticks: 0, exNode: -1, exG: 0 };
  /** The root's outcome when its value ends the search (a deadline passed during it, or a dead start), else null. */
  const seedOpen = (hv: number): SearchOutcome | null => {
    hOf[0] = hv;
    if (Number.isNaN(hv)) {
      release();
      return timeUp(setup, progress.count, maxNodes);
    }
    if (hv === Number.POSITIVE_INFINITY) {
      release();
      callTracer(tracer, "onSearchDeadEnd", "not_reachable", { goal: goal.conditions });
      // A dead start, as the reachability pre-check reports it: nothing generated.
      return { status: "no_plan", actions: null, nodesExpanded: 0, nodesGenerated: 0 };
    }
    open.push(0, weight * hv, hv, 0);
    return null;
  };
  // A heuristic that can evaluate in parts has the root evaluated by the first slices (on a wide domain one
  // relaxation takes tens of ms); the others, and a search in one slice, evaluate it here in one go.
  let rootStarted = false;
  let rootPending = h.startEvaluation !== undefined && h.resumeEvaluation !== undefined;
  if (!rootPending) {
    const ended = seedOpen(evaluate(0));
    if (ended) return finishedRun(ended);
  }
  /** Evaluates the root until it is done (true) or the slice ends (false); sets `rootEnded` when that ends the search. */
  let rootEnded: SearchOutcome | null = null;
  const evaluateRoot = (sliceEnd: number): boolean => {
    let hv: number;
    if (sliceEnd === Number.POSITIVE_INFINITY && !rootStarted) hv = evaluate(0);
    else {
      if (!rootStarted) {
        rootStarted = true;
        lastEvaluated = 0;
        (h.startEvaluation as NonNullable<typeof h.startEvaluation>)(rep.row, rep.rowOf(0));
      }
      hv = (h.resumeEvaluation as NonNullable<typeof h.resumeEvaluation>)(Math.min(sliceEnd, setup.deadline));
      if (hv === EVALUATION_PAUSED) {
        if (setup.signal?.aborted) rootEnded = stopAtRoot("aborted");
        else if (performance.now() >= setup.deadline) rootEnded = stopAtRoot("budget_exhausted");
        return rootEnded !== null;
      }
    }
    rootPending = false;
    rootEnded = seedOpen(hv);
    return true;
  };
  /** The outcome of a search stopped by its signal or deadline while its root was being evaluated. */
  const stopAtRoot = (status: "aborted" | "budget_exhausted"): SearchOutcome => {
    release();
    return status === "aborted"
      ? finishSearch(setup, status, { expanded: 0, generated: 1, stored: progress.count, maxNodes, limit: undefined, expansions }, () => [])
      : timeUp(setup, progress.count, maxNodes);
  };

  const step = (sliceEnd: number): SearchOutcome | null => {
    if (rootEnded) return rootEnded;
    if (rootPending) {
      if (!evaluateRoot(sliceEnd)) return null;
      if (rootEnded) return rootEnded;
    }
    // The expansion in progress (`exNode`, -1 when none) may be left by a slice between two successors (an expansion
    // of a wide domain makes thousands of children, each a copy of a row of thousands of slots); the next goes on.
    let { count, expanded, generated, ticks, exNode, exG } = progress;
    let { parent, via, gOf, hOf, hashOf } = nodes;
    clock.resume(sliceEnd, ticks);
    // Arrays of megabytes that will be needed soon are allocated here, at the slice's start: an allocation may set off
    // a collection of milliseconds, which then does not come on top of a slice of work. A search in one go has no use
    // for it.
    if (sliceEnd !== Number.POSITIVE_INFINITY) {
      nodes.prepare(count);
      table.prepare(count);
      open.prepare();
    }
    let goalNode = -1;
    let status: SearchStatus = "no_plan";
    let limit: BudgetLimit | undefined;
    let paused = false;
    try {
      search: for (;;) {
        if (exNode >= 0) {
          const node = exNode;
          const g = exG;
          for (;;) {
            if (++ticks >= clock.next) {
              const verdict = clock.poll(ticks);
              if (verdict !== CLOCK_GO) {
                if (verdict === CLOCK_PAUSE) {
                  paused = true;
                  break search;
                }
                status = verdict === CLOCK_ABORTED ? "aborted" : "budget_exhausted";
                if (verdict !== CLOCK_ABORTED) limit = "time";
                break search;
              }
            }
            if (count >= nodes.growAt) {
              nodes.due(count);
              if (nodes.version !== version) {
                reload();
                ({ parent, via, gOf, hOf, hashOf } = nodes);
              }
            }
            const ai = rep.next(count);
            if (ai < 0) {
              if (ai === NOT_YET) continue;
              break;
            }
            const a = actions[ai]!;
            let stepCost = a.staticCost;
            if (stepCost < 0) stepCost = a.spec.getCost(rep.expandingState());
            const g2 = g + stepCost;
            generated++;
            const hsh = rep.childHash;
            const other = table.find(count, hsh);
            if (other >= 0) {
              if (g2 < (gOf[other] as number)) {
                gOf[other] = g2;
                parent[other] = node;
                via[other] = ai;
                if (other < nodes.copied) nodes.mirror(other);
                const hv = hOf[other] as number;
                const estimate = hv === UNEVALUATED ? Math.max(0, (hOf[node] as number) - stepCost, childBound(node, ai)) : hv;
                if (estimate !== Number.POSITIVE_INFINITY) open.push(other, g2 + weight * estimate, estimate, g2);
              }
              continue;
            }
            if (count >= maxNodes) {
              status = "budget_exhausted";
              limit = "nodes";
              break search;
            }
            const child = count;
            if (hashIsRow) nodes.rows(child)[nodes.at(child)] = hsh;
            hashOf[child] = hsh;
            parent[child] = node;
            via[child] = ai;
            gOf[child] = g2;
            count++;
            table.add(child, count);
            if (lazy) {
              hOf[child] = UNEVALUATED;
              const estimate = Math.max(0, (hOf[node] as number) - stepCost, childBound(node, ai));
              open.push(child, g2 + weight * estimate, estimate, g2);
            } else {
              hOf[child] = 0;
              open.push(child, g2, 0, g2);
            }
          }
          exNode = -1;
        }
        if (open.size === 0) break;
        if (++ticks >= clock.next) {
          const verdict = clock.poll(ticks);
          if (verdict !== CLOCK_GO) {
            if (verdict === CLOCK_PAUSE) {
              paused = true;
              break;
            }
            status = verdict === CLOCK_ABORTED ? "aborted" : "budget_exhausted";
            if (verdict !== CLOCK_ABORTED) limit = "time";
            break;
          }
        }
        if (count >= maxNodes) {
          status = "budget_exhausted";
          limit = "nodes";
          break;
        }
        open.pop();
        const node = open.node;
        const g = open.g;
        if (g > (gOf[node] as number)) continue; // a stale entry: the node was reached more cheaply since
        if (hOf[node] === UNEVALUATED) {
          const hv = evaluate(node);
          if (Number.isNaN(hv)) {
            // The deadline passed during the evaluation: the search ends rather than use a partial value.
            status = "budget_exhausted";
            limit = "time";
            break;
          }
          hOf[node] = hv;
          if (node < nodes.copied) nodes.mirror(node);
          if (hv === Number.POSITIVE_INFINITY) continue;
          const f = g + weight * hv;
          if (f > open.f) {
            open.push(node, f, hv, g);
            continue;
          }
        }
        if (rep.isGoal(node)) {
          goalNode = node;
          status = "found";
          break;
        }
        if (expanded >= setup.maxExpansions) {
          status = "budget_exhausted";
          limit = "expansions";
          break;
        }
        expanded++;
        if (expansions) {
          const ev = {
            nodeId: node,
            parentId: parent[node] === -1 ? null : (parent[node] as number),
            actionName: via[node] === -1 ? null : actions[via[node] as number]!.spec.name,
            state: rep.decode(node),
            g,
            h: hOf[node] as number,
          };
          expansions.push(ev);
          callTracer(tracer, "onSearchExpand", { ...ev, f: g + weight * ev.h });
        }
        rep.expand(node);
        exNode = node;
        exG = g;
      }
    } catch (error) {
      release();
      throw error;
    }
    progress.count = count;
    progress.expanded = expanded;
    progress.generated = generated;
    progress.ticks = ticks;
    progress.exNode = exNode;
    progress.exG = exG;
    if (paused) return null;
    const outcome = finishSearch(setup, status, { expanded, generated, stored: count, maxNodes, limit, expansions }, () =>
      pathOf(p, goalNode, parent, via),
    );
    release();
    return outcome;
  };
  return { step };
}
