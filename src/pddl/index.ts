export type {
  PddlActionSchema,
  PddlAtom,
  PddlCondition,
  PddlCost,
  PddlDomain,
  PddlEffect,
  PddlGroundAtom,
  PddlLiteral,
  PddlParameter,
  PddlProblem,
  PddlTerm,
} from "./ast.js";
export { findPddlDomainFile, listPddlProblems } from "./find-domain-file.js";
export { type LoadPddlOptions, loadPddl, type PddlExecutor, type PddlGroundingStats, type PddlTask } from "./load-pddl.js";
export { parsePddlDomain } from "./parse-domain.js";
export { parsePddlProblem } from "./parse-problem.js";
export { PDDL_REQUIREMENTS } from "./requirements.js";
