import {
  type ActionSpec,
  callTracer,
  type GoalSpec,
  type PlanningTracer,
  type Rng,
  unsatisfiedKeys,
  type WorldState,
} from "../../core/index.js";
import { expectedSuccessor, sampledSuccessor, type TransitionModel } from "../transitions.js";
import { applicableActions, DEAD_END_REWARD, GOAL_REWARD, spendAction } from "./evaluate.js";
import { ChanceNode, DecisionNode } from "./node.js";
import type { RolloutContext, RolloutPolicy } from "./rollouts.js";
import { backpropagate, ucb1 } from "./ucb1.js";

/** Settings of one search. @internal */
export interface SearchSettings {
  readonly goal: GoalSpec;
  readonly actions: readonly ActionSpec[];
  readonly model: TransitionModel;
  /** Chance nodes and sampled outcomes; otherwise the tree follows `expected`. */
  readonly stochastic: boolean;
  readonly rng: Rng;
  readonly c: number;
  readonly discount: number;
  readonly rolloutDepth: number;
  readonly rollout: RolloutPolicy;
  readonly estimate: (state: Readonly<WorldState>) => number;
  readonly keyOf: (state: Readonly<WorldState>, spent: ReadonlySet<string>) => string;
  /** Receives `onSearchExpand` for every new decision node. */
  readonly tracer?: PlanningTracer | undefined;
}

/**
 * The MCTS tree and one iteration of select → expand → simulate →
 * backpropagate. Under a stochastic model every action is a chance node
 * whose outcomes are sampled from the model, so an action's mean return
 * averages over what can really happen (a slip into a hole included).
 * @internal
 */
export class MctsSearch {
  nodeCount = 0;
  readonly #s: SearchSettings;
  readonly #rolloutContext: Omit<RolloutContext, "state" | "spent">;

  constructor(settings: SearchSettings) {
    this.#s = settings;
    this.#rolloutContext = {
      goal: settings.goal,
      actions: settings.actions,
      model: settings.model,
      stochastic: settings.stochastic,
      rng: settings.rng,
      depth: settings.rolloutDepth,
      discount: settings.discount,
      estimate: settings.estimate,
    };
  }

  /** A decision node for `state`, with its applicable actions and terminal status. */
  createNode(
    state: WorldState,
    spent: ReadonlySet<string>,
    parent: DecisionNode | ChanceNode | null,
    action: ActionSpec | null,
    key = this.#s.keyOf(state, spent),
  ): DecisionNode {
    const goalReached = this.#s.goal.isSatisfied(state);
    const untried = goalReached ? [] : applicableActions(state, this.#s.actions, spent);
    const terminal = goalReached ? "goal" : untried.length === 0 ? "dead-end" : null;
    const node = new DecisionNode(this.nodeCount++, state, key, spent, parent, action, untried, terminal);
    if (this.#s.tracer && parent !== null) this.#traceExpansion(node);
    return node;
  }

  /** One iteration from `root`. */
  iterate(root: DecisionNode): void {
    let node = root;
    let leaf: DecisionNode;
    for (;;) {
      if (node.terminal !== null) {
        leaf = node;
        break;
      }
      const expanded = this.#expand(node);
      if (expanded !== null) {
        leaf = expanded;
        break;
      }
      if (node.terminal !== null) {
        leaf = node;
        break;
      }
      const edge = this.#select(node);
      if (edge.kind === "decision") {
        node = edge;
        continue;
      }
      const { child, created } = this.#sampleOutcome(edge);
      if (created) {
        leaf = child;
        break;
      }
      node = child;
    }
    backpropagate(leaf, this.#leafReturn(leaf), this.#s.discount);
  }

  #leafReturn(leaf: DecisionNode): number {
    if (leaf.terminal === "goal") return GOAL_REWARD;
    if (leaf.terminal === "dead-end") return DEAD_END_REWARD;
    return this.#s.rollout.rollout({ ...this.#rolloutContext, state: leaf.state, spent: leaf.spent });
  }

  /** Expands one untried action of `node`; null when none is left (a node with no useful action becomes a dead end). */
  #expand(node: DecisionNode): DecisionNode | null {
    const { rng, model, stochastic } = this.#s;
    while (node.untried.length > 0) {
      const i = rng.int(0, node.untried.length - 1);
      const action = node.untried[i] as ActionSpec;
      node.untried[i] = node.untried[node.untried.length - 1] as ActionSpec;
      node.untried.pop();
      if (stochastic) {
        const chance = new ChanceNode(this.nodeCount++, node, action);
        node.children.push(chance);
        return this.#sampleOutcome(chance).child;
      }
      const next = expectedSuccessor(model, node.state, action);
      const spent = spendAction(node.spent, action);
      const key = this.#s.keyOf(next, spent);
      // A deterministic action that changes nothing is never worth a node.
      if (key === node.key) continue;
      const child = this.createNode(next, spent, node, action, key);
      node.children.push(child);
      return child;
    }
    if (node.children.length === 0) node.terminal = "dead-end";
    return null;
  }

  #select(node: DecisionNode): DecisionNode | ChanceNode {
    let best = node.children[0] as DecisionNode | ChanceNode;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const child of node.children) {
      const score = ucb1(child, node.visits, this.#s.c);
      if (score > bestScore) {
        bestScore = score;
        best = child;
      }
    }
    return best;
  }

  #sampleOutcome(chance: ChanceNode): { child: DecisionNode; created: boolean } {
    const parent = chance.parent;
    const next = sampledSuccessor(this.#s.model, parent.state, chance.action, this.#s.rng);
    const spent = spendAction(parent.spent, chance.action);
    const key = this.#s.keyOf(next, spent);
    const existing = chance.outcomes.get(key);
    if (existing !== undefined) return { child: existing, created: false };
    const child = this.createNode(next, spent, chance, chance.action, key);
    chance.outcomes.set(key, child);
    return { child, created: true };
  }

  #traceExpansion(node: DecisionNode): void {
    let g = 0;
    for (let n: DecisionNode | null = node; n?.action; n = n.decisionParent) {
      const before = n.decisionParent?.state ?? n.state;
      g += n.action.getCost(before);
    }
    const h = unsatisfiedKeys(node.state, this.#s.goal.conditions).length;
    callTracer(this.#s.tracer, "onSearchExpand", {
      nodeId: node.id,
      parentId: node.decisionParent?.id ?? null,
      actionName: node.action?.name ?? null,
      state: node.state,
      g,
      h,
      f: g + h,
    });
  }
}
