export { GoapAgent } from "./agent.js";
export type { GoapAgentOptions } from "./agent-options.js";
export type {
  ActionBehaviour,
  ActionOutcome,
  ActionTickContext,
  AgentHookName,
  AgentStatus,
  ExitReason,
  GoapAgentEvents,
  TickSensor,
  TickSensorLike,
} from "./agent-types.js";
export {
  UtilityBrain,
  type UtilityBrainEvents,
  type UtilityBrainOptions,
  type UtilityChange,
} from "./brain.js";
export {
  ActionNode,
  type ActionNodeOptions,
  BehaviourTree,
  type BehaviourTreeEvents,
  type BehaviourTreeOptions,
  type BtDuration,
  type BtElapsed,
  type BtHookName,
  BtNode,
  type BtNodeStatus,
  type BtStatus,
  type BtTickContext,
  type CompositeOptions,
  ConditionNode,
  type ConditionNodeOptions,
  Cooldown,
  type CooldownOptions,
  type DecoratorOptions,
  Inverter,
  Parallel,
  type ParallelOptions,
  type ParallelThreshold,
  PlanNode,
  type PlanNodeOptions,
  Repeat,
  type RepeatOptions,
  Selector,
  Sequence,
  Timeout,
  type TimeoutOptions,
  type UtilityChild,
  type UtilitySelection,
  UtilitySelector,
  type UtilitySelectorOptions,
} from "./bt/index.js";
export { type Blackboard, Consideration, type ConsiderationOptions } from "./consideration.js";
export { CURVE_TYPES, type CurvePoint, type CurveType, ResponseCurve, type ResponseCurveOptions } from "./curve.js";
export { cutOff } from "./cut-off.js";
export { TypedEmitter, type TypedListener, type Unsubscribe } from "./emitter.js";
export {
  brainGoalSelector,
  type GoalDecision,
  type GoalSelectionContext,
  type GoalSelector,
  type StupGoalSelectorOptions,
  stupGoalSelector,
} from "./goal-selectors.js";
export { type AsyncPlanner, type CachedPlanResult, PlanCache, type PlanCacheOptions, type PlanCacheStats } from "./plan-cache.js";
export type { ActionScore, UtilityEvaluation } from "./score-actions.js";
export {
  formatStupTable,
  type SatisfiedGoalPolicy,
  type StupEvaluation,
  type StupGoal,
  type StupGoalOptions,
  type StupRow,
  type StupSelection,
  StupSelector,
  type StupSelectorOptions,
  type StupStatus,
} from "./stup.js";
export {
  type ActionScoreBreakdown,
  type ConsiderationScore,
  type ScoreOptions,
  type ScoringMode,
  UtilityAction,
  type UtilityActionOptions,
} from "./utility-action.js";
