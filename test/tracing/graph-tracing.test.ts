/**
 * The tracers inside real GoapGraph runs of the flaky-writer domain:
 * research → write_fast (fails once) → replan → write_premium → publish.
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { SpanStatusCode } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { ActionSpec, type PlanningTracer, TRACER_HOOKS } from "../../src/core/index.js";
import { GoapGraph, type GoapLogger, type GoapRunResult, MaxCostPolicy } from "../../src/graph/index.js";
import { FakeStructuredChatModel } from "../../src/testing/index.js";
import {
  CostAccumulator,
  LangChainEventTracer,
  LoggingTracer,
  type LogRecord,
  MultiTracer,
  OpenTelemetryTracer,
  RecordingTracer,
  ReflexionTracer,
  SafeTracer,
  type TraceEvent,
  templateReflection,
} from "../../src/tracing/index.js";
import { flakyWriterActions, PUBLISHED } from "../support/writer.js";

const silent: GoapLogger = { debug() {}, info() {}, warn() {}, error() {} };

function run(tracer?: PlanningTracer): Promise<GoapRunResult> {
  return new GoapGraph(flakyWriterActions(), { ...(tracer ? { tracer } : {}), logger: silent }).invoke(PUBLISHED, {});
}

/** Events without wall-clock durations, which differ from run to run. */
function stable(events: readonly TraceEvent[]): [string, Record<string, unknown>][] {
  return events.map((e) => {
    const { durationMs: _d, ...data } = e.data as Record<string, unknown>;
    return [e.name, data];
  });
}

// Timings, and the id each run draws for itself (unique per run by design).
const TIMINGS = new Set(["durationMs", "planningTimeMs", "wallClockStartedAt", "runId"]);

/** A run's result without wall-clock timings or run id (everything else must match exactly). */
function outcome(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(outcome);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !TIMINGS.has(k))
      .map(([k, v]) => [k, outcome(v)]),
  );
}

function hostileTracer(kind: "throw" | "reject"): PlanningTracer {
  const tracer: Record<string, unknown> = {};
  for (const hook of TRACER_HOOKS) {
    tracer[hook] = () => {
      if (kind === "throw") throw new Error(`${hook} exploded`);
      return Promise.reject(new Error(`${hook} rejected`));
    };
  }
  return tracer as PlanningTracer;
}

const goalJson = { conditions: { published: true }, policy: { replanStrategy: "on_deviation", priority: 0, maxReplans: 10 } };

describe("tracing a GoapGraph run", () => {
  it("emits the exact event sequence of the flaky-writer run (no search events without recordExpansions)", async () => {
    const recorder = new RecordingTracer();
    const result = await run(recorder);
    expect(result.status).toBe("goal_achieved");
    expect(stable(recorder.events)).toEqual([
      ["plan_start", { goal: goalJson, strategy: "astar", state: {} }],
      ["strategy_chosen", { strategy: "astar" }],
      ["plan_complete", { actions: ["research", "write_fast", "publish"], totalCost: 3 }],
      ["action_start", { action: "research" }],
      ["action_complete", { action: "research", success: true, error: null }],
      ["action_start", { action: "write_fast" }],
      ["action_complete", { action: "write_fast", success: false, error: "rate limited" }],
      ["plan_start", { goal: goalJson, strategy: "astar", state: { researched: true } }],
      ["strategy_chosen", { strategy: "astar" }],
      ["replan", { reason: "action_failed", actions: ["write_premium", "publish"] }],
      ["plan_complete", { actions: ["write_premium", "publish"], totalCost: 6 }],
      ["action_start", { action: "write_premium" }],
      ["action_complete", { action: "write_premium", success: true, error: null }],
      ["action_start", { action: "publish" }],
      ["action_complete", { action: "publish", success: true, error: null }],
      ["goal_achieved", { state: { researched: true, drafted: true, published: true } }],
    ]);
  });

  it("gives the same result with a tracer that throws or rejects on every hook", async () => {
    const result = await run();
    expect(result.status).toBe("goal_achieved");
    expect(result.replanCount).toBe(1);
    const baseline = outcome(result);
    for (const tracer of [hostileTracer("throw"), hostileTracer("reject")]) {
      expect(outcome(await run(tracer))).toEqual(baseline);
      const errors: unknown[] = [];
      expect(outcome(await run(new SafeTracer(tracer, { onError: (e) => errors.push(e) })))).toEqual(baseline);
      expect(errors).toHaveLength(16);
      // A hostile tracer next to a good one: the good one still sees everything.
      const recorder = new RecordingTracer();
      expect(outcome(await run(new MultiTracer([tracer, recorder])))).toEqual(baseline);
      expect(recorder.events).toHaveLength(16);
    }
  });

  it("exports OpenTelemetry spans for the plans and actions of the run", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    await run(new OpenTelemetryTracer({ tracer: provider.getTracer("goap") }));
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.status.code])).toEqual([
      ["goap.plan", SpanStatusCode.OK],
      ["goap.action research", SpanStatusCode.OK],
      ["goap.action write_fast", SpanStatusCode.ERROR],
      ["goap.plan", SpanStatusCode.OK],
      ["goap.action write_premium", SpanStatusCode.OK],
      ["goap.action publish", SpanStatusCode.OK],
      ["goap.run", SpanStatusCode.OK],
    ]);
    expect(spans[3]?.attributes["goap.replan_reason"]).toBe("action_failed");
    expect(spans[6]?.attributes["goap.replans"]).toBe(1);
  });

  it("sends the same events to LangChain callback handlers as custom events", async () => {
    const seen: string[] = [];
    class Handler extends BaseCallbackHandler {
      name = "custom";
      constructor() {
        super({ _awaitHandler: true });
      }
      override handleCustomEvent(name: string) {
        seen.push(name);
      }
    }
    const recorder = new RecordingTracer();
    const graph = new GoapGraph(flakyWriterActions(), { tracer: new MultiTracer([new LangChainEventTracer(), recorder]), logger: silent });
    await graph.invoke(PUBLISHED, {}, { callbacks: [new Handler()] });
    expect(seen).toEqual(recorder.names.map((n) => `langgoap.${n}`));
  });

  it("logs the run as structured records", async () => {
    const records: LogRecord[] = [];
    await run(new LoggingTracer({ sink: (r) => records.push(r), now: () => new Date(0) }));
    expect(records.filter((r) => r.level === "warn").map((r) => r.message)).toEqual([
      "action_complete action=write_fast success=false error=rate limited",
    ]);
    expect(records.map((r) => r.event)).not.toContain("search_complete");
    expect(records.at(-1)?.message).toBe("goal_achieved");
  });

  it("feeds reflections on the failure into the replanned run", async () => {
    const reflexion = new ReflexionTracer({ now: () => new Date(0) });
    const result = await run(reflexion);
    const { reflection, suggestion } = templateReflection("write_fast", "rate limited");
    expect(reflexion.reflections).toEqual([
      { actionName: "write_fast", error: "rate limited", reflection, suggestion, timestamp: "1970-01-01T00:00:00.000Z" },
    ]);
    expect(result.reflectionContext).toEqual([`[write_fast] ${reflection} → ${suggestion}`]);
  });

  it("accumulates LLM costs into the world state, where a cost policy can stop the run", async () => {
    const world = {};
    const costs = new CostAccumulator(world);
    const llm = new FakeStructuredChatModel({
      responses: ["draft"],
      usage: { inputTokens: 1000, outputTokens: 1000 },
      model: "gpt-4o",
      callbacks: [costs],
    });
    const draft = (name: string, pre: Record<string, boolean>, post: Record<string, boolean>) =>
      new ActionSpec({
        name,
        preconditions: pre,
        effects: post,
        execute: async () => {
          await llm.invoke(`do ${name}`);
          return { ...post, ...costs.totals };
        },
      });
    const actions = [
      draft("outline", {}, { outlined: true }),
      draft("write", { outlined: true }, { drafted: true }),
      draft("edit", { drafted: true }, { edited: true }),
    ];
    // gpt-4o: $0.0025 + $0.01 per call of 1000 in + 1000 out; the budget allows two calls.
    const graph = new GoapGraph(actions, { terminationPolicies: [new MaxCostPolicy(0.02)], logger: silent });
    const result = await graph.invoke({ edited: true }, {});
    expect(result.status).toBe("terminated");
    expect(result.worldState).toMatchObject({ outlined: true, drafted: true, total_tokens: 4000, llm_call_count: 2 });
    expect(result.worldState.total_cost_usd).toBeCloseTo(0.025, 12);
    expect(world).toMatchObject({ total_tokens: 4000, llm_call_count: 2 });
  });
});
