/**
 * One tracer shared by many runs of one graph (a served graph): every run
 * gets its own trace, action spans are active while `execute` runs, and a
 * tracer whose hooks are throwing getters changes nothing.
 */
import { context, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ActionSpec, TRACER_HOOKS } from "../../src/core/index.js";
import { GoapGraph } from "../../src/graph/index.js";
import { MultiTracer, OpenTelemetryTracer, SafeTracer } from "../../src/tracing/index.js";
import { quietLogger } from "../graph/support.js";
import { stillClock } from "../support/still-clock.js";

const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => {
  contextManager.enable();
  context.setGlobalContextManager(contextManager);
});
afterAll(() => {
  context.disable();
});
afterEach(() => {
  vi.restoreAllMocks();
});

function setup(options: ConstructorParameters<typeof OpenTelemetryTracer>[0] = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const otel = provider.getTracer("test");
  return { exporter, otel, tracer: new OpenTelemetryTracer({ tracer: otel, ...options }) };
}

const pause = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 3)));

/** research → write → publish; `write` fails on runs whose `flaky` fact is true, and they replan through `write_premium`. */
function domain() {
  return [
    new ActionSpec({ name: "research", effects: { researched: true }, cost: 1, execute: async () => void (await pause()) }),
    new ActionSpec({
      name: "write",
      preconditions: { researched: true },
      effects: { drafted: true },
      cost: 1,
      execute: async (state) => {
        await pause();
        if (state.flaky === true) throw new Error(`writer down for run ${String(state.id)}`);
      },
    }),
    new ActionSpec({ name: "write_premium", preconditions: { researched: true }, effects: { drafted: true }, cost: 5 }),
    new ActionSpec({ name: "publish", preconditions: { drafted: true }, effects: { published: true }, cost: 1, execute: pause }),
  ];
}

const childrenOf = (spans: readonly ReadableSpan[], parent: ReadableSpan) =>
  spans.filter((s) => s.parentSpanContext?.spanId === parent.spanContext().spanId);

describe("one tracer, many runs", () => {
  it("gives each of 50 concurrent runs of one graph its own correct trace", async () => {
    // The 50 runs' searches take turns, so each one's 10 s time budget counts the others' work on a busy machine:
    // time stands still for the planner (the traces are the subject, not the time).
    stillClock();
    const { exporter, tracer } = setup();
    const graph = new GoapGraph(domain(), { tracer, logger: quietLogger() });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, id) => graph.invoke({ published: true }, { id, flaky: id % 5 === 0, researched: false })),
    );
    expect(results.every((r) => r.status === "goal_achieved")).toBe(true);
    expect(tracer.openRuns).toBe(0);

    const spans = exporter.getFinishedSpans();
    const runs = spans.filter((s) => s.name === "goap.run");
    expect(runs).toHaveLength(50);
    expect(new Set(runs.map((r) => r.spanContext().traceId)).size).toBe(50);
    expect(new Set(runs.map((r) => r.attributes["goap.run_id"])).size).toBe(50);
    for (const run of runs) {
      expect(run.status.code).toBe(SpanStatusCode.OK);
      const id = results.findIndex((r) => r.runId === run.attributes["goap.run_id"]);
      expect(id).toBeGreaterThanOrEqual(0);
      const children = childrenOf(spans, run);
      // Every span of the trace hangs under this run's root.
      expect(spans.filter((s) => s.spanContext().traceId === run.spanContext().traceId)).toHaveLength(children.length + 1);
      const actions = children.filter((s) => s.name.startsWith("goap.action")).map((s) => [s.name, s.status.code]);
      if (id % 5 === 0) {
        expect(actions).toEqual([
          ["goap.action research", SpanStatusCode.OK],
          ["goap.action write", SpanStatusCode.ERROR],
          ["goap.action write_premium", SpanStatusCode.OK],
          ["goap.action publish", SpanStatusCode.OK],
        ]);
        expect(children.filter((s) => s.name === "goap.plan")).toHaveLength(2);
        expect(run.attributes["goap.replans"]).toBe(1);
      } else {
        // A healthy run's spans are never marked by another run's failure.
        expect(actions).toEqual([
          ["goap.action research", SpanStatusCode.OK],
          ["goap.action write", SpanStatusCode.OK],
          ["goap.action publish", SpanStatusCode.OK],
        ]);
        expect(children.filter((s) => s.name === "goap.plan")).toHaveLength(1);
        expect(run.attributes["goap.replans"]).toBeUndefined();
      }
    }
  });

  it("runs execute with its action span active, so spans it creates are children", async () => {
    const { exporter, otel, tracer } = setup();
    const call = new ActionSpec({
      name: "call_api",
      effects: { called: true },
      execute: async () => {
        await otel.startActiveSpan("http GET /weather", async (span) => {
          await pause();
          span.end();
        });
      },
    });
    // Behind MultiTracer and SafeTracer too: wrappers pass the scope through.
    const graph = new GoapGraph([call], { tracer: new MultiTracer([SafeTracer.wrap(tracer)]), logger: quietLogger() });
    expect((await graph.invoke({ called: true }, {})).status).toBe("goal_achieved");
    const spans = exporter.getFinishedSpans();
    const http = spans.find((s) => s.name === "http GET /weather");
    const action = spans.find((s) => s.name === "goap.action call_api");
    expect(http?.parentSpanContext?.spanId).toBe(action?.spanContext().spanId);
    expect(trace.getActiveSpan()).toBeUndefined();
  });

  it("a tracer whose hooks are throwing getters, or whose action scope misbehaves, changes nothing", async () => {
    const hostile: Record<string, unknown> = {};
    for (const hook of [...TRACER_HOOKS, "forRun"]) {
      Object.defineProperty(hostile, hook, {
        get() {
          throw new Error(`getter ${hook}`);
        },
      });
    }
    let scopes = 0;
    const skipping = {
      // Never calls execute, then throws: execute must still run exactly once.
      runAction: async () => {
        scopes++;
        throw new Error("scope broke");
      },
    };
    const twice = {
      runAction: async <T>(_a: unknown, execute: () => Promise<T>) => {
        await execute();
        return execute();
      },
    };
    let executed = 0;
    const act = new ActionSpec({ name: "act", effects: { done: true }, execute: () => void executed++ });
    for (const tracer of [hostile, skipping, twice]) {
      executed = 0;
      const result = await new GoapGraph([act], { tracer: tracer as never, logger: quietLogger() }).invoke({ done: true }, {});
      expect(result.status).toBe("goal_achieved");
      expect(executed).toBe(1);
    }
    expect(scopes).toBe(1);
  });

  it("ends and forgets the oldest runs past maxOpenRuns", () => {
    const { exporter, tracer } = setup({ maxOpenRuns: 2 });
    const action = new ActionSpec({ name: "a", effects: { a: true } });
    for (const runId of ["r1", "r2", "r3"]) tracer.forRun({ runId }).onActionStart?.(action, {});
    expect(tracer.openRuns).toBe(2);
    const ended = exporter.getFinishedSpans();
    expect(ended.map((s) => [s.name, s.attributes["goap.run_id"] ?? null])).toEqual([
      ["goap.action a", null],
      ["goap.run", "r1"],
    ]);
    expect(ended[1]?.attributes["goap.end_reason"]).toBe("evicted: more than 2 runs open at once");
    expect(() => setup({ maxOpenRuns: 0 })).toThrow(/maxOpenRuns must be an integer >= 1, got 0/);
  });
});
