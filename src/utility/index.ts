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
  type ActionScore,
  UtilityBrain,
  type UtilityBrainEvents,
  type UtilityBrainOptions,
  type UtilityChange,
  type UtilityEvaluation,
} from "./brain.js";
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
export { type CachedPlanResult, PlanCache, type PlanCacheOptions, type PlanCacheStats } from "./plan-cache.js";
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
