/**
 * Checks a planning call's options before any work: a bad heuristic name,
 * weight or budget is a coded error naming the field, never a silent default.
 * @internal
 */

import { describeValue, LangGoapError } from "../core/errors.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { checkBudget } from "./budget.js";
import { HEURISTIC_NAMES, isHeuristicName } from "./heuristics/registry.js";
import { type PlanOptions, PRUNING_NAMES } from "./plan-options.js";

const PLAN_OPTIONS_KEYS = {
  heuristic: true,
  weight: true,
  maxExpansions: true,
  maxNodes: true,
  timeBudgetMs: true,
  signal: true,
  blacklisted: true,
  blacklistFallback: true,
  tracer: true,
  recordExpansions: true,
  prune: true,
  relevance: true,
  pruning: true,
} as const satisfies OptionKeys<PlanOptions>;

/** Throws `INVALID_OPTION` naming the first bad field of `options`. */
export function validateOptions(options: PlanOptions): void {
  checkOptionKeys(options, PLAN_OPTIONS_KEYS, "plan()");
  const bad = (field: string, expected: string, value: unknown) =>
    new LangGoapError("INVALID_OPTION", `plan options: ${field} must be ${expected}, got ${describeValue(value)}`, { field, value });
  if (options.heuristic !== undefined && !isHeuristicName(options.heuristic)) {
    throw bad("heuristic", `one of ${HEURISTIC_NAMES.join(", ")}`, options.heuristic);
  }
  if (options.weight !== undefined && !(options.weight >= 1 && Number.isFinite(options.weight)))
    throw bad("weight", "a finite number >= 1", options.weight);
  if (options.pruning !== undefined && !(PRUNING_NAMES as readonly unknown[]).includes(options.pruning))
    throw bad("pruning", `one of ${PRUNING_NAMES.join(", ")}`, options.pruning);
  checkBudget(options, "plan options");
}
