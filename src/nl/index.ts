export { collectFacts, collectResourceKeys, describeFactType, type FactInfo, type FactInventory } from "./fact-inventory.js";
export { GoalInterpreter, type GoalInterpreterOptions, type InterpretationResult } from "./goal-interpreter.js";
export { buildGoalSchema, type InterpretedConstraint, type InterpretedGoal, type InterpretedObjective } from "./goal-schema.js";
export { type AnswerCheck, type AnswerProblem, checkAnswer, interpretedToGoalSpec } from "./interpreted-goal.js";
export {
  KeywordGoalInterpreter,
  type KeywordGoalInterpreterOptions,
  type KeywordInterpretation,
  type KeywordMatch,
} from "./keyword-interpreter.js";
export { DEFAULT_GOAL_SYSTEM_PROMPT, type GoalExample, renderActionCatalog, renderFactCatalog } from "./prompt.js";
export { DEFAULT_CONDITION_PROMPT, PromptConditionResolver, type PromptConditionResolverOptions } from "./prompt-condition-resolver.js";
export { DEFAULT_MODEL_TIMEOUT_MS, isTransientProviderError, type ProviderRetryOptions } from "./provider-call.js";
export type { StructuredOutputOptions } from "./structured-call.js";
