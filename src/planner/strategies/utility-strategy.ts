import type { ActionSpec } from "../../core/action.js";
import { describeValue, LangGoapError } from "../../core/errors.js";
import type { WorldState } from "../../core/facts.js";
import { GoalPolicy, GoalSpec, type GoalSpecOptions, toGoalSpec } from "../../core/goal.js";
import { Plan } from "../plan.js";
import type { StrategyContext, StrategyResult } from "../types.js";
import { BasePlanningStrategy } from "./base.js";

/** The name every {@link NirvanaGoal} carries. */
export const NIRVANA_NAME = "Nirvana";

/** Options of {@link NirvanaGoal}: a goal's options without conditions. */
export type NirvanaGoalOptions = Omit<GoalSpecOptions, "conditions">;

/**
 * A goal that is never satisfied, for agents that act by utility forever
 * (Embabel's "Nirvana"): paired with {@link UtilityStrategy}, the agent keeps
 * taking the most useful applicable action. Its policy defaults to
 * replanning after every action.
 *
 * @example
 * ```ts
 * const graph = new GoapGraph(actions, { strategy: new UtilityStrategy() });
 * await graph.invoke(new NirvanaGoal(), world);
 * ```
 */
export class NirvanaGoal extends GoalSpec {
  constructor(options: NirvanaGoalOptions = {}) {
    if ((options as GoalSpecOptions).conditions !== undefined) {
      throw new LangGoapError(
        "INVALID_GOAL",
        `NirvanaGoal takes no conditions (it is never satisfied), got ${describeValue((options as GoalSpecOptions).conditions)}`,
      );
    }
    super({
      ...options,
      conditions: {},
      policy: options.policy ?? new GoalPolicy({ replanStrategy: "every_action" }),
      name: options.name ?? NIRVANA_NAME,
    });
  }

  /** Never: Nirvana is pursued, not reached. */
  override isSatisfied(_state: Readonly<WorldState>): boolean {
    return false;
  }

  /** A copy with some options replaced (still a NirvanaGoal). */
  override with(patch: NirvanaGoalOptions): NirvanaGoal {
    const { conditions: _never, ...options } = this.toOptions();
    return new NirvanaGoal({ ...options, ...patch });
  }
}

/**
 * True for a {@link NirvanaGoal}, and for a goal restored from JSON that was
 * one (named {@link NIRVANA_NAME}, without conditions).
 *
 * @example
 * ```ts
 * isNirvana(new NirvanaGoal()); // true
 * isNirvana(new GoalSpec({ conditions: { fed: true } })); // false
 * ```
 */
export function isNirvana(goal: unknown): boolean {
  if (goal instanceof NirvanaGoal) return true;
  return goal instanceof GoalSpec && goal.name === NIRVANA_NAME && Object.keys(goal.conditions).length === 0;
}

/** Options of {@link UtilityStrategy}. */
export interface UtilityStrategyOptions {
  /** Act only when the best `utility - cost` reaches this; otherwise return `null`. @defaultValue -Infinity */
  readonly minNetValue?: number;
}

/**
 * Greedy utility planning: one-step plans with the applicable action of the
 * highest `utility - cost` in the current state (ties go to the earlier
 * action). Pair it with {@link NirvanaGoal}, or any goal with
 * `replanStrategy: "every_action"`, so each step is chosen afresh. Returns
 * an empty plan when a (non-Nirvana) goal already holds, and `null` when no
 * action applies.
 *
 * @example
 * ```ts
 * const eat = new ActionSpec({ name: "eat", preconditions: { hungry: true }, effects: { hungry: false }, utility: 5, cost: 1 });
 * const p = await new UtilityStrategy().plan({ hungry: true }, new NirvanaGoal(), [eat]);
 * p?.actionNames; // ["eat"]
 * ```
 */
export class UtilityStrategy extends BasePlanningStrategy {
  readonly name = "utility";
  readonly minNetValue: number;

  constructor(options: UtilityStrategyOptions = {}) {
    super();
    const floor = options.minNetValue ?? Number.NEGATIVE_INFINITY;
    if (typeof floor !== "number" || Number.isNaN(floor)) {
      throw new LangGoapError("INVALID_OPTION", `UtilityStrategy.minNetValue must be a number, got ${describeValue(floor)}`);
    }
    this.minNetValue = floor;
  }

  /** The one-step plan, or `no_plan` when no action applies (blacklisted ones left out) or the best is below `minNetValue`. */
  async planDetailed(
    start: Readonly<WorldState>,
    goal: GoalSpec,
    actions: readonly ActionSpec[],
    context: StrategyContext = {},
  ): Promise<StrategyResult> {
    const plan = this.#choose(start, goal, actions, context);
    return { plan, status: plan ? "found" : "no_plan" };
  }

  #choose(start: Readonly<WorldState>, goal: GoalSpec, actions: readonly ActionSpec[], context: StrategyContext): Plan | null {
    const began = performance.now();
    const goalSpec = toGoalSpec(goal);
    if (goalSpec.isSatisfied(start)) return Plan.empty({ ...start }, { strategy: this.name, applicableCount: 0 });
    const blacklisted = new Set(context.blacklisted ?? []);
    let best: ActionSpec | undefined;
    let bestNet = Number.NEGATIVE_INFINITY;
    let bestUtility = 0;
    let bestCost = 0;
    let applicableCount = 0;
    for (const action of actions) {
      if (blacklisted.has(action.name) || !action.isApplicable(start)) continue;
      applicableCount++;
      const utility = action.getUtility(start);
      const cost = action.getCost(start);
      if (best === undefined || utility - cost > bestNet) {
        best = action;
        bestNet = utility - cost;
        bestUtility = utility;
        bestCost = cost;
      }
    }
    if (best === undefined || bestNet < this.minNetValue) return null;
    return new Plan({
      actions: [best],
      expectedStates: [best.apply(start)],
      startState: { ...start },
      totalCost: bestCost,
      metadata: {
        strategy: this.name,
        applicableCount,
        utility: bestUtility,
        netValue: bestNet,
        nodesExpanded: 1,
        nodesGenerated: applicableCount,
        planningTimeMs: performance.now() - began,
      },
    });
  }
}
