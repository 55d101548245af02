import { ROOT_CONTEXT, SpanStatusCode, trace } from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { ActionSpec } from "../../src/core/index.js";
import { OpenTelemetryTracer } from "../../src/tracing/index.js";

function setup(options: ConstructorParameters<typeof OpenTelemetryTracer>[0] = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = new OpenTelemetryTracer({ tracer: provider.getTracer("test"), ...options });
  return { exporter, tracer };
}

const research = new ActionSpec({ name: "research", effects: { researched: true }, cost: 1 });
const writeFast = new ActionSpec({ name: "write_fast", effects: { drafted: true }, cost: 1 });
const writePremium = new ActionSpec({ name: "write_premium", effects: { drafted: true }, cost: 5 });
const publish = new ActionSpec({ name: "publish", effects: { published: true }, cost: 1 });
const goal = { toJSON: () => ({ conditions: { published: true } }) };

const byName = (spans: readonly ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("OpenTelemetryTracer", () => {
  it("exports a run span, a span per planning round and a span per action", () => {
    const { exporter, tracer } = setup();
    tracer.onPlanStart(goal, { researched: false }, "astar");
    tracer.onStrategyChosen("astar");
    tracer.onPlanComplete({ actionNames: ["research", "write_fast", "publish"], totalCost: 3 }, 1.5);
    tracer.onActionStart(research, {});
    tracer.onActionComplete({ actionName: "research", success: true, error: null });
    tracer.onActionStart(writeFast, {});
    tracer.onActionRetry(writeFast, 1, new Error("503 from writer"), 250);
    tracer.onActionComplete({ actionName: "write_fast", success: false, error: "503 from writer" });
    tracer.onPlanStart(goal, { researched: true }, "astar");
    tracer.onStrategyChosen("astar");
    tracer.onReplan("action_failed", { actionNames: ["write_premium", "publish"], totalCost: 6 });
    tracer.onPlanComplete({ actionNames: ["write_premium", "publish"], totalCost: 6 }, 0.8);
    tracer.onActionStart(writePremium, {});
    tracer.onActionComplete({ actionName: "write_premium", success: true, error: null });
    tracer.onActionStart(publish, {});
    tracer.onActionComplete({ actionName: "publish", success: true, error: null });
    tracer.onGoalAchieved({ published: true });

    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual([
      "goap.plan",
      "goap.action research",
      "goap.action write_fast",
      "goap.plan",
      "goap.action write_premium",
      "goap.action publish",
      "goap.run",
    ]);
    const [run] = byName(spans, "goap.run");
    expect(run?.status.code).toBe(SpanStatusCode.OK);
    expect(run?.attributes["goap.replans"]).toBe(1);
    expect(run?.events.map((e) => [e.name, e.attributes?.reason])).toEqual([["replan", "action_failed"]]);
    for (const span of spans.filter((s) => s !== run)) expect(parentOf(span)).toBe(run?.spanContext().spanId);
    expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);

    const [first, second] = byName(spans, "goap.plan");
    expect(first?.attributes).toMatchObject({
      "goap.strategy": "astar",
      "goap.goal": '{"conditions":{"published":true}}',
      "goap.plan.actions": ["research", "write_fast", "publish"],
      "goap.plan.cost": 3,
      "goap.plan.length": 3,
      "goap.planning_ms": 1.5,
    });
    expect(second?.attributes).toMatchObject({ "goap.replan_reason": "action_failed", "goap.plan.actions": ["write_premium", "publish"] });

    const [failed] = byName(spans, "goap.action write_fast");
    expect(failed?.status).toEqual({ code: SpanStatusCode.ERROR, message: "503 from writer" });
    expect(failed?.attributes["goap.action.success"]).toBe(false);
    expect(failed?.events.map((e) => e.name)).toEqual(["retry", "exception"]);
    expect(failed?.events[0]?.attributes).toEqual({ attempt: 1, backoff_ms: 250, "error.message": "503 from writer" });
    expect(byName(spans, "goap.action publish")[0]?.status.code).toBe(SpanStatusCode.OK);
  });

  it("marks a failed planning round and a terminal failure as errors", () => {
    const { exporter, tracer } = setup();
    tracer.onPlanStart(goal, {}, "astar");
    tracer.onPlanFailed("no_plan", 2);
    tracer.onPlanFailed("no_plan", 0);
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => [s.name, s.status.code, s.status.message])).toEqual([
      ["goap.plan", SpanStatusCode.ERROR, "no_plan"],
      ["goap.run", SpanStatusCode.ERROR, "no_plan"],
    ]);
  });

  it("records capped search events when asked", () => {
    const { exporter, tracer } = setup({ recordSearchEvents: true, maxSearchEvents: 2 });
    tracer.onPlanStart(goal, {}, "astar");
    for (let i = 0; i < 5; i++) tracer.onSearchExpand({ nodeId: i, parentId: i - 1, actionName: "a", state: {}, g: i, h: 1, f: i + 1 });
    tracer.onSearchComplete(5, 0.1, true);
    tracer.onPlanComplete({ actionNames: [], totalCost: 0 }, 0.1);
    const [plan] = exporter.getFinishedSpans();
    expect(plan?.events.map((e) => e.name)).toEqual(["search.expand", "search.expand"]);
    expect(plan?.attributes).toMatchObject({ "goap.search.dropped_events": 3, "goap.search.nodes_expanded": 5, "goap.search.found": true });
  });

  it("nests the run under a parent span and closes open spans on end()", () => {
    const exporter = new InMemorySpanExporter();
    const otel = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).getTracer("test");
    const outer = otel.startSpan("request");
    const tracer = new OpenTelemetryTracer({ tracer: otel, parentContext: trace.setSpan(ROOT_CONTEXT, outer) });
    tracer.onPlanStart(goal, {}, "astar");
    tracer.onPlanComplete({ actionNames: ["research"], totalCost: 1 }, 1);
    tracer.onActionStart(research, {});
    tracer.end();
    outer.end();
    const spans = exporter.getFinishedSpans();
    const run = byName(spans, "goap.run")[0];
    expect(parentOf(run as ReadableSpan)).toBe(outer.spanContext().spanId);
    expect(byName(spans, "goap.action research")[0]?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it("rejects a bad cap", () => {
    expect(() => new OpenTelemetryTracer({ maxSearchEvents: -1 })).toThrow(/maxSearchEvents/);
  });
});
