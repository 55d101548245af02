export { type AgentModel, UniformRandomAgentModel, type UniformRandomAgentModelOptions, type WeightedMove } from "./agent-model.js";
export { plan, planAsync, planDetailed, planDetailedAsync, YIELD_EVERY_MS } from "./astar.js";
export {
  AGENT_PLAN_BUDGET,
  type BudgetExhaustion,
  type BudgetLimit,
  type BudgetOptions,
  DEFAULT_MAX_NODES,
  DEFAULT_SEARCH_MEMORY_BYTES,
  DEFAULT_TIME_BUDGET_MS,
} from "./budget.js";
export { planningKeys } from "./compile.js";
export { ESCALATE_AFTER } from "./default-heuristic-policy.js";
export { assertExpectedMatchesDeclared, checkExpectedAgainstDeclared, type Deviation, type DivergenceCheck } from "./divergence.js";
export { type DivergenceKind, DivergencePolicy, type DivergencePolicyOptions } from "./divergence-policy.js";
export { explainNoPlan } from "./explain.js";
export { type ExternalAgent, ExternalAgentsTransitionModel, type ExternalAgentsTransitionModelOptions } from "./external-agents.js";
export { type ExtractFeaturesOptions, extractFeatures, type ProblemFeatures, type RiskProfile } from "./features.js";
export type { HeuristicName } from "./heuristics/registry.js";
export { type InferredStartState, type InferStartStateOptions, inferStartState } from "./infer-start-state.js";
export {
  type CSPMetadata,
  type CSPStatus,
  Plan,
  type PlanInit,
  type PlanMetadata,
  type ResourceUsage,
  type ScheduleEntry,
} from "./plan.js";
export { type DeserializePlanOptions, deserializePlan, type SerializedPlan, serializePlan } from "./plan-file.js";
export { type PlanOptions, PRUNING_NAMES, type PruningName } from "./plan-options.js";
export { assertValidPlan, prunePlan, type Replay, replayPlan } from "./replay.js";
export {
  type OutcomeDistribution,
  type OutcomeEffects,
  StochasticTransitionModel,
  type StochasticTransitionModelOptions,
  slipOutcomes,
  type TransitionOutcome,
} from "./stochastic-transitions.js";
export { AnytimePlanningStrategy, type AnytimePlanningStrategyOptions } from "./strategies/anytime.js";
export { AStarStrategy, type AStarStrategyOptions } from "./strategies/astar-strategy.js";
export { BasePlanningStrategy, type ContextPlanOptions, contextPlanOptions } from "./strategies/base.js";
export {
  RuleBasedClassifier,
  type RuleBasedClassifierOptions,
  type RuleBasedStrategyName,
  runClassifier,
  type StrategyClassifier,
} from "./strategies/classifier.js";
export { LazyDecompositionStrategy, type LazyDecompositionStrategyOptions } from "./strategies/lazy.js";
export type { StateOptions, WeightedState } from "./strategies/mcts/analysis.js";
export { DEAD_END_REWARD, GOAL_REWARD, type ScalarHeuristic } from "./strategies/mcts/evaluate.js";
export type { ExtractionSource } from "./strategies/mcts/extract.js";
export type { MCTSStrategyOptions } from "./strategies/mcts/options.js";
export type { MctsStopReason } from "./strategies/mcts/result.js";
export { HeuristicRollout, RandomRollout, type RolloutContext, type RolloutPolicy, StochasticRollout } from "./strategies/mcts/rollouts.js";
export { MCTSStrategy } from "./strategies/mcts/strategy.js";
export { type NodeStatistics, recordReturn, ucb1 } from "./strategies/mcts/ucb1.js";
export { type RepairOptions, type RepairResult, RepairStrategy, type RepairStrategyOptions, repairPlan } from "./strategies/repair.js";
export { StrategyRouter, type StrategyRouterOptions } from "./strategies/router.js";
export { planWithStatus } from "./strategies/strategy-result.js";
export {
  isNirvana,
  NIRVANA_NAME,
  NirvanaGoal,
  type NirvanaGoalOptions,
  UtilityStrategy,
  type UtilityStrategyOptions,
} from "./strategies/utility-strategy.js";
export {
  DETERMINISTIC_MODEL,
  DeterministicTransitionModel,
  expectedSuccessor,
  isStochasticModel,
  type ResolvedOutcome,
  sampledSuccessor,
  type TransitionModel,
} from "./transitions.js";
export type {
  NoPlanExplanation,
  PlanDetailedResult,
  PlanningStrategy,
  SearchRecord,
  SearchStats,
  SearchStatus,
  StrategyContext,
  StrategyResult,
} from "./types.js";
