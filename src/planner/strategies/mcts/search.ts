import type { ActionSpec } from "../../../core/action.js";
import { unsatisfiedKeys } from "../../../core/conditions.js";
import type { WorldState } from "../../../core/facts.js";
import type { GoalSpec } from "../../../core/goal.js";
import type { Rng } from "../../../core/rng.js";
import { callTracer, type PlanningTracer } from "../../../core/tracer.js";
import { expectedSuccessor, sampledSuccessor, type TransitionModel } from "../../transitions.js";
import { drawOutcome, type StateOptions, type WeightedState } from "./analysis.js";
import { GOAL_REWARD, spendAction } from "./evaluate.js";
import { actionValue, DecisionNode, Edge, nodeValue } from "./node.js";
import type { RolloutContext, RolloutPolicy } from "./rollouts.js";
import { recordReturn, ucb1 } from "./ucb1.js";

/** Settings of one search. @internal */
export interface SearchSettings {
  readonly goal: GoalSpec;
  readonly actions: readonly ActionSpec[];
  readonly model: TransitionModel;
  /** Sampled outcomes; otherwise the graph follows `expected`. */
  readonly stochastic: boolean;
  readonly rng: Rng;
  readonly c: number;
  readonly discount: number;
  /** Return of a dead end (0, or negative for risk aversion). */
  readonly deadEndReturn: number;
  readonly rolloutDepth: number;
  readonly rollout: RolloutPolicy;
  readonly analyze: (state: Readonly<WorldState>, spent: ReadonlySet<string>) => StateOptions;
  /** How returns update the statistics. */
  readonly backup: "bellman" | "mean";
  /** Keep actions whose expected outcome changes nothing (under slips they may still help). */
  readonly allowNoOps: boolean;
  readonly keyOf: (state: Readonly<WorldState>, spent: ReadonlySet<string>) => string;
  /**
   * Under a model that lists outcome distributions: the first visit of an
   * action lays out all its outcomes with their probabilities, and an
   * action is valued by all of them (a slip into a dead end counts at
   * once), not by the outcomes sampled so far.
   */
  readonly exactOutcomes: boolean;
  /**
   * The value of a state not searched yet, instead of a rollout: an upper
   * bound (the goal's return) makes the search try every promising branch
   * before it trusts one (optimism in the face of uncertainty).
   */
  readonly leafValue?: number | undefined;
  /** Receives `onSearchExpand` for every new decision node. */
  readonly tracer?: PlanningTracer | undefined;
}

/**
 * The MCTS search graph and one iteration of select → expand → simulate →
 * backpropagate (UCT over a transposition table).
 *
 * Each iteration descends from the root by UCB1 over the actions of each
 * state, follows each action's outcome (sampled under a stochastic model,
 * so an action's mean return averages over what can really happen, a slip
 * into a hole included), and stops at a new state (simulated by the
 * rollout policy), a terminal state, or a state already on the path (a
 * cycle, valued by its current mean). The return is discounted once per
 * step back up the path.
 * @internal
 */
export class MctsSearch {
  readonly table: Map<string, DecisionNode>;
  nextId: number;
  /** Read by exact mode's {@link closeGraph} too. */
  readonly settings: SearchSettings;
  readonly #rolloutContext: Omit<RolloutContext, "state" | "spent">;

  constructor(settings: SearchSettings, reuse?: { readonly table: Map<string, DecisionNode>; readonly nextId: number }) {
    this.settings = settings;
    this.table = reuse?.table ?? new Map();
    this.nextId = reuse?.nextId ?? 0;
    this.#rolloutContext = {
      goal: settings.goal,
      actions: settings.actions,
      model: settings.model,
      stochastic: settings.stochastic,
      rng: settings.rng,
      depth: settings.rolloutDepth,
      discount: settings.discount,
      deadEndReturn: settings.deadEndReturn,
      analyze: settings.analyze,
    };
  }

  /** The node of `state`, created (with its actions and terminal status) when new. */
  nodeFor(state: WorldState, spent: ReadonlySet<string>): { node: DecisionNode; created: boolean } {
    const key = this.settings.keyOf(state, spent);
    const known = this.table.get(key);
    if (known !== undefined) return { node: known, created: false };
    const options = this.settings.analyze(state, spent);
    // Like A*, the search skips actions expected to change nothing, unless told otherwise.
    const untried = this.settings.allowNoOps ? [...options.actions] : options.actions.filter((_, i) => !options.noOp[i]);
    const terminal = options.goalReached ? "goal" : untried.length === 0 ? "dead-end" : null;
    const node = new DecisionNode(this.nextId++, state, key, spent, untried, terminal);
    this.table.set(key, node);
    return { node, created: true };
  }

  /** One iteration from `root`. */
  iterate(root: DecisionNode): void {
    const path: Array<{ edge: Edge; child: DecisionNode }> = [];
    const onPath = new Set<DecisionNode>([root]);
    let node = root;
    let leaf: DecisionNode | null = null;
    let leafReturn: number;
    let pathCost = 0;
    for (;;) {
      if (node.terminal !== null) {
        leaf = node;
        leafReturn = node.terminal === "goal" ? GOAL_REWARD : this.settings.deadEndReturn;
        break;
      }
      const edge = this.#expand(node) ?? this.#select(node);
      if (edge === null) {
        node.terminal = "dead-end";
        leaf = node;
        leafReturn = this.settings.deadEndReturn;
        break;
      }
      const { node: child, created } = this.#follow(edge);
      path.push({ edge, child });
      if (this.settings.tracer) {
        pathCost += edge.action.getCost(node.state);
        if (created) this.#traceExpansion(child, edge, pathCost);
      }
      if (created) {
        leaf = child;
        leafReturn = this.#leafReturn(child);
        break;
      }
      if (onPath.has(child)) {
        // A cycle: value the revisited state by what is known of it.
        leafReturn = child.value;
        break;
      }
      onPath.add(child);
      node = child;
    }
    if (this.settings.backup === "bellman") this.#bellmanBackup(path, leaf, leafReturn);
    else this.#meanBackup(path, leaf, leafReturn);
  }

  /** Classic UCT: every node and edge on the path averages the discounted return. */
  #meanBackup(path: ReadonlyArray<{ edge: Edge; child: DecisionNode }>, leaf: DecisionNode | null, leafReturn: number): void {
    let r = leafReturn;
    if (leaf !== null) recordReturn(leaf, r);
    for (let i = path.length - 1; i >= 0; i--) {
      const { edge, child } = path[i] as { edge: Edge; child: DecisionNode };
      edge.counts.set(child.key, (edge.counts.get(child.key) ?? 0) + 1);
      r *= this.settings.discount;
      recordReturn(edge, r);
      recordReturn(edge.from, r);
    }
  }

  /**
   * Bellman backups (MaxUCT, Keller & Helmert 2013): an action's value is
   * the discounted average of its outcomes' values, weighted by how often
   * each outcome occurred; a state's value is its best action's. Values
   * converge to the best policy's instead of the average of everything
   * exploration tried, which is what risk-aware choices need.
   */
  #bellmanBackup(path: ReadonlyArray<{ edge: Edge; child: DecisionNode }>, leaf: DecisionNode | null, leafReturn: number): void {
    if (leaf !== null) {
      leaf.visits += 1;
      if (leaf.terminal !== null || leaf.edges.length === 0) leaf.value = leafReturn;
    }
    for (let i = path.length - 1; i >= 0; i--) {
      const { edge, child } = path[i] as { edge: Edge; child: DecisionNode };
      edge.counts.set(child.key, (edge.counts.get(child.key) ?? 0) + 1);
      edge.visits += 1;
      edge.value = this.#actionValue(edge);
      const from = edge.from;
      from.visits += 1;
      let best = Number.NEGATIVE_INFINITY;
      for (const e of from.edges) if (e.visits > 0 && e.value > best) best = e.value;
      from.value = best;
    }
  }

  /** An action's value from its outcomes' current values (see {@link actionValue}). */
  #actionValue(edge: Edge): number {
    return actionValue(edge, this.settings.discount, nodeValue);
  }

  #leafReturn(leaf: DecisionNode): number {
    if (leaf.terminal === "goal") return GOAL_REWARD;
    if (leaf.terminal === "dead-end") return this.settings.deadEndReturn;
    if (this.settings.leafValue !== undefined) return this.settings.leafValue;
    return this.settings.rollout.rollout({ ...this.#rolloutContext, state: leaf.state, spent: leaf.spent });
  }

  /** An edge for one untried action of `node` (picked with the generator), or null when all were tried. */
  #expand(node: DecisionNode): Edge | null {
    if (node.untried.length === 0) return null;
    const i = this.settings.rng.int(0, node.untried.length - 1);
    const action = node.untried[i] as ActionSpec;
    node.untried[i] = node.untried[node.untried.length - 1] as ActionSpec;
    node.untried.pop();
    const edge = new Edge(node, action);
    node.edges.push(edge);
    return edge;
  }

  #select(node: DecisionNode): Edge | null {
    // c is meant for returns spanning [0, 1]; a dead-end penalty widens the span.
    const c = this.settings.c * (GOAL_REWARD - Math.min(0, this.settings.deadEndReturn));
    let best: Edge | null = null;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const edge of node.edges) {
      const score = ucb1(edge, node.visits, c);
      if (score > bestScore) {
        bestScore = score;
        best = edge;
      }
    }
    return best;
  }

  /** The state `edge` leads to this time: its expected outcome, or a sampled one. */
  #follow(edge: Edge): { node: DecisionNode; created: boolean } {
    const from = edge.from;
    const spent = spendAction(from.spent, edge.action);
    let next: WorldState;
    if (!this.settings.stochastic) {
      const only = edge.outcomes.values().next();
      if (!only.done) return { node: only.value, created: false };
      next = expectedSuccessor(this.settings.model, from.state, edge.action);
    } else {
      const options = this.settings.analyze(from.state, from.spent);
      const index = options.outcomes ? options.actions.indexOf(edge.action) : -1;
      const distribution = options.outcomes && index >= 0 ? (options.outcomes[index] as readonly WeightedState[]) : null;
      if (distribution && this.settings.exactOutcomes) {
        next = drawOutcome(distribution, this.settings.rng);
        if (edge.probabilities === null) return this.layOut(edge, distribution, spent, this.settings.keyOf(next, spent));
      } else
        next = distribution
          ? drawOutcome(distribution, this.settings.rng)
          : sampledSuccessor(this.settings.model, from.state, edge.action, this.settings.rng);
    }
    const result = this.nodeFor(next, spent);
    edge.outcomes.set(result.node.key, result.node);
    return result;
  }

  /**
   * Creates the node of every outcome of `edge` with its probability (a new
   * node starts at its leaf value), and returns the node of the sampled
   * outcome `drawn` (created: this iteration stops there). Exact mode's
   * {@link closeGraph} lays out every action this way.
   */
  layOut(
    edge: Edge,
    distribution: readonly WeightedState[],
    spent: ReadonlySet<string>,
    drawn: string,
  ): { node: DecisionNode; created: boolean } {
    const probabilities = new Map<string, number>();
    let sampled: { node: DecisionNode; created: boolean } | null = null;
    for (const outcome of distribution) {
      const result = this.nodeFor(outcome.state, spent);
      const { node } = result;
      if (result.created) node.value = this.#leafReturn(node);
      edge.outcomes.set(node.key, node);
      probabilities.set(node.key, (probabilities.get(node.key) ?? 0) + outcome.probability);
      if (node.key === drawn && (sampled === null || result.created)) sampled = result;
    }
    edge.probabilities = probabilities;
    // `drawn` is one of the outcomes just laid out.
    return sampled as { node: DecisionNode; created: boolean };
  }

  #traceExpansion(node: DecisionNode, edge: Edge, g: number): void {
    const h = unsatisfiedKeys(node.state, this.settings.goal.conditions).length;
    callTracer(this.settings.tracer, "onSearchExpand", {
      nodeId: node.id,
      parentId: edge.from.id,
      actionName: edge.action.name,
      state: node.state,
      g,
      h,
      f: g + h,
    });
  }
}
