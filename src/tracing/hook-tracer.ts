import type { ActionSpec, PlanningTracer, SearchExpandEvent, WorldState } from "../core/index.js";
import type { TraceHook, TraceHookArgs } from "./trace-event.js";

/**
 * Base for tracers that handle every hook through one method. Each hook
 * calls {@link HookTracer.handle} with its name and arguments and returns
 * what it returns (a promise for async work).
 *
 * @example
 * ```ts
 * class CountingTracer extends HookTracer {
 *   count = 0;
 *   protected handle() { this.count++; }
 * }
 * ```
 */
export abstract class HookTracer implements PlanningTracer {
  protected abstract handle<K extends TraceHook>(hook: K, args: TraceHookArgs<K>): unknown;

  onPlanStart(goal: unknown, state: Readonly<WorldState>, strategyName: string): unknown {
    return this.handle("onPlanStart", [goal, state, strategyName]);
  }
  onPlanComplete(plan: unknown, durationMs: number): unknown {
    return this.handle("onPlanComplete", [plan, durationMs]);
  }
  onPlanFailed(reason: string, durationMs: number): unknown {
    return this.handle("onPlanFailed", [reason, durationMs]);
  }
  onActionStart(action: ActionSpec, state: Readonly<WorldState>): unknown {
    return this.handle("onActionStart", [action, state]);
  }
  onActionComplete(result: unknown): unknown {
    return this.handle("onActionComplete", [result]);
  }
  onActionRetry(action: ActionSpec, attempt: number, error: unknown, backoffMs: number): unknown {
    return this.handle("onActionRetry", [action, attempt, error, backoffMs]);
  }
  onStrategyChosen(strategyName: string): unknown {
    return this.handle("onStrategyChosen", [strategyName]);
  }
  onReplan(reason: string, newPlan: unknown): unknown {
    return this.handle("onReplan", [reason, newPlan]);
  }
  onGoalAchieved(finalState: Readonly<WorldState>): unknown {
    return this.handle("onGoalAchieved", [finalState]);
  }
  onSensorComplete(sensorName: string, updates: Readonly<WorldState>): unknown {
    return this.handle("onSensorComplete", [sensorName, updates]);
  }
  onSearchExpand(event: SearchExpandEvent): unknown {
    return this.handle("onSearchExpand", [event]);
  }
  onSearchDeadEnd(reason: string, detail: Readonly<Record<string, unknown>>): unknown {
    return this.handle("onSearchDeadEnd", [reason, detail]);
  }
  onSearchComplete(nodesExpanded: number, durationMs: number, found: boolean): unknown {
    return this.handle("onSearchComplete", [nodesExpanded, durationMs, found]);
  }
}
