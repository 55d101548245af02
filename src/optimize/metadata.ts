import type { CSPMetadata } from "../planner/index.js";
import type { DependencyGraph } from "./dependencies.js";
import type { InfeasibilityExplanation } from "./explain.js";
import type { ConstraintViolation } from "./validate.js";

/**
 * The CSP metadata this folder attaches to plans (`plan.metadata.csp`):
 * the planner's {@link CSPMetadata} plus details worth keeping.
 */
export interface OptimizeMetadata extends CSPMetadata {
  /** Hard and soft violations of the plan, in the goal's constraint order. */
  readonly violations?: readonly ConstraintViolation[];
  /** Present when the plan misses a hard constraint. */
  readonly explanation?: InfeasibilityExplanation;
  /** The optimum of each lexicographic level of the selection, in order. */
  readonly levelValues?: readonly number[];
  /** The schedule's precedence graph (step -> steps it waits for). */
  readonly dependencies?: DependencyGraph;
  /** The makespan can be no shorter than this. */
  readonly lowerBoundMs?: number;
  /** Status of the scheduling pass, when it differs in meaning from the selection's. */
  readonly scheduleStatus?: CSPMetadata["status"];
  /** Why a status is not `optimal`/`feasible`, or what was approximated. */
  readonly message?: string;
}
