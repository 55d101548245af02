import { Annotation, DeltaChannel } from "@langchain/langgraph";
import type { WorldState } from "../core/index.js";
import type { NoPlanExplanation } from "../planner/index.js";
import { type GoalData, type GoalInput, GoalRegistry } from "./goal-data.js";
import type { SkippedSubgoal } from "./goal-planning.js";
import { HISTORY_WINDOW } from "./history-window-size.js";
import type { PlanData } from "./plan-data.js";

/** Where the observer sends a run next: plan again, run the next step, or end (`"__end__"`). */
export type ObserverTarget = "planner" | "executor" | "__end__";

/**
 * Where a run stands. `awaiting_human`: paused until a human answers (what
 * for is in `awaitingHuman`; `graph.resume` moves it on); `no_plan`: the
 * planner proved no plan reaches the goal; `budget_exhausted`: its search
 * stopped on a budget first (the figures are in `noPlanExplanation.budget`);
 * `aborted`: the run's signal stopped it; `denied`: a human refused an
 * action and no plan reaches the goal without the refused actions (one
 * that uses them exists; `replanReason` names them).
 */
export type GoapStatus =
  | "executing"
  | "awaiting_human"
  | "goal_achieved"
  | "partially_achieved"
  | "failed"
  | "no_plan"
  | "denied"
  | "budget_exhausted"
  | "aborted"
  | "error"
  | "action_failed"
  | "terminated";

/** Statuses that end a run. */
export const TERMINAL_STATUSES: ReadonlySet<GoapStatus> = new Set([
  "goal_achieved",
  "partially_achieved",
  "failed",
  "no_plan",
  "denied",
  "budget_exhausted",
  "aborted",
  "error",
  "terminated",
]);

/** @internal Statuses the planner ends a run with when it has no plan. */
export const PLANLESS_STATUSES: ReadonlySet<GoapStatus> = new Set(["no_plan", "denied", "budget_exhausted", "aborted"]);

/**
 * Why an action failed: its code threw (`error`), it did not settle within
 * its time limit (`timeout`), it wrote a value its fact cannot hold, such as
 * `NaN` or a string for a number fact (`invalid_value`), `execute` returned
 * something other than an object of facts (`invalid_output`), a guard
 * blocked it, a human denied it or sent an invalid form, its effect
 * validator rejected the outcome, it was cut short because a sibling in its
 * parallel wave failed (`aborted`), its step was left unfinished by two
 * stopped processes and is not started a third time (`crashed`), or there
 * was no action to run.
 */
export type ActionFailureKind =
  | "error"
  | "timeout"
  | "invalid_value"
  | "invalid_output"
  | "guard_blocked"
  | "approval_denied"
  | "form_invalid"
  | "validation_failed"
  | "aborted"
  | "crashed"
  | "no_action";

/** Failures that blacklist the action at once, whatever its `maxRetries`. */
export const IMMEDIATE_BLACKLIST: ReadonlySet<ActionFailureKind> = new Set([
  "guard_blocked",
  "approval_denied",
  "form_invalid",
  "invalid_output",
  "crashed",
]);

/**
 * Failures no blacklist fallback forgives: the action broke its contract
 * (its code is wrong, not its luck), so it stays out for the rest of the
 * (sub)goal, and the run ends `failed` when no plan avoids it.
 */
export const NEVER_READMITTED: ReadonlySet<ActionFailureKind> = new Set(["invalid_output"]);

/**
 * Failures after which the action is never planned again in the run (no
 * blacklist fallback brings it back): a human refused it, or two processes
 * stopped while running it.
 */
export const FINAL_FAILURES: ReadonlySet<ActionFailureKind> = new Set(["approval_denied", "form_invalid", "crashed"]);

/** What a run paused for a human waits for: the action, and the kind of the interrupt's payload. */
export interface AwaitingHuman {
  readonly action: string;
  /** `goap_action_approval` (resume with `true`/`false`/`{ approved, reason }`) or `goap_action_form` (resume with the form's value). */
  readonly kind: "goap_action_approval" | "goap_action_form";
}

/**
 * The part of a run's history that left the window: how many records, which
 * actions succeeded or failed in them, the actions they excluded from the
 * run and what the successful ones cost.
 */
export interface HistorySummary {
  readonly count: number;
  readonly succeeded: readonly string[];
  readonly failed: readonly string[];
  readonly excluded: readonly { readonly action: string; readonly failure: ActionFailureKind }[];
  readonly actualCost: number;
}

/** @internal The summary of a run whose whole history is in its window. */
export const EMPTY_HISTORY_SUMMARY: HistorySummary = Object.freeze({ count: 0, succeeded: [], failed: [], excluded: [], actualCost: 0 });

export { HISTORY_WINDOW } from "./history-window-size.js";

/**
 * @internal How many of `length` records (the window plus a step's new
 * ones) leave the window: all but the newest one or two blocks. A function
 * of the length alone, so replaying several steps' writes at once drops the
 * same records as applying them one by one.
 */
export function recordsLeavingWindow(length: number): number {
  return HISTORY_WINDOW * Math.max(0, Math.floor(length / HISTORY_WINDOW) - 1);
}

/** Number of records a run has executed so far (those before the window too). */
export function runRecordCount(state: Pick<GoapState, "executionHistory" | "historyBefore">): number {
  return (state.historyBefore?.count ?? 0) + state.executionHistory.length;
}

/** One executed (or refused) action, as the execution history records it. */
export interface ActionResult {
  readonly actionName: string;
  readonly success: boolean;
  readonly stateBefore: WorldState;
  /** The state the action produced (for a rolled-back action, the rejected state). */
  readonly stateAfter: WorldState;
  readonly error: string | null;
  readonly failure: ActionFailureKind | null;
  /** Attempts made under the action's QoS policy (0 when it never ran). */
  readonly attempts: number;
  readonly durationMs: number;
}

const replace = <T>(_old: T, next: T): T => next;

/** Appends each write (one result or a list of them) to the window, dropping the blocks that leave it; batching-invariant, as replay needs. */
const appendResults = (history: ActionResult[], writes: (ActionResult | ActionResult[])[]): ActionResult[] => {
  const all = history.concat(...writes);
  const leaving = recordsLeavingWindow(all.length);
  return leaving > 0 ? all.slice(leaving) : all;
};

/** The last of a step's (or a replay's) writes. */
const lastWrite = <T>(_old: T, writes: T[]): T => writes[writes.length - 1] as T;

/** Whole copies of the plan are written every this many planning rounds (and every 5,000 supersteps, LangGraph's bound). */
const PLAN_SNAPSHOT_EVERY = 16;

/**
 * Full copies of the window are written this often (in executor steps);
 * between them a checkpoint holds only the step's new records, and a resume
 * replays at most this many steps' writes.
 */
const HISTORY_SNAPSHOT_EVERY = 128;

/**
 * @internal Builds the LangGraph state definition: the one definition of a
 * GOAP run's state. {@link GoapState} (its type), {@link GoapStateUpdate}
 * (what nodes and inputs write) and {@link freshRunState} (the run-scoped
 * fields as a run starts: each channel's default) all derive from it.
 * `goals` turns goal objects written to the state into {@link GoalData};
 * `seed` is the default generator state.
 */
export function createGoapStateAnnotation(goals: GoalRegistry, seed: number) {
  return Annotation.Root({
    /** The world: facts planning reads, plus any JSON values actions carry. */
    worldState: Annotation<WorldState>({ reducer: replace, default: () => ({}) }),
    /** The goal, as data (goal objects written here are turned into data). */
    goal: Annotation<GoalData | null, GoalInput | null>({
      reducer: (_old, next) => (next === null || next === undefined ? null : goals.toData(next)),
      default: () => null,
    }),
    /** The current plan. A delta channel: stored when planned, not again in every step's checkpoint. */
    plan: new DeltaChannel<PlanData | null, PlanData | null>(lastWrite, {
      snapshotFrequency: PLAN_SNAPSHOT_EVERY,
      initialValueFactory: () => null,
    }),
    /** Index of the next plan step to execute. */
    currentStep: Annotation<number>({ reducer: replace, default: () => 0 }),
    /**
     * This run's executed actions, in order: all of them for runs of up to
     * 511 records, else the newest ones (from a multiple of
     * {@link HISTORY_WINDOW}); `historyBefore` sums up the rest. A delta
     * channel: a checkpoint stores the records its step appended.
     */
    executionHistory: new DeltaChannel<ActionResult[], ActionResult | ActionResult[]>(appendResults, {
      snapshotFrequency: HISTORY_SNAPSHOT_EVERY,
      initialValueFactory: () => [],
    }),
    /** What the records before `executionHistory`'s window held (zero for runs that fit it). */
    historyBefore: Annotation<HistorySummary>({ reducer: replace, default: () => EMPTY_HISTORY_SUMMARY }),
    /** Replans for the current (sub)goal. */
    replanCount: Annotation<number>({ reducer: replace, default: () => 0 }),
    /** Why the run last replanned or ended. */
    replanReason: Annotation<string | null>({ reducer: replace, default: () => null }),
    /** Where the run stands. */
    status: Annotation<GoapStatus>({ reducer: replace, default: () => "executing" }),
    /** Actions planning avoids in this (sub)goal. */
    blacklistedActions: Annotation<string[]>({ reducer: replace, default: () => [] }),
    /** Failures per action in this (sub)goal. */
    actionFailureCounts: Annotation<Record<string, number>>({ reducer: replace, default: () => ({}) }),
    /**
     * Actions a blacklist fallback may not bring back again in this (sub)goal:
     * those it already let back in once, and those whose failure no fallback
     * forgives ({@link NEVER_READMITTED}). Blacklisted while listed here, an
     * action is exhausted: planning leaves it out, and when no plan avoids
     * it the run ends `failed` with a reason naming it.
     */
    readmittedActions: Annotation<string[]>({ reducer: replace, default: () => [] }),
    /** The MultiGoal subgoal being pursued. */
    currentSubgoalIndex: Annotation<number>({ reducer: replace, default: () => 0 }),
    /** Why there is no plan, when there is none. */
    noPlanExplanation: Annotation<NoPlanExplanation | null>({ reducer: replace, default: () => null }),
    /** Lessons from reflecting tracers, formatted `[action] reflection → suggestion`. */
    reflectionContext: Annotation<string[]>({ reducer: replace, default: () => [] }),
    /** Epoch ms of the first planning round (wall-clock budgets count from here). */
    wallClockStartedAt: Annotation<number | null>({ reducer: replace, default: () => null }),
    /** Answers given at human-approval interrupts, by action name. */
    humanInput: Annotation<Record<string, unknown>>({ reducer: replace, default: () => ({}) }),
    /** The seeded generator's state, so retries and sampling replay exactly after a resume. */
    rngState: Annotation<number>({ reducer: replace, default: () => seed | 0 }),
    /** How many history entries the latest executor step appended. */
    lastStepResultCount: Annotation<number>({ reducer: replace, default: () => 0 }),
    /**
     * Subgoals of a sequential MultiGoal the run skipped because they had no
     * plan; when the rest are reached, the run ends `partially_achieved`.
     */
    skippedSubgoals: Annotation<SkippedSubgoal[]>({ reducer: replace, default: () => [] }),
    /**
     * This run's id: the platform's `run_id` when it gives one, else an id
     * drawn when the run starts (execution records carry it; it is their id,
     * and idempotency keys start with it).
     */
    runId: Annotation<string | null>({ reducer: replace, default: () => null }),
    /** Where the observer last sent the run; its conditional edge reads it (so `updateState` as the observer routes too). */
    nextNode: Annotation<ObserverTarget | null>({ reducer: replace, default: () => null }),
    /** What the run waits for while its status is `awaiting_human` (null otherwise). */
    awaitingHuman: Annotation<AwaitingHuman | null>({ reducer: replace, default: () => null }),
  });
}

/** @internal The LangGraph state definition of a GOAP graph. */
export type GoapStateAnnotation = ReturnType<typeof createGoapStateAnnotation>;

/**
 * The state of a GOAP run, as its Annotation defines it. Everything in it
 * is plain JSON, so any checkpointer can save it; goals and plans are
 * re-bound to live objects by name when a node reads them.
 */
export type GoapState = GoapStateAnnotation["State"];

/** What a node may write: any subset of the state, with goals given as objects or data. */
export type GoapStateUpdate = GoapStateAnnotation["Update"];

/**
 * The fields that belong to one run of a thread (everything but `goal` and
 * `worldState`), as a run starts: a new input on a thread whose run has
 * ended starts from these.
 */
export type RunScopedState = Omit<GoapState, "goal" | "worldState">;

const startValues = new Map<number, GoapStateAnnotation>();

/**
 * @internal The run-scoped fields at the start of a run whose generator
 * starts from `seed`: the default of each channel of the Annotation.
 */
export function freshRunState(seed: number): RunScopedState {
  let annotation = startValues.get(seed);
  if (!annotation) {
    // The defaults never call the goal reducer: any registry does.
    annotation = createGoapStateAnnotation(new GoalRegistry([]), seed);
    startValues.set(seed, annotation);
  }
  const fresh: Record<string, unknown> = {};
  for (const [key, channel] of Object.entries(annotation.spec)) {
    if (key !== "goal" && key !== "worldState") fresh[key] = channel.fromCheckpoint(undefined).get();
  }
  return fresh as RunScopedState;
}

/**
 * Names of the actions that succeeded, in execution order.
 *
 * @example
 * ```ts
 * successfulActionNames(await graph.invoke(goal, {})); // ["research", "write_premium", "publish"]
 * ```
 */
export function successfulActionNames(state: Pick<GoapState, "executionHistory">): string[] {
  return state.executionHistory.filter((r) => r.success).map((r) => r.actionName);
}
