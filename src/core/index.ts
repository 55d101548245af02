export {
  type ActionContext,
  type ActionRunConfig,
  ActionSpec,
  type ActionSpecOptions,
  type CostFunction,
  type EffectValidator,
  type ExecuteFunction,
  validateActions,
} from "./action.js";
export { type ConditionResolver, ConditionStatus, toConditionStatus } from "./condition-status.js";
export {
  CONDITION_OPERATORS,
  type Condition,
  type ConditionOperatorName,
  type ConditionOperators,
  type Conditions,
  formatCondition,
  isNumericCondition,
  isOperatorCondition,
  normalizeConditions,
  satisfiesConditions,
  testCondition,
  unsatisfiedKeys,
} from "./conditions.js";
export {
  type CallWithinOptions,
  callWithin,
  checkTimeout,
  DEFAULT_HOOK_TIMEOUT_MS,
  DEFAULT_OBSERVER_TIMEOUT_MS,
  type DeadlineOptions,
  type HookContext,
  isTimeoutError,
  settleWithin,
  timeoutError,
} from "./deadline.js";
export { type DisplayTextOptions, displayText, escapeControlChars, truncateText } from "./display-text.js";
export { type Domain, domainSchema, type LoadDomainOptions, loadDomain, validateDomain } from "./domain.js";
export { checkJsonData, type DataFormat, formatOfName, parseDataText } from "./domain-text.js";
export {
  EFFECT_OPERATORS,
  type Effect,
  type EffectFunction,
  type EffectOperators,
  type Effects,
  formatEffect,
  isOperatorEffect,
  normalizeEffects,
  resolveEffect,
} from "./effects.js";
export { describeValue, LangGoapError, type LangGoapErrorCode } from "./errors.js";
export { applyFactBounds } from "./fact-bounds.js";
export type { EffectUpdatesOf, FactKey } from "./fact-keys.js";
export { type CompiledFacts, compileFacts, type FactDeclaration, type FactsDefinition, type FactsOf } from "./fact-schema.js";
export type { ConditionsOf, EffectsOf, FactCondition, FactEffect } from "./fact-types.js";
export { type Fact, type FactCatalog, type FactSpec, type FactType, factOf, isFact, type WorldState } from "./facts.js";
export { frozenCopy } from "./frozen-copy.js";
export {
  type ActionFilter,
  ConstraintSpec,
  type ConstraintSpecOptions,
  type GoalLike,
  type GoalObject,
  GoalPolicy,
  type GoalPolicyOptions,
  GoalSpec,
  type GoalSpecOptions,
  type GoalValue,
  MultiGoal,
  type MultiGoalMode,
  type MultiGoalOptions,
  type ObjectiveDirection,
  type ObjectiveSpec,
  type PerEntityOptions,
  type PlanQualityMetric,
  type PlanTrajectory,
  type ReplanStrategy,
  SoftGoal,
  type SoftGoalOptions,
  toGoalSpec,
} from "./goal.js";
export { GoapAction } from "./goap-action.js";
export { checkStateValues, findNonJsonValue, MAX_VALUE_DEPTH, type NonJsonValue } from "./json-value.js";
export { MAX_ACTION_COST, MAX_NESTING_DEPTH } from "./limits.js";
export { CONSOLE_LOGGER, type GoapLogger, getLogLevel, type LogLevel, type LogThreshold, setLogLevel } from "./log.js";
export { checkFactName, isPlainRecord, RESERVED_FACT_NAMES, unsafeNameReason } from "./names.js";
export { equalitySlack, factsEqual, NUMERIC_EQUALITY_TOLERANCE, numbersEqual } from "./numeric-equality.js";
export { type EntityId, entitiesIn } from "./per-entity.js";
export { type PromptDataOptions, promptDataBlock } from "./prompt-data.js";
export { ActionQos, type ActionQosOptions, DEFAULT_RETRY_POLICY, FIRE_ONCE, type RetryableErrors } from "./qos.js";
export { createRng, isRng, mulberry32Step, type Rng } from "./rng.js";
export {
  BendableScore,
  bestScore,
  compareScores,
  HardSoftScore,
  isBetterScore,
  type Score,
  type ScoreJson,
  SimpleScore,
  scoreFromJson,
  scoreToJson,
} from "./score.js";
export {
  callTracer,
  type PlanningTracer,
  runInTracerScope,
  type SearchExpandEvent,
  TRACER_HOOKS,
  type TraceRun,
  tracerForRun,
} from "./tracer.js";
