import {
  type ActionSpec,
  describeValue,
  type GoalLike,
  GoalSpec,
  LangGoapError,
  toGoalSpec,
  unsatisfiedKeys,
  type WorldState,
} from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { type BudgetExhaustion, type Plan, type PlanOptions, planDetailed, type SearchStatus } from "../planner/index.js";
import { type GoapAgentOptions, resolveAgentOptions } from "./agent-options.js";
import type {
  ActionBehaviour,
  ActionOutcome,
  ActionTickContext,
  AgentStatus,
  ExitReason,
  GoapAgentEvents,
  TickSensor,
} from "./agent-types.js";
import { TypedEmitter } from "./emitter.js";
import type { GoalDecision, GoalSelectionContext, GoalSelector } from "./goal-selectors.js";
import type { AsyncPlanner, PlanCache } from "./plan-cache.js";

const NO_BEHAVIOUR: ActionBehaviour = Object.freeze({});

const GOAP_AGENT_OPTIONS_KEYS = {
  actions: true,
  state: true,
  shareState: true,
  behaviours: true,
  sensors: true,
  goal: true,
  selector: true,
  replanInterval: true,
  planCache: true,
  planner: true,
  planOptions: true,
  applyEffects: true,
  name: true,
} as const satisfies OptionKeys<GoapAgentOptions>;

/**
 * The guide's tick-driven GOAP agent for game loops. Each
 * {@link GoapAgent.tick} runs, in order: sensors update the world state; the
 * goal selector may switch goals; every `replanInterval` seconds the plan is
 * validated (the running action's preconditions and `isValid`, and whether
 * the goal already holds); a plan is made when one is due; and the current
 * action advances through `enter → execute(delta) → exit`. A completed
 * action's effects are applied, and the next action is entered at once but
 * executes from the next tick. Planning goes through the shared
 * {@link PlanCache} when one is given.
 *
 * Actions whose `isValid` hook says no are left out of planning. A throwing
 * sensor or hook never breaks the loop: it emits `hookFailed` (a failed
 * `execute` or `enter` fails the action; a failed `isValid` counts as
 * invalid). After a failed action or a failed plan the agent waits for the
 * next validation before planning again. Listeners run synchronously; one
 * that throws is rethrown from `tick` after the others ran, and the agent
 * resumes from a consistent state on the next tick.
 *
 * @example
 * ```ts
 * const agent = new GoapAgent({
 *   actions: createVillageActions(),
 *   state: villageStartState(),
 *   goal: { is_hungry: false },
 *   behaviours: { chop_wood: { execute: (ctx) => ctx.elapsed >= 1.5 } },
 *   sensors: [() => ({ near_tree: distanceToTree() < 1 })],
 * });
 * agent.on("goalAchieved", () => console.log("fed"));
 * for (let frame = 0; frame < 600; frame++) agent.tick(1 / 60);
 * ```
 */
export class GoapAgent extends TypedEmitter<GoapAgentEvents> {
  readonly name: string;
  readonly actions: readonly ActionSpec[];
  readonly replanInterval: number;
  readonly applyEffects: boolean;
  readonly #behaviours: ReadonlyMap<string, ActionBehaviour>;
  /** Actions with an `isValid` hook, checked before each planning. */
  readonly #guarded: readonly ActionSpec[];
  readonly #sensors: readonly TickSensor[];
  readonly #selector: GoalSelector | undefined;
  readonly #cache: PlanCache | undefined;
  readonly #planner: AsyncPlanner | undefined;
  /** The request an off-thread planner is answering; a different (or no) request when its answer arrives means drop it. */
  #request: object | null = null;
  readonly #planOptions: PlanOptions;
  readonly #goalSpecs = new WeakMap<object, GoalSpec>();
  readonly #state: WorldState;
  #goal: GoalSpec | null = null;
  #goalName: string | null = null;
  #plan: Plan | null = null;
  #step = 0;
  #entered = false;
  #enteredAt = 0;
  #needsPlan = false;
  #achieved = false;
  #blocked = false;
  #time = 0;
  #replanTimer = 0;

  constructor(options: GoapAgentOptions) {
    super();
    checkOptionKeys(options, GOAP_AGENT_OPTIONS_KEYS, "new GoapAgent()");
    const resolved = resolveAgentOptions(options);
    this.name = resolved.name;
    this.actions = resolved.actions;
    this.replanInterval = resolved.replanInterval;
    this.applyEffects = resolved.applyEffects;
    this.#behaviours = resolved.behaviours;
    this.#guarded = this.actions.filter((a) => typeof resolved.behaviours.get(a.name)?.isValid === "function");
    this.#sensors = resolved.sensors;
    this.#selector = resolved.selector;
    this.#cache = resolved.planCache;
    this.#planner = resolved.planner;
    this.#planOptions = resolved.planOptions;
    this.#state = resolved.shareState ? (resolved.state as WorldState) : { ...resolved.state };
    if (options.goal !== undefined) this.setGoal(options.goal);
  }

  /** The live world state (read-only; change it with {@link GoapAgent.update} or sensors). */
  get state(): Readonly<WorldState> {
    return this.#state;
  }
  get goal(): GoalSpec | null {
    return this.#goal;
  }
  get goalName(): string | null {
    return this.#goalName;
  }
  /** The running plan, or null. */
  get plan(): Plan | null {
    return this.#plan;
  }
  /** Index of the current action in {@link GoapAgent.plan}. */
  get step(): number {
    return this.#step;
  }
  get currentAction(): ActionSpec | null {
    return this.#plan?.actions[this.#step] ?? null;
  }
  /** Seconds of ticks so far. */
  get time(): number {
    return this.#time;
  }
  get status(): AgentStatus {
    if (!this.#goal) return "idle";
    if (this.#plan) return "running";
    if (this.#needsPlan) return "pending";
    if (this.#achieved) return this.#goal.isSatisfied(this.#state) ? "achieved" : "pending";
    return this.#blocked ? "blocked" : "pending";
  }

  /** Merges facts into the world state (e.g. from game code between ticks). */
  update(patch: Readonly<WorldState>): void {
    Object.assign(this.#state, patch);
  }

  /**
   * Pursues `goal` from the next tick (null drops the goal). The running
   * action, if any, is interrupted. Setting the current goal again is a no-op.
   */
  setGoal(goal: GoalLike | null, name?: string): void {
    const spec = goal === null ? null : this.#toGoalSpec(goal);
    if (spec === this.#goal) return;
    this.#switchGoal(spec, name ?? spec?.name ?? null, undefined);
  }

  /**
   * Drops the running plan and plans now; returns the new plan (null when
   * none, and always null with an off-thread `planner`, whose answer comes
   * later: see {@link GoapAgent.replanAsync}).
   */
  replan(reason = "replan requested"): Plan | null {
    if (this.#plan) this.#invalidate(reason);
    this.#request = null;
    this.#makePlan();
    return this.#plan;
  }

  /**
   * {@link GoapAgent.replan} that also waits for an off-thread `planner`'s
   * answer: resolves with the plan the agent adopted (null when none, or
   * when the goal changed before the answer came).
   *
   * @example
   * ```ts
   * await Promise.all(villagers.map((v) => v.replanAsync()));
   * ```
   */
  async replanAsync(reason = "replan requested"): Promise<Plan | null> {
    const plan = this.replan(reason);
    const request = this.#request;
    if (request === null) return plan;
    await (request as { readonly done: Promise<void> }).done;
    return this.#plan;
  }

  /** Advances the agent by `deltaSeconds` (see the class summary for the order of work). */
  tick(deltaSeconds: number): void {
    if (typeof deltaSeconds !== "number" || !Number.isFinite(deltaSeconds) || deltaSeconds < 0) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `GoapAgent.tick: deltaSeconds must be a finite number >= 0, got ${describeValue(deltaSeconds)}`,
      );
    }
    this.#time += deltaSeconds;
    this.#sense(deltaSeconds);
    if (this.#selector) this.#select(deltaSeconds);
    this.#replanTimer += deltaSeconds;
    if (this.#replanTimer >= this.replanInterval) {
      this.#replanTimer = 0;
      this.#validate();
    }
    if (this.#needsPlan) this.#makePlan();
    this.#run(deltaSeconds);
  }

  #toGoalSpec(goal: GoalLike): GoalSpec {
    if (goal instanceof GoalSpec) return goal;
    // The same conditions object maps to the same spec, so selectors returning constants do not look like new goals.
    let spec = this.#goalSpecs.get(goal);
    if (!spec) {
      spec = toGoalSpec(goal);
      this.#goalSpecs.set(goal, spec);
    }
    return spec;
  }

  #sense(deltaSeconds: number): void {
    for (const sensor of this.#sensors) {
      let patch: unknown;
      try {
        patch = sensor.sense(this.#state, deltaSeconds);
      } catch (error) {
        this.emit("hookFailed", { hook: "sensor", name: sensor.name, error });
        continue;
      }
      if (patch === undefined || patch === null) continue;
      if (typeof patch !== "object" || Array.isArray(patch)) {
        const error = new LangGoapError(
          "INVALID_STATE",
          `sensor "${sensor.name}" returned ${describeValue(patch)}; expected an object of facts`,
        );
        this.emit("hookFailed", { hook: "sensor", name: sensor.name, error });
        continue;
      }
      Object.assign(this.#state, patch);
    }
  }

  #select(deltaSeconds: number): void {
    const context: GoalSelectionContext = {
      state: this.#state,
      deltaSeconds,
      goal: this.#goal,
      goalName: this.#goalName,
      idle: this.#plan === null,
    };
    const decision: GoalDecision | null | undefined = (this.#selector as GoalSelector).select(context);
    if (!decision) return;
    const spec = this.#toGoalSpec(decision.goal);
    const name = decision.name ?? spec.name ?? null;
    const same = spec === this.#goal || (name !== null && name === this.#goalName);
    if (!same) {
      this.#switchGoal(spec, name, decision.plan);
    } else if (this.#plan === null && decision.plan && !decision.plan.isEmpty) {
      this.#adopt(decision.plan, false);
    }
  }

  #switchGoal(goal: GoalSpec | null, name: string | null, plan: Plan | null | undefined): void {
    const previous = this.#goal;
    this.#interrupt();
    this.#plan = null;
    this.#goal = goal;
    this.#goalName = name;
    this.#achieved = false;
    this.#blocked = false;
    this.#needsPlan = goal !== null;
    this.#request = null;
    this.emit("goalChanged", { previous, goal, name });
    if (goal && plan && !plan.isEmpty) this.#adopt(plan, false);
  }

  #validate(): void {
    const goal = this.#goal;
    if (!goal) return;
    if (!this.#plan) {
      if (!goal.isSatisfied(this.#state)) {
        // Blocked, or achieved but undone since (hunger returns): plan again.
        this.#achieved = false;
        this.#needsPlan = true;
      } else if (!this.#achieved) {
        this.#achieve(goal);
      }
      return;
    }
    if (goal.isSatisfied(this.#state)) {
      this.#interrupt();
      this.#plan = null;
      this.#achieve(goal);
      return;
    }
    const action = this.#plan.actions[this.#step] as ActionSpec;
    const broken = unsatisfiedKeys(this.#state, action.preconditions);
    if (broken.length > 0) {
      this.#invalidate(`preconditions of "${action.name}" no longer hold: ${broken.join(", ")}`);
    } else if (!this.#isValid(action)) {
      this.#invalidate(`"${action.name}" is no longer valid`);
    }
  }

  #makePlan(): void {
    this.#needsPlan = false;
    const goal = this.#goal;
    if (!goal) return;
    if (goal.isSatisfied(this.#state)) {
      if (!this.#achieved) this.#achieve(goal);
      return;
    }
    const invalid = this.#guarded.length === 0 ? this.#guarded : this.#guarded.filter((a) => !this.#isValid(a));
    const usable = invalid.length === 0 ? this.actions : this.actions.filter((a) => !invalid.includes(a));
    if (this.#planner) {
      this.#requestPlan(goal, usable, invalid);
      return;
    }
    // Only the fields used: the no-plan explanation is computed when read, and nobody reads it here.
    const detailed = this.#cache ? null : planDetailed(this.#state, goal, usable, this.#planOptions);
    const result = detailed
      ? { plan: detailed.plan, status: detailed.status, fromCache: false, budget: detailed.budget }
      : (this.#cache as PlanCache).plan(this.#state, goal, usable, this.#planOptions);
    this.#receive(goal, invalid, result);
  }

  #receive(
    goal: GoalSpec,
    invalid: readonly ActionSpec[],
    result: { readonly plan: Plan | null; readonly status: SearchStatus; readonly fromCache: boolean; readonly budget?: BudgetExhaustion },
  ): void {
    if (!result.plan) {
      this.#blocked = true;
      const reason =
        result.status === "no_plan"
          ? `no plan reaches ${goal.label}${invalid.length ? ` (invalid now: ${invalid.map((a) => a.name).join(", ")})` : ""}`
          : `planning stopped: ${result.status}${result.budget ? ` (${result.budget.message})` : ""}`;
      this.emit("planFailed", { goal, status: result.status, reason });
      return;
    }
    this.#adopt(result.plan, result.fromCache);
  }

  /** Asks the off-thread planner; the answer is adopted when it arrives, unless the agent has moved on. */
  #requestPlan(goal: GoalSpec, usable: readonly ActionSpec[], invalid: readonly ActionSpec[]): void {
    if (this.#request !== null) return;
    const planner = this.#planner as AsyncPlanner;
    const start = { ...this.#state };
    const asked = this.#cache
      ? this.#cache.planAsync(start, goal, usable, this.#planOptions, planner)
      : // Not a spread: it would read the result's lazy "no plan" explanation, which costs a compile on this thread.
        planner
          .planDetailed(start, goal, usable, this.#planOptions)
          .then((r) => ({ plan: r.plan, status: r.status, fromCache: false, ...(r.budget ? { budget: r.budget } : {}) }));
    const request = {
      done: asked.then(
        (result) => {
          if (this.#request !== request) return;
          this.#request = null;
          if (this.#plan === null && this.#goal === goal) this.#receive(goal, invalid, result);
        },
        (error: unknown) => {
          if (this.#request !== request) return;
          this.#request = null;
          this.#blocked = true;
          this.emit("hookFailed", { hook: "planner", name: goal.label, error });
        },
      ),
    };
    // A listener that throws rejects `done` for replanAsync's caller; nobody else waits on it.
    request.done.catch(() => undefined);
    this.#request = request;
  }

  #adopt(plan: Plan, fromCache: boolean): void {
    this.#plan = plan;
    this.#step = 0;
    this.#entered = false;
    this.#blocked = false;
    this.#needsPlan = false;
    this.emit("planFound", { goal: this.#goal as GoalSpec, plan, fromCache });
  }

  #run(deltaSeconds: number): void {
    const plan = this.#plan;
    if (!plan) return;
    if (!this.#entered && !this.#start()) return;
    const action = plan.actions[this.#step] as ActionSpec;
    const behaviour = this.#behaviour(action);
    let outcome: ActionOutcome = "done";
    if (behaviour.execute) {
      try {
        outcome = behaviour.execute(this.#context(action), deltaSeconds);
      } catch (error) {
        this.emit("hookFailed", { hook: "execute", name: action.name, error });
        this.#fail(action, `execute threw: ${(error as Error)?.message ?? error}`, error);
        return;
      }
    }
    if (outcome === true || outcome === "done") this.#complete(plan, action);
    else if (outcome === "failed") this.#fail(action, "execute reported failure");
    else if (outcome !== false && outcome !== "running") {
      this.#fail(action, `execute returned ${describeValue(outcome)}; expected true, false, "running", "done" or "failed"`);
    }
  }

  /** Enters the current action; false (and the plan dropped) when it cannot start. */
  #start(): boolean {
    const plan = this.#plan as Plan;
    const action = plan.actions[this.#step] as ActionSpec;
    const broken = unsatisfiedKeys(this.#state, action.preconditions);
    if (broken.length > 0) {
      this.#invalidate(`preconditions of "${action.name}" do not hold at its start: ${broken.join(", ")}`, false);
      return false;
    }
    this.#entered = true;
    this.#enteredAt = this.#time;
    const behaviour = this.#behaviour(action);
    if (behaviour.enter) {
      try {
        behaviour.enter(this.#context(action));
      } catch (error) {
        this.emit("hookFailed", { hook: "enter", name: action.name, error });
        this.#fail(action, `enter threw: ${(error as Error)?.message ?? error}`, error);
        return false;
      }
    }
    this.emit("actionStarted", { action, step: this.#step, plan });
    return true;
  }

  #complete(plan: Plan, action: ActionSpec): void {
    this.#exit(action, "completed");
    if (this.applyEffects) {
      let effects: WorldState;
      try {
        effects = action.getEffects(this.#state);
      } catch (error) {
        this.#fail(action, `its effects could not be applied: ${(error as Error)?.message ?? error}`, error, false);
        return;
      }
      Object.assign(this.#state, effects);
    }
    const step = this.#step;
    this.#step = step + 1;
    this.#entered = false;
    const finished = this.#step >= plan.actions.length;
    if (finished) this.#plan = null;
    this.emit("actionCompleted", { action, step, plan });
    if (!finished) {
      this.#start();
      return;
    }
    const goal = this.#goal as GoalSpec;
    if (goal.isSatisfied(this.#state)) {
      this.#achieve(goal);
    } else {
      this.#blocked = true;
      const missing = unsatisfiedKeys(this.#state, goal.conditions);
      this.emit("planInvalidated", { goal, plan, step, reason: `plan finished but the goal does not hold: ${missing.join(", ")}` });
    }
  }

  #fail(action: ActionSpec, reason: string, error?: unknown, exit = true): void {
    if (exit) this.#exit(action, "failed");
    const step = this.#step;
    this.#plan = null;
    this.#entered = false;
    this.#blocked = true;
    this.#needsPlan = false;
    this.emit("actionFailed", { action, step, reason, ...(error !== undefined ? { error } : {}) });
  }

  /**
   * Drops the running plan, interrupting its action. A plan found broken by
   * validation is replaced at once; one that broke on its own (an action
   * could not start) waits for the next validation, so a domain whose effects
   * never come true cannot make the agent replan on every tick.
   */
  #invalidate(reason: string, replanNow = true): void {
    const plan = this.#plan as Plan;
    const step = this.#step;
    this.#interrupt();
    this.#plan = null;
    this.#needsPlan = replanNow;
    this.#blocked = !replanNow;
    this.emit("planInvalidated", { goal: this.#goal as GoalSpec, plan, step, reason });
  }

  #interrupt(): void {
    const action = this.#plan?.actions[this.#step];
    if (action && this.#entered) this.#exit(action, "interrupted");
    this.#entered = false;
  }

  #achieve(goal: GoalSpec): void {
    this.#achieved = true;
    this.#blocked = false;
    this.emit("goalAchieved", { goal, name: this.#goalName });
  }

  #exit(action: ActionSpec, reason: ExitReason): void {
    const exit = this.#behaviour(action).exit;
    if (!exit) return;
    try {
      exit(this.#context(action), reason);
    } catch (error) {
      this.emit("hookFailed", { hook: "exit", name: action.name, error });
    }
  }

  #isValid(action: ActionSpec): boolean {
    const isValid = this.#behaviour(action).isValid;
    if (!isValid) return true;
    try {
      return isValid(this.#context(action)) === true;
    } catch (error) {
      this.emit("hookFailed", { hook: "isValid", name: action.name, error });
      return false;
    }
  }

  #behaviour(action: ActionSpec): ActionBehaviour {
    return this.#behaviours.get(action.name) ?? NO_BEHAVIOUR;
  }

  #context(action: ActionSpec): ActionTickContext {
    return {
      action,
      step: this.#step,
      state: this.#state,
      elapsed: this.#entered ? this.#time - this.#enteredAt : 0,
      update: (patch) => this.update(patch),
    };
  }
}
