export type { LogLevel } from "../core/index.js";
export {
  CostAccumulator,
  type CostAccumulatorOptions,
  type CostTotals,
  DEFAULT_COST_PER_1K_TOKENS,
  type TokenPrice,
} from "./cost-accumulator.js";
export { EventTracer } from "./event-tracer.js";
export { HookTracer } from "./hook-tracer.js";
export { LangChainEventTracer, type LangChainEventTracerOptions } from "./langchain-event-tracer.js";
export { LangSmithTracer, type LangSmithTracerOptions } from "./langsmith-tracer.js";
export { LoggingTracer, type LoggingTracerOptions, type LogRecord } from "./logging-tracer.js";
export { MultiTracer, type MultiTracerOptions } from "./multi-tracer.js";
export { NullTracer } from "./null-tracer.js";
export { OpenTelemetryTracer, type OpenTelemetryTracerOptions } from "./opentelemetry-tracer.js";
export { PerRunTracer, type RunTracer } from "./per-run-tracer.js";
export { RecordingTracer } from "./recording-tracer.js";
export { type Reflection, ReflexionTracer, type ReflexionTracerOptions, templateReflection } from "./reflexion-tracer.js";
export type { TracerErrorHandler } from "./safe-call.js";
export { SafeTracer, type SafeTracerOptions } from "./safe-tracer.js";
export { type TraceEvent, type TraceHook, type TraceHookArgs, toTraceEvent, traceEventName } from "./trace-event.js";
