import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import type { GoapGraph } from "./goap-graph.js";
import { guardPausedThreads } from "./paused-thread-guard.js";
import { COMPILED_RECURSION_LIMIT } from "./run-limit.js";
import { buildServedStateGraph } from "./state-graph.js";
import { limitAssignedCheckpointers } from "./time-limited-checkpointer.js";

/**
 * A GOAP graph compiled for a server: a LangGraph `CompiledStateGraph`
 * whose input is `{ goal, worldState }` and whose output is `{ status,
 * worldState, plan, executionHistory }`.
 */
export type ServedGoapGraph = ReturnType<ReturnType<typeof buildServedStateGraph>["compile"]>;

/** Options of {@link compileServedGraph}. */
export interface ServedGraphOptions {
  /** Name of the compiled graph (LangGraph's run name). @defaultValue "LangGraph" */
  readonly name?: string;
  /**
   * Checkpointer of the graph. Leave it out for the LangGraph API server,
   * which assigns its own to every graph it loads. @defaultValue none
   */
  readonly checkpointer?: BaseCheckpointSaver;
  /** Store of the graph (execution history records to it). @defaultValue none (the server assigns one) */
  readonly store?: BaseStore;
}

const SERVED_GRAPH_OPTIONS_KEYS = { name: true, checkpointer: true, store: true } as const satisfies OptionKeys<ServedGraphOptions>;

/**
 * Compiles a {@link GoapGraph} for the LangGraph API server (or any host of
 * compiled graphs): the same planner / executor / observer nodes and
 * recursion limit as `graph.compile()`, with the run's input and output
 * declared (`GOAP_RUN_INPUT_SCHEMA`, `GOAP_RUN_OUTPUT_SCHEMA`). The server
 * then answers schema requests from these at once (it would otherwise parse
 * the TypeScript sources for the 20-odd internal state fields) and Studio
 * shows a two-field form. Runs return only the output fields; the thread's
 * full state stays readable with `getState`. Inputs are JSON: goals are
 * condition objects, as a client sends them.
 *
 * `graph.invoke` and `graph.stream` keep using their own full-state graph.
 *
 * @example
 * ```ts
 * // graph.ts, named in langgraph.json: "graphs": { "agent": "./src/graph.ts:graph" }
 * export const graph = compileServedGraph(new GoapGraph(actions), { name: "agent" });
 * ```
 *
 * @param graph - The GOAP graph to serve.
 * @param options - Name, checkpointer and store. @defaultValue {}
 * @returns The compiled graph.
 */
export function compileServedGraph(graph: GoapGraph, options: ServedGraphOptions = {}): ServedGoapGraph {
  checkOptionKeys(options, SERVED_GRAPH_OPTIONS_KEYS, "compileServedGraph()");
  const compiled = buildServedStateGraph(graph.state, graph.planner, graph.executor, graph.observer)
    .compile({
      ...(options.checkpointer ? { checkpointer: options.checkpointer } : {}),
      ...(options.store ? { store: options.store } : {}),
      ...(options.name ? { name: options.name } : {}),
    })
    .withConfig({ recursionLimit: COMPILED_RECURSION_LIMIT }) as ServedGoapGraph;
  // The API server assigns its own saver to the graph it serves: that one gets the graph's limits too.
  return limitAssignedCheckpointers(guardPausedThreads(compiled), graph.checkpointerTimeoutMs);
}
