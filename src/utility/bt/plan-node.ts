import { type ActionSpec, describeValue, type GoalLike, LangGoapError } from "../../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../../core/option-keys.js";
import type { Plan, PlanOptions } from "../../planner/index.js";
import { GoapAgent } from "../agent.js";
import { type GoapAgentOptions, resolveAgentOptions } from "../agent-options.js";
import type { ActionBehaviour } from "../agent-types.js";
import type { UtilityBrain } from "../brain.js";
import { type GoalSelector, stupGoalSelector } from "../goal-selectors.js";
import type { PlanCache } from "../plan-cache.js";
import { type StupSelection, StupSelector } from "../stup.js";
import { leafBehaviour } from "./leaf-behaviour.js";
import { BtNode } from "./node.js";
import type { BtStatus, BtTickContext } from "./status.js";

/** Options of {@link PlanNode}: give exactly one of `goal` and `selector`. */
export interface PlanNodeOptions {
  /** The actions plans are made of. */
  readonly actions: readonly ActionSpec[];
  /** The goal to plan for, on every activation. */
  readonly goal?: GoalLike;
  /**
   * Where goals come from instead: a {@link StupSelector} (STUP chooses the
   * goal by utility and hands over its plan), a {@link UtilityBrain}, a
   * {@link GoalSelector} or its `select` function.
   */
  readonly selector?: StupSelector | UtilityBrain | GoalSelector | GoalSelector["select"];
  /** The node that plays each planned action, by action name (these nodes are the plan node's children). @defaultValue {} */
  readonly leaves?: Readonly<Record<string, BtNode>>;
  /** Agent hooks for actions without a leaf; an action with neither finishes on its first tick. @defaultValue {} */
  readonly behaviours?: Readonly<Record<string, ActionBehaviour>>;
  /** Seconds between checks of the running step against the world (see {@link GoapAgentOptions.replanInterval}); 0 checks every tick. @defaultValue 0 */
  readonly replanInterval?: number;
  /** Replans (after a failed leaf, or a world that broke the running step) one activation may make before the node fails. @defaultValue 3 */
  readonly maxReplans?: number;
  readonly planCache?: PlanCache;
  /** @defaultValue { maxNodes: 100000, timeBudgetMs: 100 } */
  readonly planOptions?: PlanOptions;
  /** Apply a completed action's declared effects to the blackboard. @defaultValue true */
  readonly applyEffects?: boolean;
  /** Called once with the agent when it is made (on the first tick), e.g. to follow its events. */
  readonly onAgent?: (agent: GoapAgent) => void;
  /** @defaultValue "plan" */
  readonly name?: string;
}

const PLAN_NODE_OPTIONS_KEYS = {
  actions: true,
  goal: true,
  selector: true,
  leaves: true,
  behaviours: true,
  replanInterval: true,
  maxReplans: true,
  planCache: true,
  planOptions: true,
  applyEffects: true,
  onAgent: true,
  name: true,
} as const satisfies OptionKeys<PlanNodeOptions>;

/**
 * A branch that plans and carries the plan out: on activation it plans for
 * its goal from the blackboard (or lets STUP choose the goal and its plan),
 * then plays the plan's actions one after another, each by ticking its leaf
 * node, until the goal holds (success). It is a {@link GoapAgent} inside a
 * tree, sharing the tree's blackboard as its world state, so it replans as
 * the agent does: when a leaf fails, when the world breaks the running
 * step's preconditions (checked every `replanInterval`), and succeeds early
 * when the world already satisfies the goal. It fails when no plan exists,
 * when no goal was selected, or after `maxReplans` replans in one
 * activation. Aborted by its parent, it interrupts the running leaf and
 * plans afresh on its next activation.
 *
 * @example
 * ```ts
 * const eat = new PlanNode({
 *   name: "eat",
 *   actions: createVillageActions(),
 *   goal: { is_hungry: false },
 *   leaves: { go_to_tree: walkTo("tree"), chop_wood: chop, go_to_campfire: walkTo("campfire"), cook_food: cook, eat_food: chew },
 * });
 * const tree = new BehaviourTree({ root: eat, blackboard: villageStartState() });
 * while (tree.tick(0.1) === "running");
 * ```
 */
export class PlanNode extends BtNode {
  readonly maxReplans: number;
  readonly #goal: GoalLike | undefined;
  readonly #agentOptions: GoapAgentOptions;
  readonly #onAgent: ((agent: GoapAgent) => void) | undefined;
  #agent: GoapAgent | null = null;
  #ctx: BtTickContext | null = null;
  #replans = 0;
  #lastReason: string | null = null;
  #noPlan: string | null = null;
  #failure: string | null = null;
  #selection: StupSelection | null = null;

  constructor(options: PlanNodeOptions) {
    checkOptionKeys(options, PLAN_NODE_OPTIONS_KEYS, "new PlanNode()");
    const name = options?.name ?? "plan";
    const leaves = options?.leaves ?? {};
    if (typeof leaves !== "object" || leaves === null || Array.isArray(leaves)) {
      throw new LangGoapError("INVALID_OPTION", `plan node "${name}": leaves must be an object of nodes by action name`, { node: name });
    }
    super(name, Object.values(leaves));
    if ((options.goal === undefined) === (options.selector === undefined)) {
      throw new LangGoapError("INVALID_OPTION", `plan node "${name}": give exactly one of goal and selector`, { node: name });
    }
    const maxReplans = options.maxReplans ?? 3;
    if (!Number.isSafeInteger(maxReplans) || maxReplans < 0) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `plan node "${name}": maxReplans must be an integer >= 0, got ${describeValue(maxReplans)}`,
        {
          node: name,
        },
      );
    }
    const behaviours: Record<string, ActionBehaviour> = { ...options.behaviours };
    for (const [action, leaf] of Object.entries(leaves)) {
      if (Object.hasOwn(behaviours, action)) {
        throw new LangGoapError("INVALID_OPTION", `plan node "${name}": action "${action}" has both a leaf and a behaviour; give one`, {
          node: name,
          action,
        });
      }
      behaviours[action] = leafBehaviour(leaf, () => this.#ctx as BtTickContext);
    }
    const selector =
      options.selector instanceof StupSelector
        ? stupGoalSelector(options.selector, { minInterval: 0, onSelect: (s) => (this.#selection = s) })
        : options.selector;
    this.#agentOptions = {
      name,
      actions: options.actions,
      behaviours,
      replanInterval: options.replanInterval ?? 0,
      shareState: true,
      ...(selector !== undefined ? { selector } : {}),
      ...(options.planCache !== undefined ? { planCache: options.planCache } : {}),
      ...(options.planOptions !== undefined ? { planOptions: options.planOptions } : {}),
      ...(options.applyEffects !== undefined ? { applyEffects: options.applyEffects } : {}),
    };
    // Checked now (unknown leaf names, bad intervals), though the agent is made on the first tick, with the tree's blackboard.
    resolveAgentOptions(this.#agentOptions);
    if (options.onAgent !== undefined && typeof options.onAgent !== "function") {
      throw new LangGoapError("INVALID_OPTION", `plan node "${name}": onAgent must be a function`, { node: name });
    }
    this.maxReplans = maxReplans;
    this.#goal = options.goal;
    this.#onAgent = options.onAgent;
  }

  /** The agent that plans and runs the steps (null before the first tick). */
  get agent(): GoapAgent | null {
    return this.#agent;
  }

  /** The running plan, or null. */
  get plan(): Plan | null {
    return this.#agent?.plan ?? null;
  }

  /** Replans in the current (or last) activation. */
  get replans(): number {
    return this.#replans;
  }

  /** Why the last activation failed, or null. */
  get lastFailure(): string | null {
    return this.#failure;
  }

  /** STUP's last selection, when the selector is a {@link StupSelector}. */
  get lastSelection(): StupSelection | null {
    return this.#selection;
  }

  protected update(ctx: BtTickContext): BtStatus {
    const agent = this.#bind(ctx);
    this.#ctx = ctx;
    if (!this.isRunning) {
      this.#replans = 0;
      this.#failure = null;
      // A selected goal is chosen afresh on each activation; a fixed one is kept (an achieved goal is not replanned).
      agent.setGoal(this.#goal ?? null);
    }
    this.#noPlan = null;
    agent.tick(ctx.deltaSeconds);
    if (this.#noPlan !== null) return this.#fail(this.#noPlan);
    if (this.#replans > this.maxReplans) {
      return this.#fail(`gave up after ${this.#replans} replans (maxReplans ${this.maxReplans}); last: ${this.#lastReason}`);
    }
    const status = agent.status;
    if (status === "achieved") return "success";
    if (status === "idle") return this.#fail("no goal was selected");
    // running, pending, or blocked after a failed step (retried at the next check).
    return "running";
  }

  protected override onAbort(): void {
    this.#agent?.setGoal(null);
    super.onAbort();
  }

  #fail(reason: string): BtStatus {
    this.#failure = reason;
    this.#agent?.setGoal(null);
    return "failure";
  }

  #bind(ctx: BtTickContext): GoapAgent {
    const agent = this.#agent;
    if (agent) {
      if (agent.state !== ctx.blackboard) {
        throw new LangGoapError(
          "INVALID_STATE",
          `plan node "${this.name}" is bound to another blackboard; nodes keep per-NPC state, so build one tree per NPC`,
          { node: this.name },
        );
      }
      return agent;
    }
    const created = new GoapAgent({ ...this.#agentOptions, state: ctx.blackboard });
    const replanned = (reason: string) => {
      this.#replans++;
      this.#lastReason = reason;
    };
    created.on("planFailed", ({ reason }) => {
      this.#noPlan = reason;
    });
    created.on("actionFailed", ({ action, reason }) => replanned(`"${action.name}" failed: ${reason}`));
    created.on("planInvalidated", ({ reason }) => replanned(reason));
    this.#agent = created;
    this.#onAgent?.(created);
    return created;
  }
}
