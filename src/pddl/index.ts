export type {
  PddlActionSchema,
  PddlAtom,
  PddlCost,
  PddlDomain,
  PddlGroundAtom,
  PddlLiteral,
  PddlParameter,
  PddlProblem,
  PddlTerm,
} from "./ast.js";
export { type GroundOperator, type GroundOptions, type GroundTask, groundPddl } from "./ground.js";
export { factKey, type LoadPddlOptions, loadPddl, type PddlExecutor, type PddlGroundingStats, type PddlTask } from "./load-pddl.js";
export { parsePddlDomain, SUPPORTED_REQUIREMENTS } from "./parse-domain.js";
export { parsePddlProblem } from "./parse-problem.js";
