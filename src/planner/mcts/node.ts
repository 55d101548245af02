import type { ActionSpec, WorldState } from "../../core/index.js";

/** Why a decision node ends the search below it. */
export type TerminalKind = "goal" | "dead-end";

/**
 * A state in the MCTS tree, where the agent chooses an action. Its
 * `value` is the running mean of the (discounted) returns seen from it.
 * @internal
 */
export class DecisionNode {
  readonly kind = "decision" as const;
  /** Edges taken from here: the next decision node (deterministic) or a chance node (stochastic). */
  readonly children: Array<DecisionNode | ChanceNode> = [];
  visits = 0;
  value = 0;
  parent: DecisionNode | ChanceNode | null;

  constructor(
    readonly id: number,
    readonly state: WorldState,
    readonly key: string,
    /** Names of `canRerun: false` actions already used on the path here. */
    readonly spent: ReadonlySet<string>,
    parent: DecisionNode | ChanceNode | null,
    /** The action whose outcome this state is (null at the root). */
    readonly action: ActionSpec | null,
    /** Applicable actions not expanded yet. */
    public untried: ActionSpec[],
    public terminal: TerminalKind | null,
  ) {
    this.parent = parent;
  }

  /** The decision node above this one, skipping a chance node. */
  get decisionParent(): DecisionNode | null {
    const p = this.parent;
    if (p === null) return null;
    return p.kind === "decision" ? p : p.parent;
  }
}

/**
 * An action taken under a stochastic transition model: its outcomes are
 * decision nodes keyed by the sampled state.
 * @internal
 */
export class ChanceNode {
  readonly kind = "chance" as const;
  readonly outcomes = new Map<string, DecisionNode>();
  visits = 0;
  value = 0;

  constructor(
    readonly id: number,
    readonly parent: DecisionNode,
    readonly action: ActionSpec,
  ) {}
}

/** Any node of the tree. @internal */
export type TreeNode = DecisionNode | ChanceNode;

/** The child with the most visits (ties: higher mean, then earlier), or undefined. @internal */
export function mostVisited(children: readonly TreeNode[]): TreeNode | undefined {
  let best: TreeNode | undefined;
  for (const child of children) {
    if (child.visits === 0) continue;
    if (best === undefined || child.visits > best.visits || (child.visits === best.visits && child.value > best.value)) best = child;
  }
  return best;
}

/**
 * Scales the visit counts of a subtree by `decay` (rounded), keeping the
 * means: old evidence still guides the search but weighs less than new
 * (Soemers & Winands, tree reuse with decay).
 * @internal
 */
export function decaySubtree(root: TreeNode, decay: number): void {
  const stack: TreeNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as TreeNode;
    node.visits = Math.round(node.visits * decay);
    if (node.kind === "decision") stack.push(...node.children);
    else stack.push(...node.outcomes.values());
  }
}
