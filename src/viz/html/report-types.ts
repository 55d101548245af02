import type { WorldState } from "../../core/facts.js";
import type { GoalLike, MultiGoal } from "../../core/goal.js";
import type { NoPlanExplanation, Plan, ScheduleEntry, SearchStats } from "../../planner/index.js";

/** One executed action, as the graph's execution history records it (`ActionResult` fits). */
export interface ReportActionResult {
  readonly actionName: string;
  readonly success: boolean;
  readonly error?: string | null;
  readonly failure?: string | null;
  readonly attempts?: number;
  readonly durationMs?: number;
}

/** One planning round of a run: the first plan, or a replan and why it happened. */
export interface PlanningRound {
  /** The plan found, or `null` when planning failed. */
  readonly plan: Plan | null;
  /** Why this round replanned (`null` for the first round). */
  readonly reason: string | null;
  readonly planningMs: number;
  /** Why planning failed, when it did. */
  readonly failure?: string;
}

/** One tracer call, summarised for the report. */
export interface ReportEvent {
  /** Milliseconds since the recorder saw its first event. */
  readonly atMs: number;
  /** The hook name (`onPlanStart`, `onActionComplete`, ...). */
  readonly hook: string;
  readonly summary: string;
}

/**
 * What {@link renderHtmlReport} draws. Only `plan` is required; every other
 * part adds a section. A `ReportRecorder` passed as the run's tracer fills
 * `rounds` and `events`.
 */
export interface RunReport {
  /** Page title. @defaultValue "langgoap run report" */
  readonly title?: string;
  readonly goal?: GoalLike | MultiGoal | null;
  readonly startState?: WorldState;
  /** The plan to draw: the one found, or the last one a run executed. */
  readonly plan: Plan | null;
  /** A schedule to draw instead of the plan's `metadata.csp.schedule` (e.g. from `schedulePlan`). */
  readonly schedule?: readonly ScheduleEntry[];
  /** Final status (`found`, `no_plan`, `goal_achieved`, `failed`, ...). */
  readonly status?: string;
  readonly finalState?: WorldState;
  readonly executionHistory?: readonly ReportActionResult[];
  readonly replanCount?: number;
  readonly rounds?: readonly PlanningRound[];
  readonly events?: readonly ReportEvent[];
  /** Tracer events not kept because of the recorder's cap. */
  readonly droppedEvents?: number;
  readonly explanation?: NoPlanExplanation | null;
  readonly stats?: SearchStats;
}
