import type { LangGraphRunnableConfig, StateDefinitionInit, StateGraph } from "@langchain/langgraph";
import { type ActionSpec, describeValue, LangGoapError, type WorldState } from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import {
  type CompiledGoapGraph,
  type GoalInput,
  type GoapCompileOptions,
  GoapGraph,
  type GoapGraphOptions,
  type GoapRunResult,
} from "../graph/index.js";

/** The goal of an embedded GOAP run: fixed, or read from the parent graph's state. */
export type SubgraphGoal<S> = GoalInput | ((parentState: S) => GoalInput);

/** Options of {@link addGoapSubgraph}. */
export interface AddGoapSubgraphOptions<S = Record<string, unknown>> {
  /** The actions the embedded run plans with. */
  readonly actions: readonly ActionSpec[];
  /** The goal: a goal object, bare conditions, or a function of the parent state. */
  readonly goal: SubgraphGoal<S>;
  /** Parent state key holding the world state the run starts from. @defaultValue "worldState" */
  readonly inputKey?: string;
  /** Parent state key receiving the run's final GOAP state. @defaultValue "goapResult" */
  readonly outputKey?: string;
  /** Options of the embedded `GoapGraph` (tracer, guards, history, ...). @defaultValue {} */
  readonly graphOptions?: GoapGraphOptions;
}

/**
 * A GOAP run packaged for use inside another graph: `compile()` gives the
 * GOAP graph itself (to add as a subgraph node), `node()` a node function
 * that reads the world state from a parent key and writes the final GOAP
 * state to another. The GOAP internals stay sealed: the parent sees one node
 * and one result.
 *
 * @example
 * ```ts
 * const writer = new GoapSubgraph(writerActions, { published: true });
 * parent.addNode("publish", writer.node({ inputKey: "facts", outputKey: "publishing" }));
 * ```
 */
export class GoapSubgraph<S = Record<string, unknown>> {
  readonly graph: GoapGraph;
  readonly goal: SubgraphGoal<S>;

  constructor(actions: readonly ActionSpec[], goal: SubgraphGoal<S>, graphOptions: GoapGraphOptions = {}) {
    if (goal === null || goal === undefined) throw new LangGoapError("INVALID_GOAL", "GoapSubgraph: a goal is required");
    this.graph = new GoapGraph(actions, graphOptions);
    this.goal = goal;
  }

  /** Compiles the GOAP graph (a `CompiledStateGraph` over `GoapState`). */
  compile(options: GoapCompileOptions = {}): CompiledGoapGraph {
    return this.graph.compile(options);
  }

  /**
   * A node for a parent graph: runs the goal from `parent[inputKey]` and
   * returns `{ [outputKey]: finalGoapState }`. The run gets the node's config,
   * so it is checkpointed, traced and interrupted as part of the parent run.
   */
  node({ inputKey = "worldState", outputKey = "goapResult" }: { readonly inputKey?: string; readonly outputKey?: string } = {}) {
    return async (state: S, config?: LangGraphRunnableConfig): Promise<Record<string, GoapRunResult>> => {
      const worldState = (state as Record<string, unknown>)[inputKey] ?? {};
      if (typeof worldState !== "object" || worldState === null || Array.isArray(worldState)) {
        throw new LangGoapError(
          "INVALID_STATE",
          `GoapSubgraph: parent state "${inputKey}" must be an object of facts (the world state), got ${describeValue(worldState)}`,
          { inputKey },
        );
      }
      const goal = typeof this.goal === "function" ? this.goal(state) : this.goal;
      return { [outputKey]: await this.graph.invoke(goal, worldState as WorldState, config) };
    };
  }
}

const ADD_GOAP_SUBGRAPH_OPTIONS_KEYS = {
  actions: true,
  goal: true,
  inputKey: true,
  outputKey: true,
  graphOptions: true,
} as const satisfies OptionKeys<AddGoapSubgraphOptions<WorldState>>;

/**
 * Embeds a GOAP run as node `name` of a user's `StateGraph` builder: the node
 * reads `parent[inputKey]` as the world state, runs the goal to the end, and
 * writes the final GOAP state (status, world state, execution history, ...)
 * to `parent[outputKey]`. Both keys must be channels of the parent state.
 * Returns the builder, with the node added, for chaining.
 *
 * @example
 * ```ts
 * const Parent = Annotation.Root({ request: Annotation<string>(), facts: Annotation<WorldState>(), outcome: Annotation<GoapState>() });
 * const app = addGoapSubgraph(new StateGraph(Parent).addNode("intake", intake), "goap", {
 *   actions, goal: { published: true }, inputKey: "facts", outputKey: "outcome",
 * })
 *   .addEdge(START, "intake").addEdge("intake", "goap").addEdge("goap", END)
 *   .compile();
 * ```
 *
 * @param parent - The parent `StateGraph` (not yet compiled).
 * @param name - The node name.
 * @param options - Actions, goal, and the parent keys to read and write.
 * @returns `parent`, typed with the new node.
 */
export function addGoapSubgraph<
  SD extends StateDefinitionInit | unknown,
  S,
  U,
  N extends string,
  I extends StateDefinitionInit,
  O extends StateDefinitionInit,
  C extends StateDefinitionInit,
  R,
  IT,
  W,
  K extends string,
>(
  parent: StateGraph<SD, S, U, N, I, O, C, R, IT, W>,
  name: K,
  options: AddGoapSubgraphOptions<S>,
): StateGraph<SD, S, U, N | K, I, O, C, R, IT, W> {
  checkOptionKeys(options, ADD_GOAP_SUBGRAPH_OPTIONS_KEYS, "addGoapSubgraph()");
  const where = `addGoapSubgraph("${String(name)}")`;
  if (typeof name !== "string" || name === "")
    throw new LangGoapError("INVALID_OPTION", `addGoapSubgraph: name must be a non-empty string`);
  const channels = (parent as { channels?: unknown } | null)?.channels;
  if (typeof channels !== "object" || channels === null || typeof (parent as { addNode?: unknown }).addNode !== "function") {
    throw new LangGoapError(
      "INVALID_OPTION",
      `${where}: parent must be a LangGraph StateGraph builder (before compile), got ${describeValue(parent)}`,
    );
  }
  if (typeof options !== "object" || options === null) {
    throw new LangGoapError("INVALID_OPTION", `${where}: options must be an object, got ${describeValue(options)}`);
  }
  const inputKey = options.inputKey ?? "worldState";
  const outputKey = options.outputKey ?? "goapResult";
  for (const [field, key] of [
    ["inputKey", inputKey],
    ["outputKey", outputKey],
  ] as const) {
    if (typeof key !== "string" || !(key in channels)) {
      throw new LangGoapError(
        "INVALID_OPTION",
        `${where}: ${field} ${describeValue(key)} is not a key of the parent state; its keys are [${Object.keys(channels).join(", ")}]`,
        { field, key },
      );
    }
  }
  const subgraph = new GoapSubgraph<S>(options.actions, options.goal, options.graphOptions);
  // LangGraph's addNode overloads cannot be matched from a generic builder; the node's shape is checked above instead.
  (parent as unknown as { addNode(name: string, node: unknown): unknown }).addNode(name, subgraph.node({ inputKey, outputKey }));
  return parent as unknown as StateGraph<SD, S, U, N | K, I, O, C, R, IT, W>;
}
