import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseCheckpointSaver, BaseStore, LangGraphRunnableConfig } from "@langchain/langgraph";
import type { ConditionResolver, GoalSpec, MultiGoal, PlanningTracer } from "../core/index.js";
import type { GoalInterpreterOptions } from "../nl/index.js";
import type { PlanningStrategy } from "../planner/index.js";
import type { ActionGuard } from "./guards.js";
import type { ExecutionHistory } from "./history/index.js";
import type { GoapLogger } from "./logger.js";
import type { ExecutionTransitionModel, Sleep } from "./run-action.js";
import type { Sensor } from "./sensors.js";
import type { StuckHandler } from "./stuck.js";
import type { TerminationPolicy } from "./termination.js";

export { DEFAULT_GOAP_RECURSION_LIMIT } from "./run-limit.js";

/** Options of {@link GoapGraph}. */
export interface GoapGraphOptions {
  /** Plans every goal. @defaultValue A* for plain goals, `pipelineStrategy` for goals with constraints, objectives or metrics */
  readonly strategy?: PlanningStrategy;
  /** Plans goals with constraints, objectives or metrics when no `strategy` is given. @defaultValue a `TwoPhasePipelineStrategy` */
  readonly pipelineStrategy?: PlanningStrategy;
  /** Receives planning and execution events; never breaks a run. */
  readonly tracer?: PlanningTracer;
  /** Where warnings go (guard warnings, swallowed failures). @defaultValue console warnings */
  readonly logger?: GoapLogger;
  /**
   * Receives an execution record at every terminal state; failures are
   * logged and swallowed. Without one, a graph that runs with a LangGraph
   * store (`compile({ store })`, or the platform's store on the LangGraph
   * API server) records to a `StoreExecutionHistory` on that store
   * under `["langgoap"]`; `false` records nowhere.
   * @defaultValue the run's store, if any
   */
  readonly history?: ExecutionHistory | false;
  /** Observe the world before each planning round. @defaultValue [] */
  readonly sensors?: readonly Sensor[];
  /** Decide boolean facts before each planning round. @defaultValue [] */
  readonly resolvers?: readonly ConditionResolver[];
  /** Checks before each action. @defaultValue [] */
  readonly guards?: readonly ActionGuard[];
  /** Consulted when no plan is found. @defaultValue [] */
  readonly stuckHandlers?: readonly StuckHandler[];
  /** @defaultValue 3 */
  readonly maxStuckIterations?: number;
  /** Consulted before every routing decision. @defaultValue [] */
  readonly terminationPolicies?: readonly TerminationPolicy[];
  /** Samples outcomes of actions whose `execute` returns nothing. @defaultValue the declared effects */
  readonly transitionModel?: ExecutionTransitionModel;
  /** Run independent plan steps concurrently (`ParallelGoapExecutor`). @defaultValue false */
  readonly parallel?: boolean;
  /** Seed of the run's generator (QoS jitter, sampled outcomes). @defaultValue 0 */
  readonly seed?: number;
  /** How QoS backoff waits; replace it to test without waiting. @defaultValue a `setTimeout` sleep */
  readonly sleep?: Sleep;
  /** Clock in epoch ms. @defaultValue Date.now */
  readonly now?: () => number;
  /**
   * A run's superstep allowance beyond twice its plan's length: past it the
   * run ends `terminated` with reason `recursion_limit` (and its history), so
   * plans of any length run to their end and LangGraph never throws
   * `GraphRecursionError` (compiled graphs carry no LangGraph limit of their own).
   * @defaultValue {@link DEFAULT_GOAP_RECURSION_LIMIT}
   */
  readonly recursionLimit?: number;
  /** Goals with function parts (value, metrics, filters) that runs restored from checkpoints may carry. @defaultValue [] */
  readonly goals?: readonly (GoalSpec | MultiGoal)[];
  /** Send search events to the tracer. @defaultValue false */
  readonly recordExpansions?: boolean;
  /**
   * Time limit in ms of one attempt of an action whose `qos.timeoutMs` is
   * unset (`Infinity` for none); a timed-out attempt fails as `timeout`.
   * @defaultValue 300000 (5 minutes, `DEFAULT_ACTION_TIMEOUT_MS`)
   */
  readonly actionTimeoutMs?: number;
  /**
   * Time limit in ms of one reading of a sensor without its own `timeoutMs`
   * (`Infinity` for none); a timed-out sensor is skipped with a warning.
   * @defaultValue 30000 (`DEFAULT_SENSOR_TIMEOUT_MS`)
   */
  readonly sensorTimeoutMs?: number;
  /**
   * Time limit in ms of each tracer hook (and of a tracer's action scope
   * beyond the action itself) and of the history store's `record`
   * (`Infinity` for none). A tracer that exceeds it is dropped for the rest
   * of the run with a warning; a `record` that exceeds it is abandoned with
   * a warning.
   * @defaultValue 5000 (`DEFAULT_OBSERVER_TIMEOUT_MS`)
   */
  readonly observerTimeoutMs?: number;
  /**
   * Time limit in ms of each call of a deciding hook: a termination
   * policy, a guard, a stuck handler, a condition resolver, an effect
   * validator, the transition model's `sample` (`Infinity` for none). The
   * hook's `context.signal` aborts at the limit, and a late answer counts
   * as the hook's failure: the policy is skipped, the guard warns, the
   * handler does not resolve, the resolver says unknown (each with a
   * warning naming it); the validator fails the action
   * (`validation_failed`), the sample fails it as `timeout`.
   * @defaultValue 30000 (`DEFAULT_HOOK_TIMEOUT_MS`)
   */
  readonly hookTimeoutMs?: number;
  /**
   * Time limit in ms of one call of the planning strategy (`Infinity` for
   * none): its `context.signal` aborts at the limit, and a strategy that
   * has not answered by then (a custom one that ignores its signal) ends
   * the run `budget_exhausted`, the explanation naming it.
   * @defaultValue 60000 (`DEFAULT_PLANNING_TIMEOUT_MS`, above the built-in searches' 10 s default budget)
   */
  readonly planningTimeoutMs?: number;
  /**
   * Time limit in ms of each call the run waits on the checkpointer for
   * (`getTuple`, `put`, `putWrites`, `deleteThread`; LangGraph's step
   * checkpoints and the step claims), `Infinity` for none. A call still
   * pending then fails the run with a `TIMEOUT` error naming the method
   * and the thread; continue it with `graph.recover(config)`.
   * @defaultValue 30000 (`DEFAULT_CHECKPOINTER_TIMEOUT_MS`)
   */
  readonly checkpointerTimeoutMs?: number;
}

/** Options of `GoapGraph.recover`. */
export interface RecoverOptions {
  /**
   * Take the run over even from a recovery whose process may still run:
   * the caller knows it has stopped. Needed only when that recovery ran on
   * another host (a process on this host is seen to have stopped) or could
   * not save its end.
   * @defaultValue false
   */
  readonly takeOver?: boolean;
}

/** Options of `GoapGraph.compile`, passed through to LangGraph. */
export interface GoapCompileOptions {
  readonly checkpointer?: BaseCheckpointSaver | boolean;
  readonly store?: BaseStore;
  readonly interruptBefore?: readonly GoapNodeName[] | "*";
  readonly interruptAfter?: readonly GoapNodeName[] | "*";
  /** Name of the compiled graph (LangGraph's run name). */
  readonly name?: string;
}

/** Options of `GoapGraph.invokeNl`. */
export interface InvokeNlOptions {
  /** The chat model that turns the request into a goal. */
  readonly llm: BaseChatModel;
  /** Options of the `GoalInterpreter` (prompt, examples, facts, structured-output settings). */
  readonly interpreter?: GoalInterpreterOptions;
  /** LangGraph config of the run (thread_id, callbacks, ...). */
  readonly config?: LangGraphRunnableConfig;
}

/** The three nodes of a GOAP graph. */
export type GoapNodeName = "planner" | "executor" | "observer";
