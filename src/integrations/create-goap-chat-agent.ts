import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage } from "@langchain/core/messages";
import {
  Annotation,
  END,
  isCommand,
  type LangGraphRunnableConfig,
  type Messages,
  MessagesAnnotation,
  MessagesZodMeta,
  START,
  StateGraph,
} from "@langchain/langgraph";
import { registry } from "@langchain/langgraph/zod";
import { z } from "zod";
import {
  type ActionSpec,
  type Conditions,
  describeValue,
  type FactCatalog,
  LangGoapError,
  validateActions,
  type WorldState,
} from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { type GoalData, type GoapCompileOptions, GoapGraph, type GoapGraphOptions, goalToData } from "../graph/index.js";
import { limitAssignedCheckpointers } from "../graph/time-limited-checkpointer.js";
import type { GoalInterpreterOptions } from "../nl/index.js";
import { createChatInterpreter } from "./chat-interpreter.js";
import { type GoapChatReport, notUnderstoodReport, runReport } from "./goap-chat-report.js";
import { prepareInputs } from "./prepare-input.js";
import type { GoalInterpreterKind } from "./resolve-goal.js";
import { actionsFromTools, TOOL_PLANNING_KEYS, type ToolPlanningOptions } from "./tool-actions.js";
import type { LangChainTool } from "./tool-schema.js";

/** Key of the structured {@link GoapChatReport} in a reply's `additional_kwargs`. */
export const GOAP_CHAT_REPORT_KEY = "goap";

/** Options of {@link createGoapChatAgent}. Every `GoapGraph` option (tracer, guards, history, replanning, ...) applies to the runs. */
export interface CreateGoapChatAgentOptions
  extends GoapGraphOptions,
    ToolPlanningOptions,
    Pick<GoapCompileOptions, "checkpointer" | "store" | "name"> {
  /** The chat model that reads each human message as a goal (through a `GoalInterpreter`). Required unless `interpreter` is `"keyword"`. */
  readonly llm?: BaseChatModel;
  /** How messages are read: a chat model, or keyword matching (offline, deterministic). @defaultValue "llm" */
  readonly interpreter?: GoalInterpreterKind;
  /** The actions to plan with. Give `actions`, `tools`, or both. @defaultValue [] */
  readonly actions?: readonly ActionSpec[];
  /** LangChain tools (planning models per tool name, as in `createGoapAgent`). @defaultValue [] */
  readonly tools?: readonly (LangChainTool | ActionSpec)[];
  /** Declared facts: what a goal may name, with types, descriptions and synonyms. @defaultValue inferred from the actions */
  readonly facts?: FactCatalog;
  /** Other options of the goal interpreter (prompt, examples, structured output, time limit). @defaultValue {} */
  readonly interpreterOptions?: Omit<GoalInterpreterOptions, "facts">;
  /** The world a new thread starts from (an input's `worldState` replaces the thread's). @defaultValue {} */
  readonly worldState?: Readonly<WorldState>;
}

/** The goal of the turn in progress, between the interpreter and the run. */
interface PendingTurn {
  readonly request: string;
  readonly goal: GoalData;
  readonly conditions: Conditions;
  readonly reasoning: string | null;
}

const replace = <T>(_old: T, next: T): T => next;

// Any items: LangGraph validates inputs with this schema, and they may be message objects or their JSON.
// Not z.custom: the server's schema converter rejects it. Marked as LangGraph's messages for Studio's chat view.
const MESSAGES = z
  .array(z.any())
  .describe('Chat messages, e.g. [{ "role": "user", "content": "I\'m hungry" }]: each human message is read as a goal.')
  .register(registry, MessagesZodMeta as never);
const WORLD = z.record(z.string(), z.unknown());

/**
 * What a client sends and gets back, declared so the LangGraph API server
 * answers schema requests (and Studio draws its chat form) at once: without
 * them the server parses the TypeScript sources, which took over 30 s here.
 */
const CHAT_INPUT = z.object({
  // Typed as LangGraph's messages input (message objects or their JSON); the JSON schema above is what clients see.
  messages: MESSAGES as unknown as z.ZodType<Messages>,
  worldState: WORLD.optional().describe(
    "Replaces the thread's world state (facts) before this turn; omit it to keep the world as the last turn left it.",
  ),
});
const CHAT_OUTPUT = z.object({
  messages: MESSAGES as unknown as z.ZodType<BaseMessage[]>,
  worldState: WORLD.describe("The world state after the turn."),
});

/** The chat agent's state: LangGraph's `messages`, the world the turns act on, and the turn in progress. */
function chatState(start: Readonly<WorldState>) {
  return Annotation.Root({
    ...MessagesAnnotation.spec,
    worldState: Annotation<WorldState>({ reducer: replace, default: () => structuredClone(start) as WorldState }),
    turn: Annotation<PendingTurn | null>({ reducer: replace, default: () => null }),
  });
}

const CHAT_ONLY_KEYS = new Set([
  "llm",
  "interpreter",
  "actions",
  "tools",
  "facts",
  "interpreterOptions",
  "worldState",
  "checkpointer",
  "store",
  "name",
  ...TOOL_PLANNING_KEYS,
]);

const CREATE_GOAP_CHAT_AGENT_OPTIONS_KEYS = {
  llm: true,
  interpreter: true,
  actions: true,
  tools: true,
  facts: true,
  interpreterOptions: true,
  worldState: true,
  strategy: true,
  pipelineStrategy: true,
  tracer: true,
  logger: true,
  history: true,
  sensors: true,
  resolvers: true,
  guards: true,
  stuckHandlers: true,
  maxStuckIterations: true,
  terminationPolicies: true,
  transitionModel: true,
  parallel: true,
  seed: true,
  sleep: true,
  now: true,
  recursionLimit: true,
  goals: true,
  recordExpansions: true,
  actionTimeoutMs: true,
  sensorTimeoutMs: true,
  observerTimeoutMs: true,
  hookTimeoutMs: true,
  planningTimeoutMs: true,
  checkpointerTimeoutMs: true,
  preconditions: true,
  effects: true,
  costs: true,
  resources: true,
  resultKeys: true,
  toolOptions: true,
  checkpointer: true,
  store: true,
  name: true,
} as const satisfies OptionKeys<CreateGoapChatAgentOptions>;

/**
 * Builds a chat agent that plans: a LangGraph graph with the `messages`
 * channel of `MessagesAnnotation`, in the style of `createReactAgent`. Each
 * human message is read as a goal by a `GoalInterpreter` over `llm` (checked
 * against the facts the actions use or `facts` declares); a request naming an
 * unknown fact, or one no plan can reach, is answered "I cannot do that" with
 * the reason. Otherwise a `GoapGraph` plans and runs the goal (replanning
 * around failures, pausing at approvals) and an `AIMessage` reports the goal,
 * the plan, what ran and what changed; the same report, structured, is in
 * `additional_kwargs.goap` ({@link GoapChatReport}).
 *
 * The world state is a channel of the agent's state: each turn starts from
 * the world the previous one left on the thread (`options.worldState` for a
 * new thread; a `worldState` in the input replaces it). The GOAP run is
 * called from the agent's `act` node with the node's config, so it is a
 * subgraph of the turn: checkpointed on the agent's checkpointer, traced
 * under the turn, and an approval's `interrupt` pauses the agent itself
 * (`__interrupt__` in the result); resume with
 * `agent.invoke(new Command({ resume: true }), config)`. Approvals need a
 * checkpointer and a `thread_id`. Every call of the checkpointer a turn
 * waits on (`getTuple`, `put`, `putWrites`, `deleteThread`, each item of
 * `list`) has the `checkpointerTimeoutMs` limit of a `GoapGraph` (30 s by
 * default): a saver that stops answering fails the turn with a `TIMEOUT`
 * error naming the method and the thread instead of hanging it.
 *
 * @example
 * ```ts
 * const agent = createGoapChatAgent({
 *   llm: new ChatOpenAI({ model: "gpt-4o-mini" }),
 *   actions: villageActions,
 *   facts: { is_hungry: { type: "boolean", description: "the villager needs to eat" } },
 *   worldState: { is_hungry: true, is_tired: true, has_axe: true },
 *   checkpointer: new MemorySaver(),
 * });
 * const config = { configurable: { thread_id: "villager-1" } };
 * const first = await agent.invoke({ messages: [new HumanMessage("I'm hungry")] }, config);
 * first.messages.at(-1)?.content; // "Done: is_hungry = false.\nPlan: go_to_tree -> chop_wood -> ..."
 * first.messages.at(-1)?.additional_kwargs.goap; // { status: "goal_achieved", plan: [...], ... }
 * await agent.invoke({ messages: [new HumanMessage("now I'm tired too")] }, config); // plans from the world turn 1 left
 * ```
 *
 * @param options - The model, the actions or tools, the facts, the start world, and any `GoapGraph` option.
 * @returns The compiled chat graph, with the `goapGraph` that runs each goal.
 */
export function createGoapChatAgent(options: CreateGoapChatAgentOptions) {
  checkOptionKeys(options, CREATE_GOAP_CHAT_AGENT_OPTIONS_KEYS, "createGoapChatAgent()");
  if (typeof options !== "object" || options === null) {
    throw new LangGoapError("INVALID_OPTION", `createGoapChatAgent: options must be an object, got ${describeValue(options)}`);
  }
  const where = "createGoapChatAgent";
  const fromTools = options.tools !== undefined ? actionsFromTools(options.tools, options, options.logger, where) : [];
  if (options.actions !== undefined && !Array.isArray(options.actions)) {
    throw new LangGoapError(
      "INVALID_OPTION",
      `${where}: options.actions must be an array of ActionSpec, got ${describeValue(options.actions)}`,
    );
  }
  const actions = validateActions([...(options.actions ?? []), ...fromTools]);
  if (actions.length === 0) {
    throw new LangGoapError("INVALID_OPTION", `${where}: give options.actions or options.tools (at least one action to plan with)`);
  }
  const start = options.worldState ?? {};
  if (typeof start !== "object" || start === null || Array.isArray(start)) {
    throw new LangGoapError("INVALID_STATE", `${where}: options.worldState must be an object of facts, got ${describeValue(start)}`);
  }
  const interpret = createChatInterpreter(actions, options, where);
  const graphOptions = Object.fromEntries(Object.entries(options).filter(([key]) => !CHAT_ONLY_KEYS.has(key))) as GoapGraphOptions;
  const goapGraph = new GoapGraph(actions, graphOptions);
  // Compiled without a checkpointer of its own: called from a node, it uses the agent's (one thread, checkpoints per turn).
  goapGraph.compile();
  const State = chatState(start);

  /** Reads the last human message as a goal; a request that gives none is answered here and the turn ends. */
  const interpretNode = async (state: typeof State.State, config: LangGraphRunnableConfig): Promise<typeof State.Update> => {
    const last = state.messages.at(-1);
    // Only a new human message starts a turn (an input that only changes the world answers nothing).
    if (!last || !HumanMessage.isInstance(last)) return { turn: null };
    const request = last.text.trim();
    if (request === "") {
      const { report, text } = notUnderstoodReport({
        request,
        reason: "the message has no text",
        unknownFacts: [],
        knownFacts: [],
      });
      return { turn: null, messages: [reply(text, report)] };
    }
    const read = await interpret(request, state.worldState, config);
    if (!read.ok) {
      const { report, text } = notUnderstoodReport(read.why);
      return { turn: null, messages: [reply(text, report)] };
    }
    return {
      turn: { request, goal: goalToData(read.goal), conditions: read.goal.conditions as Conditions, reasoning: read.reasoning },
    };
  };

  /** Plans and runs the turn's goal on the thread's world, then reports. */
  const actNode = async (state: typeof State.State, config: LangGraphRunnableConfig): Promise<typeof State.Update> => {
    const turn = state.turn;
    if (!turn) return {};
    // The GOAP run's supersteps are not the chat turn's: it keeps its own recursion limit.
    const runConfig = { ...config, recursionLimit: Math.max(config.recursionLimit ?? 0, goapGraph.recursionLimit) };
    const result = await goapGraph.invoke(turn.goal, state.worldState, runConfig);
    const plan = goapGraph.restorePlan(result.plan);
    const { report, text } = runReport({
      request: turn.request,
      goal: turn.conditions,
      reasoning: turn.reasoning,
      worldBefore: state.worldState,
      result,
      plan: plan ? { actionNames: plan.actionNames, totalCost: plan.totalCost } : null,
    });
    return { turn: null, worldState: result.worldState, messages: [reply(text, report)] };
  };

  const compiled = new StateGraph(State, { input: CHAT_INPUT, output: CHAT_OUTPUT })
    .addNode("interpret", interpretNode)
    .addNode("act", actNode)
    .addEdge(START, "interpret")
    .addConditionalEdges("interpret", (state) => (state.turn ? "act" : END), ["act", END])
    .addEdge("act", END)
    .compile({
      ...(options.checkpointer !== undefined ? { checkpointer: options.checkpointer } : {}),
      ...(options.store ? { store: options.store } : {}),
      ...(options.name ? { name: options.name } : {}),
    })
    // As for GoapGraph: each step's checkpoint is saved before the next starts, so a finished action is never run twice.
    .withConfig({ durability: "sync" });
  // The GOAP runs write to the agent's saver: it gets the GoapGraph's limits (checkpointerTimeoutMs), also when
  // assigned later (as the LangGraph API server does) or on a withConfig copy.
  return prepareInputs(limitAssignedCheckpointers(compiled, goapGraph.checkpointerTimeoutMs), refuseWhilePaused, { goapGraph });
}

/**
 * A new message on a thread paused at an approval would start a new turn
 * and drop the paused one (LangGraph discards a pending interrupt on new
 * input): whatever its actions already did would be lost to the agent's
 * world. So it is refused, before anything is written; `Command`s (resume)
 * and `null` pass.
 */
async function refuseWhilePaused(
  graph: {
    checkpointer?: unknown;
    config?: { configurable?: Record<string, unknown> };
    getState(config: never): Promise<{ tasks: readonly { interrupts?: readonly { value?: unknown }[] }[] }>;
  },
  input: unknown,
  options: { configurable?: Record<string, unknown> } | undefined,
): Promise<unknown> {
  if (input === null || input === undefined || isCommand(input)) return input;
  const configurable = { ...graph.config?.configurable, ...options?.configurable };
  const threadId = configurable.thread_id;
  // Run as a subgraph (a checkpoint namespace, or `checkpointer: true`), the agent's thread is its parent's to check.
  if (typeof graph.checkpointer !== "object" || threadId === undefined || configurable.checkpoint_ns) return input;
  const snapshot = await graph.getState({ configurable } as never);
  const waiting = snapshot.tasks.flatMap((task) => task.interrupts ?? []).map((i) => i.value);
  if (waiting.length === 0) return input;
  const what = waiting.map((value) => {
    const action = (value as { action?: unknown } | null)?.action;
    return typeof action === "string" ? `approval of "${action}"` : "a human's answer";
  });
  throw new LangGoapError(
    "THREAD_PAUSED",
    `createGoapChatAgent: thread ${describeValue(threadId)} waits for ${what.join(", ")}; resume it with invoke(new Command({ resume: answer }), config) before sending a new message`,
    { threadId, waitingFor: waiting },
  );
}

/** A chat agent built by {@link createGoapChatAgent}. */
export type CompiledGoapChatAgent = ReturnType<typeof createGoapChatAgent>;

function reply(text: string, report: GoapChatReport): AIMessage {
  return new AIMessage({ content: text, additional_kwargs: { [GOAP_CHAT_REPORT_KEY]: report } });
}
