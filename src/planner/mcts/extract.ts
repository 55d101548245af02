import type { ActionSpec, GoalSpec, WorldState } from "../../core/index.js";
import { expectedSuccessor, type TransitionModel } from "../transitions.js";
import { applicableActions, spendAction } from "./evaluate.js";
import { type DecisionNode, mostVisited } from "./node.js";

/** How a plan was read off the tree. */
export type ExtractionSource = "robust-descent" | "descent+search" | "tree-goal" | "partial";

/** Actions and the expected state after each. @internal */
export interface ExtractedPath {
  readonly actions: ActionSpec[];
  readonly states: WorldState[];
  readonly reachesGoal: boolean;
  readonly source: ExtractionSource;
}

/** @internal */
export interface ExtractionSettings {
  readonly goal: GoalSpec;
  readonly actions: readonly ActionSpec[];
  readonly model: TransitionModel;
  readonly keyOf: (state: Readonly<WorldState>, spent: ReadonlySet<string>) => string;
  readonly estimate: (state: Readonly<WorldState>) => number;
  /** Most states the completion search may visit. */
  readonly completionNodes: number;
}

/**
 * Reads a plan off the tree, along expected outcomes (a plan promises what
 * the model expects, so its states can be checked for deviation):
 *
 * 1. robust descent: the most-visited action at each node (the
 *    Kocsis–Szepesvári "robust child"), following the expected outcome of
 *    each chance node while the tree has it;
 * 2. when the descent stops short of the goal, a bounded best-first search
 *    on the expected model from where it stopped;
 * 3. failing that, the most-visited goal node reachable along expected outcomes;
 * 4. failing that, the descent alone, flagged as partial (the caller decides
 *    whether a partial plan is acceptable).
 * @internal
 */
export function extractPath(root: DecisionNode, settings: ExtractionSettings): ExtractedPath {
  const { goal, model, keyOf } = settings;
  const actions: ActionSpec[] = [];
  const states: WorldState[] = [];
  let node: DecisionNode | undefined = root;
  let state: WorldState = root.state;
  let spent = root.spent;
  while (node !== undefined && !goal.isSatisfied(state)) {
    const edge = mostVisited(node.children);
    if (edge === undefined) break;
    const next = expectedSuccessor(model, state, edge.action as ActionSpec);
    spent = spendAction(spent, edge.action as ActionSpec);
    actions.push(edge.action as ActionSpec);
    states.push(next);
    node = edge.kind === "decision" ? edge : edge.outcomes.get(keyOf(next, spent));
    state = next;
  }
  if (goal.isSatisfied(state)) return { actions, states, reachesGoal: true, source: "robust-descent" };

  const completion = bestFirstCompletion(state, spent, settings);
  if (completion !== null) {
    return {
      actions: [...actions, ...completion.actions],
      states: [...states, ...completion.states],
      reachesGoal: true,
      source: "descent+search",
    };
  }
  const viaTree = bestGoalPath(root, settings);
  if (viaTree !== null) return { ...viaTree, reachesGoal: true, source: "tree-goal" };
  return { actions, states, reachesGoal: false, source: "partial" };
}

/**
 * Greedy best-first search on the expected model from where the descent
 * stopped: most promising state first (by the estimate), shallower first
 * on ties, never the same state twice, at most `completionNodes` states.
 */
function bestFirstCompletion(
  start: WorldState,
  startSpent: ReadonlySet<string>,
  settings: ExtractionSettings,
): { actions: ActionSpec[]; states: WorldState[] } | null {
  const { goal, model, keyOf, estimate } = settings;
  interface Entry {
    readonly state: WorldState;
    readonly spent: ReadonlySet<string>;
    readonly parent: number;
    readonly action: ActionSpec | null;
    readonly depth: number;
    readonly score: number;
  }
  const entries: Entry[] = [{ state: start, spent: startSpent, parent: -1, action: null, depth: 0, score: 0 }];
  const open = [0];
  const seen = new Set([keyOf(start, startSpent)]);
  const path = (index: number) => {
    const actions: ActionSpec[] = [];
    const states: WorldState[] = [];
    for (let i = index; (entries[i] as Entry).parent >= 0; i = (entries[i] as Entry).parent) {
      actions.push((entries[i] as Entry).action as ActionSpec);
      states.push((entries[i] as Entry).state);
    }
    return { actions: actions.reverse(), states: states.reverse() };
  };
  while (open.length > 0 && entries.length < settings.completionNodes) {
    let pick = 0;
    for (let i = 1; i < open.length; i++) {
      const a = entries[open[i] as number] as Entry;
      const b = entries[open[pick] as number] as Entry;
      if (a.score > b.score || (a.score === b.score && a.depth < b.depth)) pick = i;
    }
    const index = open[pick] as number;
    open.splice(pick, 1);
    const entry = entries[index] as Entry;
    for (const action of applicableActions(entry.state, settings.actions, entry.spent)) {
      const next = expectedSuccessor(model, entry.state, action);
      const spent = spendAction(entry.spent, action);
      const key = keyOf(next, spent);
      if (seen.has(key)) continue;
      seen.add(key);
      entries.push({ state: next, spent, parent: index, action, depth: entry.depth + 1, score: estimate(next) });
      if (goal.isSatisfied(next)) return path(entries.length - 1);
      open.push(entries.length - 1);
    }
  }
  return null;
}

function bestGoalPath(root: DecisionNode, settings: ExtractionSettings): { actions: ActionSpec[]; states: WorldState[] } | null {
  const { model, keyOf } = settings;
  let best: { path: ActionSpec[]; visits: number } | null = null;
  const stack: Array<{ node: DecisionNode; path: ActionSpec[] }> = [{ node: root, path: [] }];
  while (stack.length > 0) {
    const { node, path } = stack.pop() as { node: DecisionNode; path: ActionSpec[] };
    if (node.terminal === "goal") {
      if (best === null || node.visits > best.visits) best = { path, visits: node.visits };
      continue;
    }
    for (const edge of node.children) {
      const action = edge.action as ActionSpec;
      if (edge.kind === "decision") {
        stack.push({ node: edge, path: [...path, action] });
        continue;
      }
      const expected = expectedSuccessor(model, node.state, action);
      const child = edge.outcomes.get(keyOf(expected, spendAction(node.spent, action)));
      if (child !== undefined) stack.push({ node: child, path: [...path, action] });
    }
  }
  if (best === null) return null;
  const states: WorldState[] = [];
  let state = root.state;
  for (const action of best.path) {
    state = expectedSuccessor(model, state, action);
    states.push(state);
  }
  return { actions: best.path, states };
}
