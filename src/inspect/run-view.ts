import {
  type ActionSpec,
  type Condition,
  type Effect,
  formatCondition,
  formatEffect,
  type PlanningTracer,
  testCondition,
  type WorldState,
} from "../core/index.js";
import { DEFAULT_TIME_BUDGET_MS, Plan } from "../planner/index.js";
import { planDependencies } from "../viz/dependencies.js";
import { describeGoal } from "../viz/describe.js";

/** Statuses after which a run does nothing more (its execution record is written by then). */
const FINAL = new Set([
  "goal_achieved",
  "partially_achieved",
  "failed",
  "no_plan",
  "denied",
  "error",
  "terminated",
  "budget_exhausted",
  "aborted",
]);

/** Entries kept in each of a run's lists (diffs, replans, approvals); older ones are counted, not kept. */
export const MAX_RUN_ENTRIES = 200;

/** Budgets the run's planner was given, to show what is left of them. */
export interface RunBudget {
  /** @defaultValue Infinity */
  readonly maxExpansions?: number;
  /** @defaultValue 10,000 (the planner's default) */
  readonly timeBudgetMs?: number;
}

/** Options of {@link InspectorRun}. */
export interface InspectorRunOptions {
  /** Shown as the run's title. @defaultValue the run's id */
  readonly title?: string;
  /** The planner's budgets, for "budget left". @defaultValue the planner's defaults */
  readonly budget?: RunBudget;
}

type StepStatus = "planned" | "running" | "succeeded" | "failed";

interface Change {
  readonly key: string;
  readonly before: unknown;
  readonly after: unknown;
}

interface Approval {
  readonly action: string;
  readonly kind: string;
  status: "waiting" | "answered";
  answer?: unknown;
  by?: string;
}

/** A list that keeps its newest {@link MAX_RUN_ENTRIES} entries and counts the rest. */
class Recent<T> {
  readonly items: T[] = [];
  dropped = 0;
  push(item: T): void {
    this.items.push(item);
    if (this.items.length > MAX_RUN_ENTRIES) {
      this.items.shift();
      this.dropped++;
    }
  }
  toJSON(): { items: T[]; dropped: number } {
    return { items: this.items, dropped: this.dropped };
  }
}

function diff(before: Readonly<WorldState>, after: Readonly<WorldState>): Change[] {
  const changes: Change[] = [];
  for (const key of Object.keys(after)) {
    if (!Object.hasOwn(before, key) || !Object.is(before[key], after[key])) {
      if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) changes.push({ key, before: before[key], after: after[key] });
    }
  }
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) changes.push({ key, before: before[key], after: undefined });
  return changes;
}

function effectsOf(action: ActionSpec): { key: string; text: string }[] {
  const effects = action.staticEffects;
  if (!effects) return [...action.effectKeys].map((key) => ({ key, text: `${key} = (computed)` }));
  return Object.entries(effects).map(([key, effect]) => ({ key, text: formatEffect(key, effect as Effect) }));
}

function plainState(state: unknown): WorldState {
  return typeof state === "object" && state !== null ? { ...(state as WorldState) } : {};
}

/**
 * One graph run as the inspector shows it, fed by tracer hooks (pass it,
 * or a `MultiTracer` holding it, as the graph's tracer) and, for what
 * tracers do not see (approvals waiting and their answers, the run's
 * status), by the graph's streamed state through {@link InspectorRun.observe}.
 * Get one from `inspector.run(id)`; every change reaches the page within
 * one event-loop turn.
 *
 * @example
 * ```ts
 * const run = inspector.run("order-42");
 * const graph = new GoapGraph(actions, { tracer: run });
 * for await (const values of await graph.stream(goal, start, { streamMode: "values" })) run.observe(values);
 * ```
 */
export class InspectorRun implements PlanningTracer {
  readonly id: string;
  readonly #title: string;
  readonly #budget: RunBudget;
  readonly #changed: () => void;
  readonly #finished: () => void;
  /** Whether the end of the run was reported (a resumed run that ends again reports again). */
  #reported = false;
  #status = "started";
  #goal: string[] = [];
  #plan: Plan | null = null;
  /** The plan's causal links: for each step, the steps whose effects it needs. */
  #after: number[][] = [];
  #stepStatus: StepStatus[] = [];
  #current: number | null = null;
  #planStep = 0;
  #state: WorldState = {};
  #rounds = 0;
  #figures: Record<string, unknown> = {};
  #explanation: unknown = null;
  #reason: string | null = null;
  #events = 0;
  readonly #diffs = new Recent<{ step: number; action: string; success: boolean; error: string | null; changes: Change[] }>();
  readonly #replans = new Recent<{ round: number; reason: string; actions: string[] }>();
  readonly #approvals = new Recent<Approval>();

  /** @internal Created by `Inspector.run`. */
  constructor(id: string, options: InspectorRunOptions, changed: () => void, finished: () => void = () => {}) {
    this.id = id;
    this.#finished = finished;
    this.#title = options.title ?? id;
    this.#budget = options.budget ?? {};
    this.#changed = changed;
  }

  #touch(): void {
    this.#events++;
    this.#changed();
  }

  onPlanStart(goal: unknown, state: Readonly<WorldState>, strategyName: string): void {
    try {
      this.#goal = describeGoal(goal as never);
    } catch {
      this.#goal = [String(goal)];
    }
    this.#state = plainState(state);
    this.#status = "planning";
    this.#reported = false;
    this.#figures = { ...this.#figures, strategy: strategyName };
    this.#touch();
  }

  onPlanComplete(plan: unknown, durationMs: number): void {
    this.#rounds++;
    if (plan instanceof Plan) {
      this.#plan = plan;
      this.#after = planDependencies(plan.actions, plan.expectedStates);
      this.#stepStatus = plan.actions.map(() => "planned");
      this.#planStep = 0;
      this.#current = null;
      const m = plan.metadata;
      const timeLeft = (this.#budget.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS) - m.planningTimeMs;
      const maxExpansions = this.#budget.maxExpansions ?? Number.POSITIVE_INFINITY;
      this.#figures = {
        strategy: m.strategy,
        heuristic: m.heuristic ?? null,
        expansions: m.nodesExpanded,
        generated: m.nodesGenerated,
        planningTimeMs: Math.round(m.planningTimeMs * 100) / 100,
        roundMs: Math.round(durationMs * 100) / 100,
        expansionsLeft: Number.isFinite(maxExpansions) ? maxExpansions - m.nodesExpanded : "no limit",
        timeLeftMs: Math.round(timeLeft * 100) / 100,
        rounds: this.#rounds,
        cost: plan.totalCost,
      };
      this.#status = "running";
    }
    this.#touch();
  }

  onPlanFailed(reason: string, durationMs: number): void {
    this.#rounds++;
    this.#status = "planning_failed";
    this.#reason = reason;
    this.#figures = { ...this.#figures, rounds: this.#rounds, roundMs: durationMs };
    this.#touch();
  }

  onReplan(reason: string, newPlan: unknown): void {
    this.#replans.push({ round: this.#rounds + 1, reason, actions: newPlan instanceof Plan ? [...newPlan.actionNames] : [] });
    this.#touch();
  }

  onActionStart(action: ActionSpec, state: Readonly<WorldState>): void {
    this.#state = plainState(state);
    const names = this.#plan?.actionNames ?? [];
    // The plan's next step with this name (a plan may hold one action twice).
    let index = names.indexOf(action.name, this.#planStep);
    if (index < 0) index = names.indexOf(action.name);
    this.#current = index >= 0 ? index : null;
    if (index >= 0) this.#stepStatus[index] = "running";
    this.#status = "running";
    this.#touch();
  }

  onActionComplete(result: unknown): void {
    const r = (result ?? {}) as Partial<{
      actionName: string;
      success: boolean;
      stateBefore: WorldState;
      stateAfter: WorldState;
      error: string | null;
    }>;
    const step = this.#current ?? -1;
    const success = r.success !== false;
    if (step >= 0) {
      this.#stepStatus[step] = success ? "succeeded" : "failed";
      if (success) this.#planStep = step + 1;
    }
    const before = plainState(r.stateBefore ?? this.#state);
    if (r.stateAfter && success) this.#state = plainState(r.stateAfter);
    this.#diffs.push({
      step,
      action: String(r.actionName ?? this.#plan?.actionNames[step] ?? "action"),
      success,
      error: r.error ?? null,
      changes: diff(before, r.stateAfter ? plainState(r.stateAfter) : before),
    });
    this.#current = null;
    this.#touch();
  }

  onSensorComplete(_sensor: string, updates: Readonly<WorldState>): void {
    this.#state = { ...this.#state, ...plainState(updates) };
    this.#touch();
  }

  onGoalAchieved(finalState: Readonly<WorldState>): void {
    this.#state = plainState(finalState);
    this.#status = "goal_achieved";
    this.#touch();
  }

  /**
   * Reads a state the graph streamed (`streamMode: "values"`): its status,
   * world state, no-plan explanation, the approval it waits for and the
   * answers given (an answer object's `by` field is shown as who answered).
   */
  observe(values: unknown): void {
    if (typeof values !== "object" || values === null) return;
    const v = values as {
      status?: unknown;
      worldState?: unknown;
      awaitingHuman?: { action?: unknown; kind?: unknown } | null;
      humanInput?: Record<string, unknown>;
      noPlanExplanation?: unknown;
      replanReason?: unknown;
    };
    if (typeof v.status === "string") {
      // The streamed final state comes after the graph wrote the run's execution record: finished runs can be read again.
      if (FINAL.has(v.status) && !this.#reported) {
        this.#reported = true;
        queueMicrotask(this.#finished);
      }
      this.#status = v.status;
    }
    if (typeof v.worldState === "object" && v.worldState !== null) this.#state = plainState(v.worldState);
    if (v.noPlanExplanation) this.#explanation = v.noPlanExplanation;
    if (typeof v.replanReason === "string") this.#reason = v.replanReason;
    const waiting = v.awaitingHuman;
    if (waiting && typeof waiting.action === "string") {
      const open = this.#approvals.items.find((a) => a.action === waiting.action && a.status === "waiting");
      if (!open) this.#approvals.push({ action: waiting.action, kind: String(waiting.kind ?? "goap_action_approval"), status: "waiting" });
    }
    const answers = v.humanInput ?? {};
    for (const approval of this.#approvals.items) {
      if (approval.status === "waiting" && Object.hasOwn(answers, approval.action))
        this.answered(approval.action, answers[approval.action]);
    }
    this.#touch();
  }

  /** Records who answered a waiting approval (called by `observe` from the graph's `humanInput`, or by your resume code). */
  answered(action: string, answer: unknown, by?: string): void {
    const open = this.#approvals.items.find((a) => a.action === action && a.status === "waiting");
    const who =
      by ??
      (typeof answer === "object" && answer !== null && typeof (answer as { by?: unknown }).by === "string"
        ? (answer as { by: string }).by
        : undefined);
    if (open) {
      open.status = "answered";
      open.answer = answer;
      if (who !== undefined) open.by = who;
    } else this.#approvals.push({ action, kind: "answer", status: "answered", answer, ...(who !== undefined ? { by: who } : {}) });
    this.#touch();
  }

  /** @internal The view the page draws (raw: the inspector puts it in display form). */
  toView(): Record<string, unknown> {
    const state = this.#state;
    const plan = this.#plan;
    const has = (key: string) => Object.hasOwn(state, key);
    return {
      id: this.id,
      title: this.#title,
      status: this.#status,
      reason: this.#reason,
      goal: this.#goal,
      currentStep: this.#current,
      plan: plan
        ? {
            cost: plan.totalCost,
            steps: plan.actions.map((action, index) => ({
              index,
              name: action.name,
              status: this.#stepStatus[index] ?? "planned",
              after: this.#after[index] ?? [],
              pre: Object.entries(action.preconditions).map(([key, condition]) => ({
                text: formatCondition(key, condition as Condition),
                now: has(key) ? state[key] : undefined,
                set: has(key),
                holds: has(key) && testCondition(state[key], condition as Condition),
              })),
              eff: effectsOf(action).map(({ key, text }) => ({ text, now: has(key) ? state[key] : undefined, set: has(key) })),
            })),
          }
        : null,
      state,
      diffs: this.#diffs,
      replans: this.#replans,
      approvals: this.#approvals,
      figures: this.#figures,
      explanation: this.#explanation,
      events: this.#events,
    };
  }
}
