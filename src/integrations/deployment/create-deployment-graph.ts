import { compileServedGraph, GoapGraph, type GoapGraphOptions, type ServedGoapGraph } from "../../graph/index.js";
import { createPublishingActions } from "./publishing-domain.js";

/**
 * Builds the graph the LangGraph API server serves: a `GoapGraph` over the
 * sample publishing domain, compiled for serving (input `{ goal,
 * worldState }`, output `{ status, worldState, plan, executionHistory }`)
 * with no checkpointer or store on purpose — the server assigns its own to
 * every graph it loads, which makes every thread a durable, resumable GOAP
 * run.
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
export function createDeploymentGraph(options: GoapGraphOptions = {}): ServedGoapGraph {
  return compileServedGraph(new GoapGraph(createPublishingActions(), options), { name: "langgoap_publishing" });
}
