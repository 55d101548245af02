/** @internal Turning raw back-end output into a verified {@link MilpResult}. */
import { describeValue, LangGoapError } from "../core/errors.js";
import { evaluateTerms, findViolation, type MilpModel } from "./model.js";
import { DEFAULT_TIME_LIMIT_MS, type MilpResult, type MilpSolveOptions, type MilpStatus } from "./solver-types.js";

/** @internal Validates and resolves the time limit of one solve. */
export function resolveTimeLimit(options: MilpSolveOptions | undefined, fallback = DEFAULT_TIME_LIMIT_MS): number {
  const limit = options?.timeLimitMs ?? fallback;
  if (typeof limit !== "number" || !Number.isFinite(limit) || limit <= 0) {
    throw new LangGoapError("INVALID_OPTION", `solver timeLimitMs must be a finite number > 0, got ${describeValue(limit)}`, {
      timeLimitMs: limit,
    });
  }
  return limit;
}

/** @internal A result without a solution. */
export function failedResult(
  status: Exclude<MilpStatus, "optimal" | "feasible">,
  solver: string,
  started: number,
  message?: string,
): MilpResult {
  return Object.freeze({
    status,
    values: Object.freeze({}),
    objective: null,
    solver,
    solveTimeMs: performance.now() - started,
    ...(message !== undefined ? { message } : {}),
  });
}

/**
 * @internal Cleans and verifies a raw solution. Integer variables within
 * 1e-6 of an integer are snapped to it (HiGHS reports 448.0000000000001);
 * anything still fractional, out of bounds or violating a row turns the
 * result into status `error`, so a back-end's relaxation or garbage is never
 * reported as a solution.
 */
export function verifiedResult(
  model: MilpModel,
  raw: ArrayLike<number>,
  claimed: "optimal" | "feasible",
  solver: string,
  started: number,
  message?: string,
): MilpResult {
  const values = new Float64Array(model.variables.length);
  for (let j = 0; j < values.length; j++) {
    let x = raw[j] as number;
    const rounded = Math.round(x);
    if (model.variables[j]?.integer ? Math.abs(x - rounded) <= 1e-6 : Math.abs(x - rounded) <= 1e-9) x = rounded;
    values[j] = x === 0 ? 0 : x; // no -0 in results
  }
  const violation = findViolation(model, values);
  if (violation !== null) {
    return failedResult("error", solver, started, `${solver} returned an invalid solution: ${violation}`);
  }
  const named: Record<string, number> = {};
  model.variables.forEach((v, j) => {
    named[v.name] = values[j] as number;
  });
  return Object.freeze({
    status: claimed,
    values: Object.freeze(named),
    objective: evaluateTerms(model.objective.terms, values) + model.objective.constant,
    solver,
    solveTimeMs: performance.now() - started,
    ...(message !== undefined ? { message } : {}),
  });
}
