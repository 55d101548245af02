import { RunnableLambda } from "@langchain/core/runnables";
import {
  END,
  type LangGraphRunnableConfig,
  type Pregel,
  type PregelOptions,
  START,
  type StateDefinitionInit,
  StateGraph,
  type StreamMode,
} from "@langchain/langgraph";
import type { WorldState } from "../core/index.js";
import { pauseIfTurnLong } from "../core/turn-clock.js";
import type { GoapExecutor } from "./executor.js";
import { type GoapObserver, routeAfterObserver } from "./observer.js";
import type { GoapPlanner } from "./planner.js";
import { GOAP_RUN_INPUT_SCHEMA, GOAP_RUN_OUTPUT_SCHEMA } from "./run-schemas.js";
import type { GoapState, GoapStateAnnotation } from "./state.js";

/**
 * The final (or interrupted) state of a run, as `invoke` returns it; `S` is
 * the type of its `worldState` (a typed domain's facts, see `defineDomain`).
 */
export type GoapRunResult<S extends WorldState = WorldState> = (WorldState extends S
  ? GoapState
  : Omit<GoapState, "worldState"> & { worldState: S }) & {
  readonly __interrupt__?: readonly { readonly id?: string; readonly value?: unknown }[];
};

/**
 * @internal Wires the three nodes: START → planner → executor → (observer |
 * executor), observer → (planner | executor | END), both through
 * conditional edges: the executor goes straight on to its next step when
 * the observer would have nothing to decide
 * ({@link GoapObserver.routeAfterExecutor}), and the observer's edge follows
 * its decision.
 */
export function buildStateGraph(annotation: GoapStateAnnotation, planner: GoapPlanner, executor: GoapExecutor, observer: GoapObserver) {
  return wireNodes(new StateGraph(annotation), planner, executor, observer);
}

/**
 * @internal The same graph with the run's input and output declared
 * ({@link GOAP_RUN_INPUT_SCHEMA}, {@link GOAP_RUN_OUTPUT_SCHEMA}): what a
 * server shows and returns.
 */
export function buildServedStateGraph(
  annotation: GoapStateAnnotation,
  planner: GoapPlanner,
  executor: GoapExecutor,
  observer: GoapObserver,
) {
  return wireNodes(
    new StateGraph(annotation, { input: GOAP_RUN_INPUT_SCHEMA, output: GOAP_RUN_OUTPUT_SCHEMA }),
    planner,
    executor,
    observer,
  );
}

/** The observer's conditional edge, named so traces show `route_after_observer` instead of an anonymous `RunnableLambda`. */
const OBSERVER_ROUTE = RunnableLambda.from((state: GoapStateAnnotation["State"]) => routeAfterObserver(state as GoapState)).withConfig({
  runName: "route_after_observer",
});

/** The executor's conditional edge, named `route_after_executor` in traces. */
function executorRoute(observer: GoapObserver) {
  return RunnableLambda.from((state: GoapStateAnnotation["State"]) => observer.routeAfterExecutor(state as GoapState)).withConfig({
    runName: "route_after_executor",
  });
}

type GoapSpec = GoapStateAnnotation["spec"];
type S = GoapStateAnnotation["State"];
type U = GoapStateAnnotation["Update"];

/**
 * A node that starts and ends with a turn for the event loop when the
 * current turn has run long (see `pauseIfTurnLong`): LangGraph's work
 * around a node (applying writes, routing, the next superstep) and the
 * node's own then do not add up to one long pause on a large world.
 */
function inTurnsOfItsOwn<A extends unknown[], R>(node: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    await pauseIfTurnLong();
    const update = await node(...args);
    await pauseIfTurnLong();
    return update;
  };
}

function wireNodes<I extends StateDefinitionInit, O extends StateDefinitionInit>(
  graph: StateGraph<GoapSpec, S, U, typeof START, I, O>,
  planner: GoapPlanner,
  executor: GoapExecutor,
  observer: GoapObserver,
) {
  return graph
    .addNode(
      "planner",
      inTurnsOfItsOwn((state: S, config: LangGraphRunnableConfig) => planner.run(state as GoapState, config)),
    )
    .addNode(
      "executor",
      inTurnsOfItsOwn((state: S, config: LangGraphRunnableConfig) => executor.run(state as GoapState, config)),
    )
    .addNode(
      "observer",
      inTurnsOfItsOwn((state: S, config: LangGraphRunnableConfig) => observer.run(state as GoapState, config)),
    )
    .addEdge(START, "planner")
    .addEdge("planner", "executor")
    .addConditionalEdges("executor", executorRoute(observer), ["executor", "observer"])
    .addConditionalEdges("observer", OBSERVER_ROUTE, ["planner", "executor", END]);
}

/** The LangGraph `StateGraph` of a GOAP graph, before compiling. */
export type GoapStateGraph = ReturnType<typeof buildStateGraph>;

/** A compiled GOAP graph: a real LangGraph `CompiledStateGraph`. */
export type CompiledGoapGraph = ReturnType<GoapStateGraph["compile"]>;

type PregelParts =
  CompiledGoapGraph extends Pregel<
    infer N,
    infer C,
    infer X,
    infer _I,
    infer _O,
    infer _U,
    infer _V,
    infer _R,
    infer _M,
    infer _S,
    infer _T
  >
    ? [N, C, X]
    : never;

/** Options of `GoapGraph.stream`: LangGraph's stream options for this graph. */
export type GoapStreamOptions<
  TStreamMode extends StreamMode | StreamMode[] | undefined = StreamMode | StreamMode[] | undefined,
  TSubgraphs extends boolean = false,
  TEncoding extends "text/event-stream" | undefined = undefined,
> = Partial<PregelOptions<PregelParts[0], PregelParts[1], PregelParts[2], TStreamMode, TSubgraphs, TEncoding>>;
