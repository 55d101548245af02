import type { ActionSpec } from "../../../core/action.js";
import type { WorldState } from "../../../core/facts.js";
import type { GoalSpec } from "../../../core/goal.js";
import { expectedSuccessor, type TransitionModel } from "../../transitions.js";
import { applicableActions, spendAction } from "./evaluate.js";
import { type DecisionNode, type Edge, recommendedEdge } from "./node.js";

/** How a plan was read off the search graph. */
export type ExtractionSource = "robust-descent" | "descent+search" | "graph-goal" | "partial";

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
  /** Decides which action a state recommends (see {@link recommendedEdge}). */
  readonly backup: "bellman" | "mean";
  /**
   * The action of `node` reached after `depth` actions of the plan, instead
   * of {@link recommendedEdge} (a finite horizon: the choice depends on the
   * steps left); undefined ends the descent.
   */
  readonly recommend?: (node: DecisionNode, depth: number) => Edge | undefined;
}

/**
 * Reads a plan off the search graph, along expected outcomes (a plan
 * promises what the model expects, so its states can be checked for
 * deviation):
 *
 * 1. descent by the recommended action of each state (most visits under
 *    mean backups, best value under Bellman backups), following its expected outcome
 *    while the graph has it and without revisiting a state;
 * 2. when the descent stops short of the goal, a bounded best-first search
 *    on the expected model from where it stopped;
 * 3. failing that, the shortest expected-outcome path to the most-visited
 *    goal state of the graph;
 * 4. failing that, the descent alone, flagged as partial (the caller
 *    decides whether a partial plan is acceptable).
 * @internal
 */
export function extractPath(root: DecisionNode, settings: ExtractionSettings): ExtractedPath {
  const { goal, model, keyOf } = settings;
  const actions: ActionSpec[] = [];
  const states: WorldState[] = [];
  const onPath = new Set([root]);
  let node: DecisionNode | undefined = root;
  let state: WorldState = root.state;
  let spent = root.spent;
  while (node !== undefined && !goal.isSatisfied(state)) {
    const edge: Edge | undefined = settings.recommend
      ? settings.recommend(node, actions.length)
      : recommendedEdge(node.edges, settings.backup);
    if (edge === undefined) break;
    const next = expectedSuccessor(model, state, edge.action);
    const nextSpent = spendAction(spent, edge.action);
    const child = edge.outcomes.get(keyOf(next, nextSpent));
    if (child !== undefined && onPath.has(child)) {
      // The root's recommended action is kept even when it is expected to
      // lead back (a wall bump taken for its slips): it is the decision.
      if (actions.length === 0) {
        actions.push(edge.action);
        states.push(next);
        state = next;
        spent = nextSpent;
      }
      break;
    }
    actions.push(edge.action);
    states.push(next);
    state = next;
    spent = nextSpent;
    node = child;
    if (child !== undefined) onPath.add(child);
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
  const viaGraph = bestGoalPath(root, settings);
  if (viaGraph !== null) return { ...viaGraph, reachesGoal: true, source: "graph-goal" };
  return { actions, states, reachesGoal: false, source: "partial" };
}

interface SearchEntry {
  readonly state: WorldState;
  readonly spent: ReadonlySet<string>;
  readonly parent: number;
  readonly action: ActionSpec | null;
  readonly depth: number;
  readonly score: number;
}

function pathTo(entries: readonly SearchEntry[], index: number): { actions: ActionSpec[]; states: WorldState[] } {
  const actions: ActionSpec[] = [];
  const states: WorldState[] = [];
  for (let i = index; (entries[i] as SearchEntry).parent >= 0; i = (entries[i] as SearchEntry).parent) {
    actions.push((entries[i] as SearchEntry).action as ActionSpec);
    states.push((entries[i] as SearchEntry).state);
  }
  return { actions: actions.reverse(), states: states.reverse() };
}

/**
 * Greedy best-first search on the expected model: most promising state
 * first (by the estimate), shallower first on ties, never the same state
 * twice, at most `completionNodes` states.
 */
function bestFirstCompletion(
  start: WorldState,
  startSpent: ReadonlySet<string>,
  settings: ExtractionSettings,
): { actions: ActionSpec[]; states: WorldState[] } | null {
  const { goal, model, keyOf, estimate } = settings;
  const entries: SearchEntry[] = [{ state: start, spent: startSpent, parent: -1, action: null, depth: 0, score: 0 }];
  const open = [0];
  const seen = new Set([keyOf(start, startSpent)]);
  while (open.length > 0 && entries.length < settings.completionNodes) {
    let pick = 0;
    for (let i = 1; i < open.length; i++) {
      const a = entries[open[i] as number] as SearchEntry;
      const b = entries[open[pick] as number] as SearchEntry;
      if (a.score > b.score || (a.score === b.score && a.depth < b.depth)) pick = i;
    }
    const index = open[pick] as number;
    open.splice(pick, 1);
    const entry = entries[index] as SearchEntry;
    for (const action of applicableActions(entry.state, settings.actions, entry.spent)) {
      const next = expectedSuccessor(model, entry.state, action);
      const spent = spendAction(entry.spent, action);
      const key = keyOf(next, spent);
      if (seen.has(key)) continue;
      seen.add(key);
      entries.push({ state: next, spent, parent: index, action, depth: entry.depth + 1, score: estimate(next) });
      if (goal.isSatisfied(next)) return pathTo(entries, entries.length - 1);
      open.push(entries.length - 1);
    }
  }
  return null;
}

/** Breadth-first over expected outcomes in the graph; the path to the most-visited goal state. */
function bestGoalPath(root: DecisionNode, settings: ExtractionSettings): { actions: ActionSpec[]; states: WorldState[] } | null {
  const { model, keyOf } = settings;
  const entries: SearchEntry[] = [{ state: root.state, spent: root.spent, parent: -1, action: null, depth: 0, score: 0 }];
  const nodes: DecisionNode[] = [root];
  const seen = new Set([root]);
  let best = -1;
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as DecisionNode;
    if (node.terminal === "goal") {
      if (best < 0 || node.visits > (nodes[best] as DecisionNode).visits) best = i;
      continue;
    }
    for (const edge of node.edges) {
      const next = expectedSuccessor(model, node.state, edge.action);
      const spent = spendAction(node.spent, edge.action);
      const child = edge.outcomes.get(keyOf(next, spent));
      if (child === undefined || seen.has(child)) continue;
      seen.add(child);
      nodes.push(child);
      entries.push({ state: next, spent, parent: i, action: edge.action, depth: (entries[i] as SearchEntry).depth + 1, score: 0 });
    }
  }
  return best < 0 ? null : pathTo(entries, best);
}
