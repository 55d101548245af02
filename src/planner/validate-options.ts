/**
 * Checks a planning call's options before any work: a bad heuristic name,
 * weight or budget is a coded error naming the field, never a silent default.
 * @internal
 */

import { describeValue, LangGoapError } from "../core/errors.js";
import { checkBudget } from "./budget.js";
import { HEURISTIC_NAMES, isHeuristicName } from "./heuristics/registry.js";
import type { PlanOptions } from "./plan-options.js";

/** Throws `INVALID_OPTION` naming the first bad field of `options`. */
export function validateOptions(options: PlanOptions): void {
  const bad = (field: string, expected: string, value: unknown) =>
    new LangGoapError("INVALID_OPTION", `plan options: ${field} must be ${expected}, got ${describeValue(value)}`, { field, value });
  if (options.heuristic !== undefined && !isHeuristicName(options.heuristic)) {
    throw bad("heuristic", `one of ${HEURISTIC_NAMES.join(", ")}`, options.heuristic);
  }
  if (options.weight !== undefined && !(options.weight >= 1 && Number.isFinite(options.weight)))
    throw bad("weight", "a finite number >= 1", options.weight);
  checkBudget(options, "plan options");
}
