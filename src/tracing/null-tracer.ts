import type { PlanningTracer } from "../core/index.js";

/**
 * A tracer with no hooks: nothing is called, nothing is computed for it. The
 * explicit "no tracing" choice (the same as passing no tracer).
 *
 * @example
 * ```ts
 * new GoapGraph(actions, { tracer: new NullTracer() });
 * ```
 */
export class NullTracer implements PlanningTracer {}
