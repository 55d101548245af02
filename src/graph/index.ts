export { CONSOLE_LOGGER, type GoapLogger } from "../core/index.js";
export { FunctionalConditionResolver, type ResolveConditionsOptions, resolveConditions } from "./conditions.js";
export {
  type DefineDomainOptions,
  defineDomain,
  type TypedDomain,
  type TypedMultiGoalOptions,
  type TypedPlan,
} from "./define-domain.js";
export { DEFAULT_ACTION_TIMEOUT_MS, GoapExecutor, type GoapExecutorOptions } from "./executor.js";
export { type GoalData, type GoalInput, GoalRegistry, type GoalSpecData, goalToData, isGoalData, type MultiGoalData } from "./goal-data.js";
export { GoapGraph } from "./goap-graph.js";
export {
  DEFAULT_GOAP_RECURSION_LIMIT,
  type GoapCompileOptions,
  type GoapGraphOptions,
  type GoapNodeName,
  type InvokeNlOptions,
  type RecoverOptions,
} from "./graph-options.js";
export {
  type ActionGuard,
  FunctionalGuard,
  type GuardResult,
  GuardSeverity,
  hasBlockingFailure,
  type NamedGuardResult,
  type RunGuardsOptions,
  runGuards,
} from "./guards.js";
export {
  computeGoalHash,
  type ExecutionHistory,
  type ExecutionRecord,
  type HistoryPage,
  type HistoryPageOptions,
  type HistoryStep,
  MAX_HISTORY_PAGE,
  type SqliteDatabase,
  type SqliteStatement,
  SqliteStore,
  type SqliteStoreOptions,
  type StepBlock,
  StoreExecutionHistory,
  type StoreExecutionHistoryOptions,
} from "./history/index.js";
export type { ApprovalRequest, ApprovalResponse, FormRequest, HumanRequest } from "./human-approval.js";
export { type ExecutorTarget, GoapObserver, type GoapObserverOptions, type ObserverTarget, routeAfterObserver } from "./observer.js";
export { ParallelGoapExecutor } from "./parallel-executor.js";
export {
  bindAction,
  expectedStatesOf,
  type PlanData,
  type PlanStepChange,
  planFromData,
  planToData,
  type ScoreData,
} from "./plan-data.js";
export { loadPlan, savePlan } from "./plan-files.js";
export { DEFAULT_PLANNING_TIMEOUT_MS, GoapPlanner, type GoapPlannerOptions } from "./planner.js";
export { type ExecutionTransitionModel, type Sleep, timerSleep } from "./run-action.js";
export { GOAP_RUN_INPUT_SCHEMA, GOAP_RUN_OUTPUT_SCHEMA } from "./run-schemas.js";
export type { GoapNodeOptions } from "./runtime.js";
export {
  DEFAULT_SENSOR_TIMEOUT_MS,
  FunctionalSensor,
  type RunSensorsOptions,
  runSensors,
  type Sensor,
  type SensorContext,
  type SensorUpdates,
} from "./sensors.js";
export { compileServedGraph, type ServedGoapGraph, type ServedGraphOptions } from "./served-graph.js";
export {
  type ActionFailureKind,
  type ActionResult,
  type AwaitingHuman,
  type GoapState,
  type GoapStateAnnotation,
  type GoapStateUpdate,
  type GoapStatus,
  successfulActionNames,
  TERMINAL_STATUSES,
} from "./state.js";
export type { CompiledGoapGraph, GoapRunResult, GoapStateGraph, GoapStreamOptions } from "./state-graph.js";
export type { GoapStreamEvent } from "./stream-events.js";
export {
  FunctionalStuckHandler,
  MulticastStuckHandler,
  type StuckHandler,
  StuckHandlerResult,
  StuckHandlingResultCode,
} from "./stuck.js";
export {
  AllOfPolicy,
  type EarlyTermination,
  FirstOfPolicy,
  MaxActionsPolicy,
  MaxCostPolicy,
  MaxLLMCallsPolicy,
  MaxTokensPolicy,
  MaxWallClockPolicy,
  OnStuckPolicy,
  type TerminationPolicy,
} from "./termination.js";
export type { ThreadRun } from "./thread-history.js";
export { DEFAULT_CHECKPOINTER_TIMEOUT_MS } from "./time-limited-checkpointer.js";
export { dependsOn, nextWave, planDependencies } from "./waves.js";
