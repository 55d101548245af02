import { describeValue, LangGoapError, type WorldState } from "../../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import { TypedEmitter } from "../emitter.js";
import { BtNode } from "./node.js";
import type { BtHookName, BtNodeStatus, BtStatus, BtTickContext } from "./status.js";

/** Options of {@link BehaviourTree}. */
export interface BehaviourTreeOptions {
  readonly root: BtNode;
  /** The initial facts (copied; change them with `update` or through `blackboard`). @defaultValue {} */
  readonly blackboard?: Readonly<WorldState>;
  /** Label for logs. @defaultValue "tree" */
  readonly name?: string;
}

/** Events of {@link BehaviourTree}. */
export interface BehaviourTreeEvents {
  /** A node's user hook threw or returned something invalid; the node failed (or, for `exit`, carried on). */
  hookFailed: { readonly node: string; readonly hook: BtHookName; readonly error: unknown };
  /** After every tick. */
  ticked: { readonly tick: number; readonly time: number; readonly status: BtStatus };
}

interface HookFailure {
  readonly node: string;
  readonly hook: BtHookName;
  readonly error: unknown;
}

const BEHAVIOUR_TREE_OPTIONS_KEYS = { root: true, blackboard: true, name: true } as const satisfies OptionKeys<BehaviourTreeOptions>;

/**
 * A behaviour tree for one NPC: a root node and a blackboard of world-state
 * facts (the same plain object of own properties a {@link GoapAgent} or a
 * {@link UtilityBrain} reads). Each {@link BehaviourTree.tick} advances tree
 * time by the delta the game gives (no wall clock: the same ticks give the
 * same decisions) and ticks the root once; a root that finished starts over
 * on the next tick. Hook failures are collected during the tick and emitted
 * as `hookFailed` after it, so a throwing listener never leaves a node
 * half-way.
 *
 * @example
 * ```ts
 * const tree = new BehaviourTree({
 *   blackboard: { hunger: 0.2, threat: 0 },
 *   root: new UtilitySelector({ children: [{ node: flee, utility: fleeScore }, { node: eatPlan, utility: eatScore }] }),
 * });
 * tree.update({ threat: 0.9 });
 * tree.tick(1 / 60); // "running"
 * ```
 */
export class BehaviourTree extends TypedEmitter<BehaviourTreeEvents> {
  readonly name: string;
  readonly root: BtNode;
  /** Every node, depth first from the root. */
  readonly nodes: readonly BtNode[];
  readonly #blackboard: WorldState;
  readonly #failures: HookFailure[] = [];
  readonly #report = (node: { readonly name: string }, hook: BtHookName, error: unknown) => {
    this.#failures.push({ node: node.name, hook, error });
  };
  #tick = 0;
  #time = 0;

  constructor(options: BehaviourTreeOptions) {
    super();
    checkOptionKeys(options, BEHAVIOUR_TREE_OPTIONS_KEYS, "new BehaviourTree()");
    const name = options?.name ?? "tree";
    if (!(options?.root instanceof BtNode)) {
      throw new LangGoapError("INVALID_OPTION", `behaviour tree "${name}": root must be a BtNode, got ${describeValue(options?.root)}`);
    }
    const blackboard = options.blackboard ?? {};
    if (typeof blackboard !== "object" || blackboard === null || Array.isArray(blackboard)) {
      throw new LangGoapError(
        "INVALID_STATE",
        `behaviour tree "${name}": blackboard must be an object of facts, got ${describeValue(blackboard)}`,
      );
    }
    this.name = name;
    this.root = options.root;
    this.nodes = Object.freeze(collectNodes(name, options.root));
    this.#blackboard = { ...blackboard };
  }

  /** The live facts every node reads and writes. */
  get blackboard(): WorldState {
    return this.#blackboard;
  }

  /** Ticks so far. */
  get ticks(): number {
    return this.#tick;
  }

  /** Tree time: the sum of every tick's delta, in seconds. */
  get time(): number {
    return this.#time;
  }

  /** The root's last status. */
  get status(): BtNodeStatus {
    return this.root.status;
  }

  /** Merges facts into the blackboard (e.g. from sensors, between ticks). */
  update(patch: Readonly<WorldState>): void {
    Object.assign(this.#blackboard, patch);
  }

  /** Advances tree time by `deltaSeconds` and ticks the root once; returns its status. */
  tick(deltaSeconds: number): BtStatus {
    if (typeof deltaSeconds !== "number" || !Number.isFinite(deltaSeconds) || deltaSeconds < 0) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `BehaviourTree.tick: deltaSeconds must be a finite number >= 0, got ${describeValue(deltaSeconds)}`,
      );
    }
    this.#tick++;
    this.#time += deltaSeconds;
    const ctx: BtTickContext = {
      blackboard: this.#blackboard,
      deltaSeconds,
      time: this.#time,
      tick: this.#tick,
      report: this.#report,
    };
    const status = this.root.tick(ctx);
    if (this.#failures.length > 0) {
      const failures = this.#failures.splice(0);
      for (const failure of failures) this.emit("hookFailed", failure);
    }
    if (this.listenerCount("ticked") > 0) this.emit("ticked", { tick: this.#tick, time: this.#time, status });
    return status;
  }

  /** Stops whatever runs (running nodes clean up); the next tick starts from the root. */
  abort(): void {
    this.root.abort();
  }
}

/** Depth first; a node met twice would share its per-NPC state between two places, so it is refused. */
function collectNodes(tree: string, root: BtNode): BtNode[] {
  const seen = new Set<BtNode>();
  const out: BtNode[] = [];
  const stack: BtNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop() as BtNode;
    if (seen.has(node)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `behaviour tree "${tree}": node "${node.name}" appears twice; a node keeps its own state, so give each place its own node`,
        { node: node.name },
      );
    }
    seen.add(node);
    out.push(node);
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as BtNode);
  }
  return out;
}
