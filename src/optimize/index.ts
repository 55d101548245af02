/**
 * Constraint optimisation: plans refined by a real MILP solver. Budgets and
 * preferences (validate), schedules with resource capacities (RCPSP),
 * lexicographic selection among the k cheapest plans, Pareto frontiers,
 * infeasibility explanations, and the two-phase pipeline strategy the
 * graph routes constrained goals through.
 */
export { type EnumerateOptions, enumeratePlans } from "./alternatives.js";
export { type BuilderOutput, ConstraintBuilder, ConstraintChain } from "./constraint-builder.js";
export { type CSPRefinementOptions, CSPRefinementStrategy } from "./csp-refinement-strategy.js";
export {
  buildDependencyGraph,
  type CriticalPath,
  criticalPath,
  type DependencyGraph,
  type DependencyMode,
  type DependencyOptions,
} from "./dependencies.js";
export {
  type EvaluateOptions,
  evaluatePlan,
  type ObjectiveMode,
  type PlanEvaluation,
  scoreFromEvaluation,
} from "./evaluate.js";
export { type ExplainOptions, explainInfeasibility, type InfeasibilityExplanation, type ResourceShortfall } from "./explain.js";
export { HighsSolver, type HighsSolverOptions } from "./highs-solver.js";
export { JsLpSolver, type JsLpSolverOptions } from "./jslp-solver.js";
export { type LexicographicOptions, type LexicographicResult, solveLexicographic } from "./lexicographic.js";
export type { OptimizeMetadata } from "./metadata.js";
export {
  finalStateMetric,
  type MetricOptions,
  makespanMetric,
  planLengthMetric,
  type RiskMetricOptions,
  resourceTotalMetric,
  riskMetric,
  type StateExpression,
  totalCostMetric,
  trajectoryMaxMetric,
  trajectorySumMetric,
} from "./metrics.js";
export {
  type ConstraintBounds,
  findViolation,
  type LinearExpression,
  type LinearTerm,
  type MilpConstraint,
  type MilpModel,
  MilpModelBuilder,
  type MilpObjective,
  type MilpVariable,
  type VariableOptions,
} from "./model.js";
export { type ParetoOptions, paretoPlans } from "./pareto.js";
export { type PipelineOptions, pipelinePlan, pipelinePlanDetailed } from "./pipeline.js";
export { type RefineOptions, refinePlan } from "./refine.js";
export { type ScheduleOptions, type ScheduleResult, schedulePlan } from "./schedule.js";
export { type OptimizeOptions, optimizePlans } from "./select.js";
export {
  DEFAULT_TIME_LIMIT_MS,
  type MilpResult,
  type MilpSolveOptions,
  type MilpSolver,
  type MilpStatus,
  type SolverChoice,
  type SolverName,
} from "./solver-types.js";
export { type CreateSolverOptions, createSolver } from "./solvers.js";
export { type TwoPhasePipelineOptions, TwoPhasePipelineStrategy } from "./strategies.js";
export { DERIVED_METRICS, type PlanTotalOptions, planTotal } from "./totals.js";
export { type ConstraintViolation, type ValidationReport, validatePlan } from "./validate.js";
