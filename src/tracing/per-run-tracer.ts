import type { ActionSpec, PlanningTracer, SearchExpandEvent, TraceRun, WorldState } from "../core/index.js";
import { type EndableRun, RunRegistry } from "./run-registry.js";

/** A tracer's state for one run: it handles the run's hooks itself. */
export type RunTracer = PlanningTracer & EndableRun;

/**
 * Base of tracers that keep state per run (spans, run trees). A graph asks
 * for each run's view with {@link PerRunTracer.forRun}, so concurrent runs
 * sharing one tracer never mix; hooks called on the tracer itself (plain
 * `plan()` calls, custom wiring) go to one default run.
 */
export abstract class PerRunTracer<S extends RunTracer> implements PlanningTracer {
  readonly #runs: RunRegistry<S>;
  #default: S | undefined;

  protected constructor(owner: string, maxOpenRuns: number | undefined) {
    this.#runs = new RunRegistry(owner, maxOpenRuns);
  }

  /** The state of a new run; `forget` removes it from the open runs (call it when the run ends). */
  protected abstract createRun(run: TraceRun, forget: () => void): S;

  /** The default run (for hooks called on the tracer itself). */
  protected get defaultRun(): S {
    this.#default ??= this.createRun({}, () => {});
    return this.#default;
  }

  /** Every run still open, oldest first. */
  protected openRunStates(): S[] {
    return this.#runs.values();
  }

  /** How many runs are open (the default run not counted). */
  get openRuns(): number {
    return this.#runs.size;
  }

  /** One run's view (by run id, else thread); the graph asks for it for every run. */
  forRun(run: TraceRun): PlanningTracer {
    return this.#runs.get(run, (_key, forget) => this.createRun(run, forget)) ?? this.defaultRun;
  }

  onPlanStart(goal: unknown, state: Readonly<WorldState>, strategyName: string): unknown {
    return this.defaultRun.onPlanStart?.(goal, state, strategyName);
  }
  onStrategyChosen(strategyName: string): unknown {
    return this.defaultRun.onStrategyChosen?.(strategyName);
  }
  onReplan(reason: string, newPlan: unknown): unknown {
    return this.defaultRun.onReplan?.(reason, newPlan);
  }
  onPlanComplete(plan: unknown, durationMs: number): unknown {
    return this.defaultRun.onPlanComplete?.(plan, durationMs);
  }
  onPlanFailed(reason: string, durationMs: number): unknown {
    return this.defaultRun.onPlanFailed?.(reason, durationMs);
  }
  onActionStart(action: ActionSpec, state: Readonly<WorldState>): unknown {
    return this.defaultRun.onActionStart?.(action, state);
  }
  onActionRetry(action: ActionSpec, attempt: number, error: unknown, backoffMs: number): unknown {
    return this.defaultRun.onActionRetry?.(action, attempt, error, backoffMs);
  }
  onActionComplete(result: unknown): unknown {
    return this.defaultRun.onActionComplete?.(result);
  }
  onGoalAchieved(finalState: Readonly<WorldState>): unknown {
    return this.defaultRun.onGoalAchieved?.(finalState);
  }
  onSensorComplete(sensorName: string, updates: Readonly<WorldState>): unknown {
    return this.defaultRun.onSensorComplete?.(sensorName, updates);
  }
  onSearchExpand(event: SearchExpandEvent): unknown {
    return this.defaultRun.onSearchExpand?.(event);
  }
  onSearchDeadEnd(reason: string, detail: Readonly<Record<string, unknown>>): unknown {
    return this.defaultRun.onSearchDeadEnd?.(reason, detail);
  }
  onSearchComplete(nodesExpanded: number, durationMs: number, found: boolean): unknown {
    return this.defaultRun.onSearchComplete?.(nodesExpanded, durationMs, found);
  }
  runAction<T>(action: ActionSpec, execute: () => Promise<T>): Promise<T> {
    const run = this.defaultRun;
    return run.runAction ? run.runAction(action, execute) : execute();
  }
}
