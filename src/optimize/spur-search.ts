/**
 * @internal The restricted shortest-plan search behind k-best enumeration:
 * the cheapest plan from a state that never enters a set of forbidden
 * states (Yen's "root" of the path so far, which keeps plans simple) and
 * does not start with a banned action.
 *
 * It is A* over world states whose heuristic is the exact cost-to-go of
 * the unrestricted problem, computed by the planner's own A* (memoised per
 * state). That heuristic is admissible and consistent for the restricted
 * problem, and as soon as a popped state's unrestricted optimal completion
 * happens to respect the restrictions, that completion is optimal and the
 * search stops — usually at the first or second node. With a trace order,
 * only plans in normal form are searched (see `trace-order.ts`); a
 * completion is first rewritten into normal form, which keeps its cost.
 */
import type { ActionSpec } from "../core/action.js";
import type { WorldState } from "../core/facts.js";
import type { GoalSpec } from "../core/goal.js";
import { MinHeap } from "./min-heap.js";
import type { TraceOrder } from "./trace-order.js";

/** A plan fragment with the state after each action and each action's cost. */
export interface Path {
  readonly actions: readonly ActionSpec[];
  readonly states: readonly WorldState[];
  readonly stepCosts: readonly number[];
  readonly cost: number;
}

/** Optimal unrestricted completion from a state; `undefined` when the search budget is spent. */
export type Completer = (state: WorldState, used: ReadonlySet<string>) => Path | null | undefined;

/** Canonical key of a state (key order does not matter). */
export function stateKey(state: Readonly<WorldState>): string {
  return JSON.stringify(
    Object.keys(state)
      .sort()
      .map((k) => [k, state[k]]),
  );
}

/** Replays actions from a state into a {@link Path}. */
export function pathFrom(state: Readonly<WorldState>, actions: readonly ActionSpec[]): Path {
  const states: WorldState[] = [];
  const stepCosts: number[] = [];
  let current: WorldState = { ...state };
  for (const a of actions) {
    stepCosts.push(a.getCost(current));
    current = a.apply(current);
    states.push(current);
  }
  return { actions, states, stepCosts, cost: stepCosts.reduce((x, y) => x + y, 0) };
}

/** What to search. */
export interface SpurProblem {
  readonly from: WorldState;
  readonly goal: GoalSpec;
  readonly actions: readonly ActionSpec[];
  /** Keys of states the plan may not enter (including `from` itself). */
  readonly forbidden: ReadonlySet<string>;
  /** Actions the plan may not start with. */
  readonly bannedFirst: ReadonlySet<string>;
  /** Once-only actions already spent. */
  readonly used: ReadonlySet<string>;
  readonly complete: Completer;
  /** The fixed actions before `from` (for the normal-form check). */
  readonly prefix: readonly ActionSpec[];
  /** When given, only plans in this order's normal form are searched. */
  readonly order?: TraceOrder;
  /** Give up (return `undefined`) after expanding this many nodes. */
  readonly maxNodes: number;
}

interface Node {
  readonly state: WorldState;
  readonly key: string;
  readonly g: number;
  readonly f: number;
  readonly parent: Node | null;
  readonly action: ActionSpec | null;
  readonly stepCost: number;
  readonly used: ReadonlySet<string>;
  readonly seq: number;
}

function onPath(node: Node, key: string): boolean {
  for (let n: Node | null = node; n !== null; n = n.parent) if (n.key === key) return true;
  return false;
}

function prefixOf(node: Node): Path {
  const nodes: Node[] = [];
  for (let n: Node | null = node; n?.parent; n = n.parent) nodes.unshift(n);
  return {
    actions: nodes.map((n) => n.action as ActionSpec),
    states: nodes.map((n) => n.state),
    stepCosts: nodes.map((n) => n.stepCost),
    cost: node.g,
  };
}

function join(a: Path, b: Path): Path {
  return {
    actions: [...a.actions, ...b.actions],
    states: [...a.states, ...b.states],
    stepCosts: [...a.stepCosts, ...b.stepCosts],
    cost: a.cost + b.cost,
  };
}

/**
 * The cheapest restricted plan from `problem.from` (goal-terminal: it ends
 * at the first state meeting the goal), `null` when there is none, or
 * `undefined` when a budget ran out.
 */
export function spurSearch(problem: SpurProblem): Path | null | undefined {
  const { goal, forbidden, bannedFirst, complete, order, prefix } = problem;
  const fullPath = (node: Node) => [...prefix, ...prefixOf(node).actions];
  /** The completion as a continuation of `node` that meets every restriction, or null. */
  const admissible = (node: Node, completion: Path): Path | null => {
    let candidate = completion;
    if (order) {
      const before = fullPath(node);
      const normal = order.normalForm([...before, ...completion.actions]);
      if (before.some((a, i) => normal[i] !== a)) return null; // its normal form leaves this part of the space
      const tail = normal.slice(before.length);
      if (tail.some((a, i) => a !== completion.actions[i])) candidate = pathFrom(node.state, tail);
    }
    if (node.parent === null && (candidate.actions.length === 0 || bannedFirst.has((candidate.actions[0] as ActionSpec).name))) return null;
    const enters = candidate.states.some((s) => {
      const key = stateKey(s);
      return forbidden.has(key) || onPath(node, key);
    });
    return enters ? null : candidate;
  };
  const first = complete(problem.from, problem.used);
  if (first == null) return first;
  const open = new MinHeap<Node>((a, b) => a.f < b.f || (a.f === b.f && a.seq < b.seq));
  const best = new Map<string, number>();
  let seq = 0;
  open.push({
    state: problem.from,
    key: stateKey(problem.from),
    g: 0,
    f: first.cost,
    parent: null,
    action: null,
    stepCost: 0,
    used: problem.used,
    seq: seq++,
  });
  let expansions = 0;
  while (open.size > 0) {
    const node = open.pop() as Node;
    if (++expansions > problem.maxNodes) return undefined;
    if (node.parent !== null && goal.isSatisfied(node.state)) return prefixOf(node);
    if (node.parent === null && goal.isSatisfied(node.state)) return null; // plans end at the first goal state
    const completion = complete(node.state, node.used);
    if (completion === undefined) return undefined;
    if (completion === null) continue;
    const shortcut = admissible(node, completion);
    if (shortcut) return join(prefixOf(node), shortcut);
    const path = order ? fullPath(node) : [];
    for (const action of problem.actions) {
      if ((node.parent === null && bannedFirst.has(action.name)) || node.used.has(action.name) || !action.isApplicable(node.state))
        continue;
      if (order && !order.canAppend(path, action)) continue;
      const next = action.apply(node.state);
      const key = stateKey(next);
      if (forbidden.has(key) || onPath(node, key)) continue;
      const used = action.canRerun ? node.used : new Set([...node.used, action.name]);
      const stepCost = action.getCost(node.state);
      const g = node.g + stepCost;
      // Duplicate detection by state is only sound without a trace order: in
      // normal-form mode what may follow depends on the whole path, so the
      // search is a tree search (still finite: plans never revisit a state).
      if (!order) {
        const memo = `${key}|${[...used].sort().join(",")}`;
        if ((best.get(memo) ?? Number.POSITIVE_INFINITY) <= g) continue;
        best.set(memo, g);
      }
      const rest = complete(next, used);
      if (rest === undefined) return undefined;
      if (rest === null) continue;
      open.push({ state: next, key, g, f: g + rest.cost, parent: node, action, stepCost, used, seq: seq++ });
    }
  }
  return null;
}
