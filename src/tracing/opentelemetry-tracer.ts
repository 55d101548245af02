import { type Attributes, type Context, context, type Span, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import {
  type ActionSpec,
  describeValue,
  LangGoapError,
  type PlanningTracer,
  type SearchExpandEvent,
  type TraceRun,
  type WorldState,
} from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { PerRunTracer } from "./per-run-tracer.js";
import type { EndableRun } from "./run-registry.js";
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
  /**
   * Runs traced at once (paused runs included) before the oldest is ended
   * and forgotten, so runs that never finish cannot grow memory.
   * @defaultValue 10000
   */
  readonly maxOpenRuns?: number;
}

interface RunSpansSettings {
  readonly tracer: Tracer;
  readonly recordSearch: boolean;
  readonly maxSearchEvents: number;
  readonly runSpanName: string;
  readonly parentContext: Context | undefined;
  readonly runAttributes: Attributes;
}

/** The spans of one run, and what a tracer keeps while the run goes on. */
class RunSpans implements PlanningTracer, EndableRun {
  readonly #tracer: Tracer;
  readonly #recordSearch: boolean;
  readonly #maxSearchEvents: number;
  readonly #runSpanName: string;
  readonly #parentContext: Context | undefined;
  readonly #runAttributes: Attributes;
  readonly #onEnd: () => void;
  #run: Span | undefined;
  #runContext: Context | undefined;
  #plan: Span | undefined;
  #searchEvents = 0;
  #replans = 0;
  readonly #actions = new Map<string, Span[]>();

  constructor(settings: RunSpansSettings, onEnd: () => void = () => {}) {
    this.#tracer = settings.tracer;
    this.#recordSearch = settings.recordSearch;
    this.#maxSearchEvents = settings.maxSearchEvents;
    this.#runSpanName = settings.runSpanName;
    this.#parentContext = settings.parentContext;
    this.#runAttributes = settings.runAttributes;
    this.#onEnd = onEnd;
  }

  #ensureRun(): Context {
    if (!this.#run || !this.#runContext) {
      const parent = this.#parentContext ?? context.active();
      this.#run = this.#tracer.startSpan(this.#runSpanName, { attributes: this.#runAttributes }, parent);
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
    this.#onEnd();
  }

  evict(reason: string): void {
    // The span status keeps a message only for ERROR; an evicted run is not an error.
    this.#run?.setAttribute("goap.end_reason", reason);
    this.end({ code: SpanStatusCode.UNSET });
  }

  /** Runs `execute` with this action's open span active. */
  runAction<T>(action: ActionSpec, execute: () => Promise<T>): Promise<T> {
    const span = this.#actions.get(action.name)?.at(-1);
    if (!span) return execute();
    return context.with(trace.setSpan(this.#runContext ?? context.active(), span), execute);
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

const OPEN_TELEMETRY_TRACER_OPTIONS_KEYS = {
  tracer: true,
  recordSearchEvents: true,
  maxSearchEvents: true,
  runSpanName: true,
  parentContext: true,
  maxOpenRuns: true,
} as const satisfies OptionKeys<OpenTelemetryTracerOptions>;

/**
 * Exports a run as OpenTelemetry spans: a root `goap.run` span, a
 * `goap.plan` span per planning round (strategy, plan actions and cost,
 * replan reason, optional search events) and a `goap.action <name>` span per
 * executed action (retries as events with the exception, status ERROR on
 * failure). The root ends OK on `onGoalAchieved` and ERROR on a terminal
 * failure. Spans nest under `parentContext`, or whatever span is active
 * when the run starts (with a context manager registered). An action's
 * `execute` runs with its action span active, so spans it creates (an HTTP
 * or LLM call) are the action span's children.
 *
 * One tracer can serve many concurrent runs (a served graph): a graph asks
 * for each run's view with `forRun`, and every run gets its own spans. Used
 * directly (plain `plan()` calls), events go to one default run; call
 * {@link OpenTelemetryTracer.end} if such a run stops without a terminal
 * event (for example at an interrupt).
 *
 * @example
 * ```ts
 * const tracer = new OpenTelemetryTracer({ tracer: provider.getTracer("my-agent") });
 * const graph = new GoapGraph(actions, { tracer }); // one trace per run, however many run at once
 * await Promise.all([graph.invoke(goal, stateA), graph.invoke(goal, stateB)]);
 * ```
 */
export class OpenTelemetryTracer extends PerRunTracer<RunSpans> {
  readonly #settings: Omit<RunSpansSettings, "runAttributes">;

  constructor(options: OpenTelemetryTracerOptions = {}) {
    super("OpenTelemetryTracer", options.maxOpenRuns);
    checkOptionKeys(options, OPEN_TELEMETRY_TRACER_OPTIONS_KEYS, "new OpenTelemetryTracer()");
    const max = options.maxSearchEvents ?? 1000;
    if (!Number.isInteger(max) || max < 0) {
      throw new LangGoapError("INVALID_OPTION", `OpenTelemetryTracer: maxSearchEvents must be an integer >= 0, got ${describeValue(max)}`);
    }
    this.#settings = {
      tracer: options.tracer ?? trace.getTracer("langgoap"),
      recordSearch: options.recordSearchEvents ?? false,
      maxSearchEvents: max,
      runSpanName: options.runSpanName ?? "goap.run",
      parentContext: options.parentContext,
    };
  }

  protected createRun(run: TraceRun, forget: () => void): RunSpans {
    const runAttributes: Attributes = {};
    if (run.runId) runAttributes["goap.run_id"] = run.runId;
    if (run.threadId) runAttributes["goap.thread_id"] = run.threadId;
    return new RunSpans({ ...this.#settings, runAttributes }, forget);
  }

  /**
   * Ends every open span with `status` on the run spans: the default run's,
   * and every run still open (runs paused at an interrupt, for example).
   * Safe to call twice.
   */
  end(status: { code: SpanStatusCode; message?: string } = { code: SpanStatusCode.UNSET }): void {
    this.defaultRun.end(status);
    for (const spans of this.openRunStates()) spans.end(status);
  }
}
