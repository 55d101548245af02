import { type Attributes, type Context, context, type Span, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import {
  type ActionSpec,
  describeValue,
  LangGoapError,
  type PlanningTracer,
  type SearchExpandEvent,
  type WorldState,
} from "../core/index.js";
import { actionOutcome, errorText, factsOf, goalOf, planSummary } from "./trace-event.js";

/** Options of {@link OpenTelemetryTracer}. */
export interface OpenTelemetryTracerOptions {
  /** The OpenTelemetry tracer to create spans with. @defaultValue `trace.getTracer("langgoap")` (the global provider) */
  readonly tracer?: Tracer;
  /** Add search expansions and dead ends as events on the plan span. @defaultValue false */
  readonly recordSearchEvents?: boolean;
  /** Cap on search events per plan span; the rest are counted in `goap.search.dropped_events`. @defaultValue 1000 */
  readonly maxSearchEvents?: number;
  /** Name of the root span. @defaultValue "goap.run" */
  readonly runSpanName?: string;
  /** Context the run span starts in (its parent). @defaultValue the active context when the run starts */
  readonly parentContext?: Context;
}

/**
 * Exports a run as OpenTelemetry spans: a root `goap.run` span, a
 * `goap.plan` span per planning round (strategy, plan actions and cost,
 * replan reason, optional search events) and a `goap.action <name>` span per
 * executed action (retries as events with the exception, status ERROR on
 * failure). The root ends OK on `onGoalAchieved` and ERROR on a terminal
 * failure. Spans nest under `parentContext`, or whatever span is active
 * when the run starts (with a context manager registered).
 * Use one tracer per run; call {@link OpenTelemetryTracer.end} if a run
 * stops without a terminal event (for example at an interrupt).
 *
 * @example
 * ```ts
 * const tracer = new OpenTelemetryTracer({ tracer: provider.getTracer("my-agent") });
 * await new GoapGraph(actions, { tracer }).invoke(goal, state);
 * ```
 */
export class OpenTelemetryTracer implements PlanningTracer {
  readonly #tracer: Tracer;
  readonly #recordSearch: boolean;
  readonly #maxSearchEvents: number;
  readonly #runSpanName: string;
  readonly #parentContext: Context | undefined;
  #run: Span | undefined;
  #runContext: Context | undefined;
  #plan: Span | undefined;
  #searchEvents = 0;
  #replans = 0;
  readonly #actions = new Map<string, Span[]>();

  constructor(options: OpenTelemetryTracerOptions = {}) {
    const max = options.maxSearchEvents ?? 1000;
    if (!Number.isInteger(max) || max < 0) {
      throw new LangGoapError("INVALID_OPTION", `OpenTelemetryTracer: maxSearchEvents must be an integer >= 0, got ${describeValue(max)}`);
    }
    this.#tracer = options.tracer ?? trace.getTracer("langgoap");
    this.#recordSearch = options.recordSearchEvents ?? false;
    this.#maxSearchEvents = max;
    this.#runSpanName = options.runSpanName ?? "goap.run";
    this.#parentContext = options.parentContext;
  }

  #ensureRun(): Context {
    if (!this.#run || !this.#runContext) {
      const parent = this.#parentContext ?? context.active();
      this.#run = this.#tracer.startSpan(this.#runSpanName, {}, parent);
      this.#runContext = trace.setSpan(parent, this.#run);
      this.#replans = 0;
    }
    return this.#runContext;
  }

  onPlanStart(goal: unknown, state: Readonly<WorldState>, strategyName: string): void {
    const parent = this.#ensureRun();
    this.#endPlan({ "goap.plan.superseded": true });
    this.#searchEvents = 0;
    this.#plan = this.#tracer.startSpan(
      "goap.plan",
      {
        attributes: {
          "goap.strategy": strategyName,
          "goap.goal": JSON.stringify(goalOf(goal)),
          "goap.state": JSON.stringify(factsOf(state)),
        },
      },
      parent,
    );
    this.#run?.setAttribute("goap.goal", JSON.stringify(goalOf(goal)));
  }

  onStrategyChosen(strategyName: string): void {
    this.#plan?.setAttribute("goap.strategy", strategyName);
  }

  onReplan(reason: string, newPlan: unknown): void {
    this.#replans++;
    this.#run?.setAttribute("goap.replans", this.#replans);
    this.#run?.addEvent("replan", { reason });
    this.#plan?.setAttribute("goap.replan_reason", reason);
    const { actions } = planSummary(newPlan);
    if (actions) this.#plan?.setAttribute("goap.plan.actions", actions);
  }

  onPlanComplete(plan: unknown, durationMs: number): void {
    const { actions, totalCost } = planSummary(plan);
    const attributes: Attributes = { "goap.planning_ms": durationMs };
    if (actions) Object.assign(attributes, { "goap.plan.actions": actions, "goap.plan.length": actions.length });
    if (totalCost !== null) attributes["goap.plan.cost"] = totalCost;
    this.#plan?.setStatus({ code: SpanStatusCode.OK });
    this.#endPlan(attributes);
  }

  onPlanFailed(reason: string, durationMs: number): void {
    if (this.#plan) {
      this.#plan.setStatus({ code: SpanStatusCode.ERROR, message: reason });
      this.#endPlan({ "goap.planning_ms": durationMs, "goap.plan.failure": reason });
      return;
    }
    // No planning round open: this is the run's terminal failure.
    this.end({ code: SpanStatusCode.ERROR, message: reason });
  }

  onActionStart(action: ActionSpec, _state: Readonly<WorldState>): void {
    const parent = this.#ensureRun();
    const span = this.#tracer.startSpan(
      `goap.action ${action.name}`,
      { attributes: { "goap.action.name": action.name, ...(typeof action.cost === "number" ? { "goap.action.cost": action.cost } : {}) } },
      parent,
    );
    const open = this.#actions.get(action.name) ?? [];
    open.push(span);
    this.#actions.set(action.name, open);
  }

  onActionRetry(action: ActionSpec, attempt: number, error: unknown, backoffMs: number): void {
    const span = this.#actions.get(action.name)?.at(-1);
    if (!span) return;
    span.addEvent("retry", { attempt, backoff_ms: backoffMs, "error.message": errorText(error) });
    if (error instanceof Error) span.recordException(error);
  }

  onActionComplete(result: unknown): void {
    const outcome = actionOutcome(result);
    const span = this.#takeActionSpan(outcome.action);
    if (!span) return;
    span.setAttribute("goap.action.success", outcome.success);
    if (outcome.success) span.setStatus({ code: SpanStatusCode.OK });
    else span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error ?? "action failed" });
    span.end();
  }

  onGoalAchieved(_finalState: Readonly<WorldState>): void {
    this.end({ code: SpanStatusCode.OK });
  }

  onSensorComplete(sensorName: string, updates: Readonly<WorldState>): void {
    this.#ensureRun();
    this.#run?.addEvent("sensor", { "sensor.name": sensorName, "sensor.keys": Object.keys(updates ?? {}) });
  }

  onSearchExpand(event: SearchExpandEvent): void {
    this.#searchEvent("search.expand", {
      "node.id": event.nodeId,
      "node.parent_id": event.parentId ?? -1,
      "node.action": event.actionName ?? "",
      g: event.g,
      h: event.h,
      f: event.f,
    });
  }

  onSearchDeadEnd(reason: string, _detail: Readonly<Record<string, unknown>>): void {
    this.#searchEvent("search.dead_end", { reason });
  }

  onSearchComplete(nodesExpanded: number, durationMs: number, found: boolean): void {
    this.#plan?.setAttributes({
      "goap.search.nodes_expanded": nodesExpanded,
      "goap.search.duration_ms": durationMs,
      "goap.search.found": found,
    });
  }

  /** Ends every open span (actions, plan, run) with `status` on the run span. Safe to call twice. */
  end(status: { code: SpanStatusCode; message?: string } = { code: SpanStatusCode.UNSET }): void {
    for (const spans of this.#actions.values()) {
      for (const span of spans) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: "run ended before the action completed" });
        span.end();
      }
    }
    this.#actions.clear();
    this.#endPlan({});
    if (this.#run) {
      this.#run.setStatus(status);
      this.#run.end();
    }
    this.#run = undefined;
    this.#runContext = undefined;
  }

  #endPlan(attributes: Attributes): void {
    if (!this.#plan) return;
    if (this.#searchEvents > this.#maxSearchEvents) {
      attributes["goap.search.dropped_events"] = this.#searchEvents - this.#maxSearchEvents;
    }
    this.#plan.setAttributes(attributes);
    this.#plan.end();
    this.#plan = undefined;
  }

  #searchEvent(name: string, attributes: Attributes): void {
    if (!this.#recordSearch || !this.#plan) return;
    this.#searchEvents++;
    if (this.#searchEvents <= this.#maxSearchEvents) this.#plan.addEvent(name, attributes);
  }

  #takeActionSpan(name: string | null): Span | undefined {
    const key = name !== null && this.#actions.has(name) ? name : [...this.#actions.keys()].at(-1);
    if (key === undefined) return undefined;
    const open = this.#actions.get(key) as Span[];
    const span = open.shift();
    if (open.length === 0) this.#actions.delete(key);
    return span;
  }
}
