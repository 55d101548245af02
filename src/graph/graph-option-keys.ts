import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import type { OptionKeys } from "../core/option-keys.js";
import type { GoapCompileOptions, GoapGraphOptions, InvokeNlOptions, RecoverOptions } from "./graph-options.js";
import type { GoapStreamOptions } from "./state-graph.js";

/** @internal The options `new GoapGraph()` knows. */
export const GRAPH_OPTION_KEYS = {
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
} as const satisfies OptionKeys<GoapGraphOptions>;

/** @internal The options `compile()` knows. */
export const COMPILE_OPTION_KEYS = {
  checkpointer: true,
  store: true,
  interruptBefore: true,
  interruptAfter: true,
  name: true,
} as const satisfies OptionKeys<GoapCompileOptions>;

/** @internal The keys of a LangGraph run config (`invoke`, `resume`, `recover`, `threadHistory`). */
export const RUN_CONFIG_KEYS = {
  runName: true,
  tags: true,
  metadata: true,
  callbacks: true,
  runId: true,
  configurable: true,
  recursionLimit: true,
  maxConcurrency: true,
  timeout: true,
  signal: true,
  context: true,
  store: true,
  writer: true,
  interrupt: true,
  heartbeat: true,
  executionInfo: true,
  serverInfo: true,
  control: true,
} as const satisfies OptionKeys<LangGraphRunnableConfig>;

/** @internal The keys of a LangGraph stream config (`stream`): a run config's and the stream's own. */
export const STREAM_CONFIG_KEYS = {
  ...RUN_CONFIG_KEYS,
  streamMode: true,
  inputKeys: true,
  outputKeys: true,
  interruptBefore: true,
  interruptAfter: true,
  debug: true,
  subgraphs: true,
  checkpointDuring: true,
  durability: true,
  cache: true,
  encoding: true,
} as const satisfies OptionKeys<GoapStreamOptions>;

/** @internal The options `invokeNl()` knows. */
export const INVOKE_NL_OPTION_KEYS = { llm: true, interpreter: true, config: true } as const satisfies OptionKeys<InvokeNlOptions>;

/** @internal The options `recover()` knows. */
export const RECOVER_OPTION_KEYS = { takeOver: true } as const satisfies OptionKeys<RecoverOptions>;
