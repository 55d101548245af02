import type { StepBlock } from "./step-blocks.js";

/** One finished run, as execution history stores it. JSON-serializable. */
export interface ExecutionRecord {
  /**
   * Unique id (assigned by the store when absent). The graph sets it to the
   * run's id: a run recorded again (its end replayed after a crash) has the
   * same id, and a store must replace the record, not add a second one.
   */
  readonly id?: string;
  /** Stable hash of the goal's conditions (see `computeGoalHash`). */
  readonly goalHash: string;
  readonly goalConditions: Readonly<Record<string, unknown>>;
  readonly planActions: readonly string[];
  readonly expectedCost: number;
  readonly actualCost: number;
  /** `success` (goal achieved), `failed` (failed, no_plan, error) or `partial`. */
  readonly outcome: "success" | "failed" | "partial";
  /** Final status of the run (`goal_achieved`, `failed`, `no_plan`, `error`, `terminated`). */
  readonly status: string;
  readonly replanCount: number;
  /** ISO-8601 time of the record. */
  readonly timestamp: string;
  /** Names of actions that failed during the run. */
  readonly failedActions: readonly string[];
  readonly metadata?: Readonly<Record<string, unknown>>;
  /** The checkpointer thread the run belonged to, when it had one. */
  readonly threadId?: string;
  /** The run's id (the LangGraph API server's `run_id`, or the id the run drew when it started). */
  readonly runId?: string;
}

/** Where the graph writes a record at every terminal state (`record` must replace a record with the same id). */
export interface ExecutionHistory {
  record(record: ExecutionRecord): Promise<string>;
  /**
   * Optional: keeps a run's executed actions, a block at a time, so a run
   * longer than the state's history window can be read back whole. The
   * graph calls it when a block of `HISTORY_WINDOW` records fills up and
   * when the run ends; a block written again at the same position must
   * replace the earlier one.
   */
  recordSteps?(block: StepBlock): Promise<void>;
}
