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
export { type LoadPddlOptions, loadPddl, type PddlExecutor, type PddlGroundingStats, type PddlTask } from "./load-pddl.js";
export { PDDL_REQUIREMENTS, parsePddlDomain } from "./parse-domain.js";
export { parsePddlProblem } from "./parse-problem.js";
