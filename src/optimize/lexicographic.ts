import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { evaluateTerms, type MilpModel, type MilpObjective, withConstraint, withObjective } from "./model.js";
import { resolveTimeLimit } from "./solver-result.js";
import { DEFAULT_TIME_LIMIT_MS, type MilpSolver, type MilpStatus } from "./solver-types.js";

/** Result of {@link solveLexicographic}. */
export interface LexicographicResult {
  /** `optimal` only when every level was proved optimal. */
  readonly status: MilpStatus;
  /** The final solution by variable name (empty without one). */
  readonly values: Readonly<Record<string, number>>;
  /** The optimum of each level that was solved, in order. */
  readonly levelValues: readonly number[];
  readonly solver: string;
  /** Total time of all solves. */
  readonly solveTimeMs: number;
  readonly message?: string;
}

/** Options of {@link solveLexicographic}. */
export interface LexicographicOptions {
  /** Budget for all levels together. @defaultValue 10 000 */
  readonly timeLimitMs?: number;
  /** A known feasible solution offered as a warm start to the first level. */
  readonly initialSolution?: Readonly<Record<string, number>>;
}

/**
 * Slack allowed when a level is fixed at its optimum: exact up to float
 * noise (javascript-lp-solver rounds its answers to 8 decimals, so a
 * purely relative slack could cut off the optimum it just reported).
 */
function levelTolerance(optimum: number): number {
  return 1e-9 * Math.abs(optimum) + 1e-7;
}

const LEXICOGRAPHIC_OPTIONS_KEYS = { timeLimitMs: true, initialSolution: true } as const satisfies OptionKeys<LexicographicOptions>;

/**
 * Lexicographic optimisation by sequential solves: level 0 is optimised;
 * its objective is then fixed at the optimum (`f0(x) <= z0` for a
 * minimisation, `>= z0` for a maximisation) and level 1 is optimised within
 * that set, and so on.
 *
 * Why this is exact: after level k is solved to optimality, the added row
 * leaves exactly the solutions that are optimal for levels 0..k (up to a
 * 1e-9 relative + 1e-7 absolute float tolerance), so the final answer minimises level 0,
 * then level 1 among those, and so on — the definition of lexicographic
 * order. No weight scaling is involved, so no level can ever be traded
 * against another, whatever the magnitudes. Each level's previous solution
 * satisfies the new row, so it is passed on as a warm start.
 *
 * When a level is stopped by the time limit with a solution, the search
 * ends there with status `feasible` (later levels are not optimised).
 *
 * @example
 * ```ts
 * const r = await solveLexicographic(model, [costObjective, timeObjective], createSolver());
 * r.levelValues; // [cheapest cost, fastest time among the cheapest]
 * ```
 */
export async function solveLexicographic(
  model: MilpModel,
  levels: readonly MilpObjective[],
  solver: MilpSolver,
  options: LexicographicOptions = {},
): Promise<LexicographicResult> {
  checkOptionKeys(options, LEXICOGRAPHIC_OPTIONS_KEYS, "solveLexicographic()");
  const started = performance.now();
  const budget = resolveTimeLimit(options, DEFAULT_TIME_LIMIT_MS);
  const deadline = started + budget;
  const levelValues: number[] = [];
  const goals = levels.length > 0 ? levels : [model.objective];
  let current = model;
  let values: Readonly<Record<string, number>> = {};
  let start = options.initialSolution;
  const finish = (status: MilpStatus, message?: string): LexicographicResult =>
    Object.freeze({
      status,
      values,
      levelValues: Object.freeze([...levelValues]),
      solver: solver.name,
      solveTimeMs: performance.now() - started,
      ...(message !== undefined ? { message } : {}),
    });

  for (let level = 0; level < goals.length; level++) {
    const objective = goals[level] as MilpObjective;
    const remaining = deadline - performance.now();
    const solved = levelValues.length > 0;
    if (remaining <= 0) {
      return finish(solved ? "feasible" : "timeout", `time limit of ${budget} ms reached before level ${level} of ${goals.length}`);
    }
    const result = await solver.solve(withObjective(current, objective), {
      timeLimitMs: remaining,
      ...(start ? { initialSolution: start } : {}),
    });
    if (result.status === "optimal" || result.status === "feasible") {
      values = result.values;
      start = result.values;
      const vector = current.variables.map((v) => result.values[v.name] as number);
      const optimum = evaluateTerms(objective.terms, vector) + objective.constant;
      levelValues.push(optimum);
      if (result.status === "feasible") {
        return finish("feasible", `level ${level} of ${goals.length} not proved optimal: ${result.message ?? "limit reached"}`);
      }
      const rhs = optimum - objective.constant;
      const tol = levelTolerance(optimum);
      current = withConstraint(current, {
        name: `lexicographic_level_${level}`,
        terms: objective.terms,
        lower: objective.sense === "maximize" ? rhs - tol : Number.NEGATIVE_INFINITY,
        upper: objective.sense === "minimize" ? rhs + tol : Number.POSITIVE_INFINITY,
      });
      continue;
    }
    if (!solved) return finish(result.status, result.message);
    // A later level cannot be infeasible (the previous optimum satisfies it);
    // if a solver says so, or times out, the last proved solution stands.
    return finish("feasible", `level ${level} of ${goals.length} ended with status ${result.status}: ${result.message ?? ""}`.trim());
  }
  return finish("optimal");
}
