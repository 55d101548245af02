import { type CompiledGoapGraph, GoapGraph, type GoapGraphOptions } from "../../graph/index.js";
import { createPublishingActions } from "./publishing-domain.js";

/**
 * Builds the graph the LangGraph API server serves: a `GoapGraph` over the
 * sample publishing domain, compiled with no checkpointer or store on
 * purpose — the server assigns its own (in memory under `langgraph dev`,
 * PostgreSQL in a deployment), which makes every thread a durable,
 * resumable GOAP run.
 *
 * @example
 * ```ts
 * const app = createDeploymentGraph();
 * app.checkpointer = new MemorySaver(); // what the server does
 * await app.invoke({ goal: { published: true }, worldState: { topic: "GOAP" } }, { configurable: { thread_id: "t1" } });
 * ```
 *
 * @param options - `GoapGraph` options (tracer, history, guards, ...). @defaultValue {}
 * @returns The compiled graph.
 */
export function createDeploymentGraph(options: GoapGraphOptions = {}): CompiledGoapGraph {
  return new GoapGraph(createPublishingActions(), options).compile({ name: "langgoap_publishing" });
}
